// Whether the caller may edit the objects a language write touches, asked of the content subgraph
// (which owns posts, pages and menu items and knows their authors and statuses): one request for
// the whole write, each object read as the caller with its `viewerCan { edit }`. WordPress checks
// edit_post on the object before Polylang writes its language; categories and tags have no
// per-object rule (edit_term maps to manage_categories), so the type's capability covers them.
import { fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
import { askSubgraphAsPartial } from "../peer.ts";
import type { TranslatableType } from "./translations.ts";

/** The content subgraph's single-object field for each type checked per object. */
const OBJECT_FIELD: Partial<Record<TranslatableType, { field: string; idType: string }>> = {
  POST: { field: "post", idType: "DATABASE_ID" },
  PAGE: { field: "page", idType: "DATABASE_ID" },
  NAV_MENU_ITEM: { field: "menuItem", idType: "DATABASE_ID" },
};

export const checksPerObject = (objectType: TranslatableType): boolean => OBJECT_FIELD[objectType] !== undefined;

/** What the content subgraph says of each object: editable, not editable, or not there (404). */
export type ObjectAccess = "edit" | "denied" | "missing";

/** Every id's access in one content request (aliases o0, o1, …). */
export async function objectAccess(ctx: ExtensionsContext, objectType: TranslatableType, ids: readonly number[]): Promise<Map<number, ObjectAccess>> {
  const spec = OBJECT_FIELD[objectType];
  const access = new Map<number, ObjectAccess>();
  const unique = [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0))];
  if (!spec || unique.length === 0) return access;
  const selections = unique.map((id, i) => `o${i}: ${spec.field}(id: "${id}", idType: ${spec.idType}) { databaseId viewerCan { edit } }`);
  const { data, errors } = await askSubgraphAsPartial<Record<string, { databaseId: number; viewerCan: { edit: boolean } } | null>>(
    ctx, "content", `query LanguageWriteAccess { ${selections.join("\n")} }`, {});
  const errorByAlias = new Map(errors.map((e) => [String(e.path?.[0] ?? ""), e]));
  if (!data && errors.length) {
    // The whole request failed (the content subgraph is down or refused it): nothing is known.
    fail("rest_cannot_edit", { message: "Sorry, you are not allowed to edit this post.", signedIn: ctx.identity.site !== undefined });
  }
  unique.forEach((id, i) => {
    const node = data?.[`o${i}`];
    if (node) access.set(id, node.viewerCan.edit ? "edit" : "denied");
    else access.set(id, errorByAlias.get(`o${i}`)?.extensions?.status === 404 ? "missing" : "denied");
  });
  return access;
}

/** Refuses the write, WordPress's way (401 anonymous, 403 signed in), when any object is not editable. */
export function refuseEdit(ctx: ExtensionsContext, objectType: TranslatableType): never {
  const noun = objectType === "PAGE" ? "page" : objectType === "NAV_MENU_ITEM" ? "menu item" : "post";
  return fail("rest_cannot_edit", {
    message: `Sorry, you are not allowed to edit this ${noun}.`,
    signedIn: ctx.identity.site !== undefined,
  });
}
