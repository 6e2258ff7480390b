// Argument schemas WordPress's controllers share (WP_REST_Controller::get_collection_params and
// friends), declared once; a route's own arguments are built from these.
import { DEFAULT_PER_PAGE, PAGE_MIN, PER_PAGE_MAX, PER_PAGE_MIN, type PagedList } from "../../../../lib/wordpress/limits.ts";
import type { ArgSchema } from "../route.ts";

export type Args = Record<string, ArgSchema>;

export const contextArg = (def = "view", values: string[] = ["view", "embed", "edit"]): ArgSchema => ({
  description: "Scope under which the request is made; determines fields present in response.",
  type: "string", enum: values, default: def,
});

export interface PageSize { default?: number; minimum: number; maximum: number }

/** A list's page size: its default and the bounds, from the constants the content subgraph enforces. */
export const pageSize = (list: PagedList): PageSize =>
  ({ default: DEFAULT_PER_PAGE[list] ?? undefined, minimum: PER_PAGE_MIN, maximum: PER_PAGE_MAX });

/** context, page, per_page, search: every collection's start. */
export const collectionArgs = (perPage: PageSize = pageSize("posts")): Args => ({
  context: contextArg(),
  page: { description: "Current page of the collection.", type: "integer", default: 1, minimum: PAGE_MIN },
  per_page: {
    description: "Maximum number of items to be returned in result set.", type: "integer",
    ...(perPage.default !== undefined ? { default: perPage.default } : {}), minimum: perPage.minimum, maximum: perPage.maximum,
  },
  search: { description: "Limit results to those matching a string.", type: "string" },
});

export const idList = (description: string): ArgSchema => ({ description, type: "array", items: { type: "integer" }, default: [] });

export const EXCLUDE_INCLUDE: Args = {
  exclude: idList("Ensure result set excludes specific IDs."),
  include: idList("Limit result set to specific IDs."),
};

export const offsetArg: ArgSchema = { description: "Offset the result set by a specific number of items.", type: "integer" };

export const orderArg = (def: "asc" | "desc"): ArgSchema =>
  ({ description: "Order sort attribute ascending or descending.", type: "string", default: def, enum: ["asc", "desc"] });

export const forceArg = (description: string): ArgSchema => ({ type: "boolean", default: false, description });

/** The argument set without the named arguments (order kept). */
export const omit = (args: Args, names: string[]): Args => Object.fromEntries(Object.entries(args).filter(([name]) => !names.includes(name)));

/** A term filter argument (categories, tags, menus): an id list or `{terms, operator, include_children}`. */
export const termFilter = (name: string, hierarchical: boolean, exclude: boolean): ArgSchema => ({
  description: exclude
    ? `Limit result set to items except those with specific terms assigned in the ${name} taxonomy.`
    : `Limit result set to items with specific terms assigned in the ${name} taxonomy.`,
  type: ["object", "array"],
  oneOf: [
    { title: "Term ID List", description: "Match terms with the listed IDs.", type: "array", items: { type: "integer" } },
    {
      title: "Term ID Taxonomy Query", description: "Perform an advanced term query.", type: "object",
      properties: {
        terms: { description: "Term IDs.", type: "array", items: { type: "integer" }, default: [] },
        ...(hierarchical ? { include_children: { description: "Whether to include child terms in the terms limiting the result set.", type: "boolean", default: false } } : {}),
        ...(exclude ? {} : { operator: { description: "Whether items must be assigned all or any of the specified terms.", type: "string", enum: ["AND", "OR"], default: "OR" } }),
      },
      additionalProperties: false,
    },
  ],
});

/** A term filter's value as the graph's TermFilter input. */
export const termFilterInput = (value: unknown) => {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.length ? { terms: value } : undefined;
  const v = value as { terms?: number[]; operator?: string; include_children?: boolean };
  return { terms: v.terms ?? [], operator: v.operator ?? "OR", includeChildren: v.include_children ?? false };
};

/** `asc` → `ASC`: a REST enum value (already checked against the route's enum) as the graph's enum value. */
export const upper = <T extends string>(value: unknown): T => String(value ?? "").toUpperCase() as T;

// Readers of a route's own arguments (validated against its schema, so these only narrow the
// type: a value of another type, or an absent one, reads as undefined).
export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
export const int = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
export const bool = (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined);
export const strs = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.map(String) : undefined);
