// The content subgraph's scalar and enum mappings. DateTime is written as the gateway subgraph
// writes it (RFC 3339, numeric offset, no fraction); the domain's WordPress-style UTC strings
// (YYYY-MM-DDTHH:MM:SS) become instants by adding +00:00. Enums have WordPress's strings as their
// internal values, so domain code keeps `publish`, `auto-draft`, `open` while GraphQL answers
// PUBLISH, AUTO_DRAFT, OPEN.
import { GraphQLScalarType, Kind } from "graphql";
import { fail } from "../../lib/errors.ts";
import { enumName } from "../../lib/wordpress/enum-names.ts";
import { MENU_ITEM_TYPES } from "../../lib/wordpress/menu-values.ts";
import { COMMENT_STATUSES, FILTER_STATUSES, FORMATS } from "../../lib/wordpress/post-values.ts";

const WP_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** An instant as DateTime writes it. */
export const formatDateTime = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, "+00:00");

function toDate(value: unknown): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  if (typeof value === "string") {
    const date = WP_UTC.test(value) ? new Date(`${value}Z`) : RFC3339.test(value) ? new Date(value) : null;
    if (date && !Number.isNaN(date.getTime())) return date;
  }
  return fail("invalid_datetime");
}

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: "DateTime",
  serialize: (value) => formatDateTime(toDate(value)),
  parseValue: toDate,
  parseLiteral: (ast) => toDate(ast.kind === Kind.STRING ? ast.value : undefined),
});


/** An enum's internal values: each GraphQL name → the WordPress string. */
const internal = (values: readonly string[], extra: Record<string, string> = {}): Record<string, string> =>
  ({ ...Object.fromEntries(values.map((v) => [enumName(v), v])), ...extra });

export const enumResolvers = {
  DateTime: DateTimeScalar,
  PostStatusEnum: internal(FILTER_STATUSES),
  PostFormatEnum: internal(FORMATS),
  DiscussionStatus: internal(COMMENT_STATUSES),
  MenuItemTypeEnum: internal(MENU_ITEM_TYPES),
};
