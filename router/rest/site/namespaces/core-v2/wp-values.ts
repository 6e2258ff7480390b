// The graph answers statuses, formats and the like as GraphQL enum values (PUBLISH, AUTO_DRAFT)
// and instants as DateTime (2024-05-01T09:30:12+00:00); REST answers WordPress's strings
// (publish, auto-draft) and its zone-less GMT dates (2024-05-01T09:30:12). The conversions both
// ways, from the one list of each value set in lib/wordpress.
import { enumName } from "../../../../../lib/wordpress/enum-names.ts";
import { MENU_ITEM_TYPES } from "../../../../../lib/wordpress/menu-values.ts";
import { COMMENT_STATUSES, FILTER_STATUSES, FORMATS } from "../../../../../lib/wordpress/post-values.ts";


/** A REST input value as the graph's enum value (arrays item by item); anything else is passed on for the graph to refuse. */
export const toEnum = (value: unknown): unknown =>
  typeof value === "string" ? enumName(value) : Array.isArray(value) ? value.map(toEnum) : value;

const fromEnum = (values: readonly string[]) => {
  const byName = new Map(values.map((v) => [enumName(v), v]));
  return <T extends string | null | undefined>(name: T): string | Exclude<T, string> =>
    (typeof name === "string" ? byName.get(name) ?? name.toLowerCase() : name as Exclude<T, string>);
};

export const wpStatus = fromEnum(FILTER_STATUSES);
export const wpFormat = fromEnum(FORMATS);
export const wpDiscussion = fromEnum(COMMENT_STATUSES);
export const wpMenuItemType = fromEnum(MENU_ITEM_TYPES);

/** A DateTime as WordPress's GMT date (no zone); the graph answers UTC. */
export const wpGmt = <T extends string | null | undefined>(value: T): T =>
  (typeof value === "string" ? value.replace(/(\+00:00|Z)$/, "") : value) as T;
