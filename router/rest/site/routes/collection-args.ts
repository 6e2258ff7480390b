// The arguments every WordPress collection starts from (WP_REST_Controller::get_collection_params:
// context, page, per_page, search), and the id-list argument most of them add.
import type { ArgSchema } from "../route.ts";

export const contextArg = (def = "view"): ArgSchema => ({
  description: "Scope under which the request is made; determines fields present in response.",
  type: "string", enum: ["view", "embed", "edit"], default: def,
});

export const collectionArgs = (perPageDefault = 10): Record<string, ArgSchema> => ({
  context: contextArg(),
  page: { description: "Current page of the collection.", type: "integer", default: 1, minimum: 1 },
  per_page: { description: "Maximum number of items to be returned in result set.", type: "integer", default: perPageDefault, minimum: 1, maximum: 100 },
  search: { description: "Limit results to those matching a string.", type: "string" },
});

export const idList = (description: string): ArgSchema => ({ description, type: "array", items: { type: "integer" }, default: [] });

export const EXCLUDE_INCLUDE: Record<string, ArgSchema> = {
  exclude: idList("Ensure result set excludes specific IDs."),
  include: idList("Limit result set to specific IDs."),
};
