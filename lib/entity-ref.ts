// An entity reference from the router names an entity by any of its keys: `id` (the global id,
// lib/global-id.ts) or `databaseId`.
import { databaseIdOf, type GlobalKind } from "./global-id.ts";

export type EntityRef = { id?: string | number | null; databaseId?: number | null };

/** The database id an entity reference names (0, which names nothing, when the id is not one of `kind`). */
export const refId = (ref: EntityRef, kind: GlobalKind = "post"): number =>
  ref.databaseId ?? (ref.id === null || ref.id === undefined ? 0 : databaseIdOf(ref.id, kind) ?? 0);
