// DateTime as the gateway writes it: RFC 3339 with a numeric offset and no fraction
// (Symfony's DateTimeNormalizer default, e.g. 2024-05-01T09:30:12+00:00), never "Z".
import { GraphQLScalarType, Kind } from "graphql";
import { fail } from "../../lib/errors.ts";
import { parseDateTime } from "../../lib/gateway/collection-rules.ts";

export const formatDateTime = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, "+00:00");

function parse(value: unknown): Date {
  const date = typeof value === "string" ? parseDateTime(value) : undefined;
  return date ?? fail("invalid_datetime");
}

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: "DateTime",
  serialize: (value) => {
    if (value instanceof Date) return formatDateTime(value);
    return formatDateTime(parse(value));
  },
  parseValue: parse,
  parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : undefined),
});
