// An entity reference from the router names an entity by any of its keys: `id` or `databaseId`.
export type EntityRef = { id?: string | number | null; databaseId?: number | null };

/** The database id an entity reference names. */
export const refId = (ref: EntityRef): number => Number(ref.databaseId ?? ref.id);
