// The collection arguments of WordPress's posts controller (seed 000 §4.2: query sets L-post,
// L-page, L-media, L-menu, L-rev) and how they become the graph's `…Where` filter. Every post
// type's list derives from L-post, as WordPress derives each type's from its supports.
import { FILTER_STATUSES, FORMATS } from "../../../../../lib/wordpress/post-values.ts";
import type { ArgSchema, ValidatedParams } from "../../route.ts";
import { collectionArgs, EXCLUDE_INCLUDE, idList, offsetArg, omit, orderArg, termFilter, termFilterInput, type Args } from "../../kit/args.ts";
import { mapInput, type Field } from "../../kit/resource.ts";
import { toEnum } from "./wp-values.ts";

const dateArg = (description: string): ArgSchema => ({ description, type: "string", format: "date-time" });

/** L-post. */
export const POST_LIST_ARGS: Args = {
  ...collectionArgs(),
  after: dateArg("Limit response to posts published after a given ISO8601 compliant date."),
  modified_after: dateArg("Limit response to posts modified after a given ISO8601 compliant date."),
  author: idList("Limit result set to posts assigned to specific authors."),
  author_exclude: idList("Ensure result set excludes posts assigned to specific authors."),
  before: dateArg("Limit response to posts published before a given ISO8601 compliant date."),
  modified_before: dateArg("Limit response to posts modified before a given ISO8601 compliant date."),
  ...EXCLUDE_INCLUDE,
  search_semantics: { description: "How to interpret the search input.", type: "string", enum: ["exact"] },
  offset: offsetArg,
  order: orderArg("desc"),
  orderby: {
    description: "Sort collection by post attribute.", type: "string", default: "date",
    enum: ["author", "date", "id", "include", "modified", "parent", "relevance", "slug", "include_slugs", "title"],
  },
  search_columns: { description: "Array of column names to be searched.", type: "array", items: { type: "string", enum: ["post_title", "post_content", "post_excerpt"] }, default: [] },
  slug: { description: "Limit result set to posts with one or more specific slugs.", type: "array", items: { type: "string" } },
  status: {
    description: "Limit result set to posts assigned one or more statuses.", type: "array",
    items: { type: "string", enum: FILTER_STATUSES }, default: "publish",
  },
  tax_relation: { description: "Limit result set based on relationship between multiple taxonomies.", type: "string", enum: ["AND", "OR"] },
  categories: termFilter("categories", true, false),
  categories_exclude: termFilter("categories", true, true),
  tags: termFilter("tags", false, false),
  tags_exclude: termFilter("tags", false, true),
  sticky: { description: "Limit result set to items that are sticky.", type: "boolean" },
  format: { description: "Limit result set to items assigned one or more given formats.", type: "array", uniqueItems: true, items: { enum: FORMATS, type: "string" } },
};

/** Post-only filters: what a type without sticky posts, formats or post taxonomies drops. */
export const POST_ONLY_FILTERS = ["sticky", "format", "tax_relation", "categories", "categories_exclude", "tags", "tags_exclude"];

export const menuOrderFilter: ArgSchema = { description: "Limit result set to posts with a specific menu_order value.", type: "integer" };

/** Inserts arguments after the named one (WordPress adds a type's filters at fixed places). */
export const insertAfter = (args: Args, after: string, added: Args): Args =>
  Object.fromEntries(Object.entries(args).flatMap(([name, schema]) => (name === after ? [[name, schema], ...Object.entries(added)] : [[name, schema]])));

/** L-page: L-post without sticky/format/terms; adds menu_order, parent, parent_exclude; orderby menu_order. */
export const PAGE_LIST_ARGS: Args = insertAfter(insertAfter(omit(POST_LIST_ARGS, POST_ONLY_FILTERS), "include", { menu_order: menuOrderFilter }), "orderby", {
  parent: idList("Limit result set to items with particular parent IDs."),
  parent_exclude: idList("Limit result set to all items except those of a particular parent ID."),
});
PAGE_LIST_ARGS.orderby = { ...POST_LIST_ARGS.orderby, enum: [...(POST_LIST_ARGS.orderby.enum ?? []), "menu_order"] };

/** L-rev: the revisions collection (per_page without a default). */
export const REVISION_LIST_ARGS = (parent: ArgSchema): Args => ({
  parent,
  ...collectionArgs({ minimum: 1, maximum: 100 }),
  ...EXCLUDE_INCLUDE,
  offset: offsetArg,
  order: orderArg("desc"),
  orderby: { description: "Sort collection by object attribute.", type: "string", default: "date", enum: ["date", "id", "include", "relevance", "slug", "include_slugs", "title"] },
});

/** REST list argument → field of the graph's `…Where` input. */
const WHERE: Record<string, Pick<Field<unknown>, "input">> = Object.fromEntries(Object.entries({
  search: "search",
  search_columns: ["searchColumns", (v: unknown) => (v as string[]).map((c) => c.toUpperCase())],
  search_semantics: ["searchSemantics", () => "EXACT"],
  after: "after", before: "before", modified_after: "modifiedAfter", modified_before: "modifiedBefore",
  author: "author", author_exclude: "authorExclude", include: "include", exclude: "exclude", slug: "slug", status: ["status", toEnum],
  tax_relation: "taxRelation",
  categories: ["categories", termFilterInput], categories_exclude: ["categoriesExclude", termFilterInput],
  tags: ["tags", termFilterInput], tags_exclude: ["tagsExclude", termFilterInput],
  menus: ["menus", termFilterInput], menus_exclude: ["menusExclude", termFilterInput],
  sticky: "sticky", format: ["format", toEnum], parent: "parent", parent_exclude: "parentExclude", menu_order: "menuOrder",
} as Record<string, Field<unknown>["input"]>).map(([name, input]) => [name, { input }]));

/** The list filter from the route's own arguments (a parameter the route does not declare is ignored, as in WordPress). */
export const listWhere = (args: Args, params: ValidatedParams) => mapInput(WHERE, params, (name) => name in args);
