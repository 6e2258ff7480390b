// The gateway's collection filter grammar: `field[operator]=value`, a bare `field=value`
// meaning `eq`, conditions joined with AND and `in` giving OR inside one field (a comma list).
// Each field has a kind, and the kind fixes its operators; anything else is a constraint
// violation (422), reported for every bad condition at once, as API Platform lists violations.
import { DomainError } from "../../lib/errors.ts";

export type FieldKind = "address" | "text" | "choice" | "boolean" | "integer" | "datetime";

export interface FieldSpec {
  /** Column of the Prisma model. */
  column: string;
  kind: FieldKind;
  /** Allowed values of a `choice` field. */
  choices?: readonly string[];
}

const STRING_OPERATORS = ["eq", "neq", "contains", "ncontains", "start", "end", "in"] as const;
const ORDERED_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte"] as const;

export const OPERATORS: Record<FieldKind, readonly string[]> = {
  address: STRING_OPERATORS,
  text: STRING_OPERATORS,
  choice: ["eq", "neq", "in"],
  boolean: ["eq"],
  integer: ORDERED_OPERATORS,
  datetime: ORDERED_OPERATORS,
};

/** One condition on one field, as GraphQL receives it. */
export interface FilterCondition { operator?: string | null; value: string }
export interface OrderCondition { field: string; direction?: string | null }
export interface Violation { propertyPath: string; message: string }

/** A Prisma `where` fragment; the model-specific caller gives it its model's type. */
export type WhereClause = Record<string, unknown>;

const MAX_IN_VALUES = 100;

/** 422 with every violation, in the shape both REST and GraphQL clients read (`extensions.data.violations`). */
export function violationError(violations: Violation[]): DomainError {
  const message = violations.map((v) => `${v.propertyPath}: ${v.message}`).join("\n");
  return new DomainError("constraint_violation", message, 422, { data: { violations } });
}

const quoteList = (items: readonly string[]) => items.join(", ");

/** RFC 3339 with `Z` or an offset, or a bare date meaning midnight UTC; local times are ambiguous and refused. */
export function parseDateTime(value: string): Date | undefined {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const full = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/.test(value);
  if (!dateOnly && !full) return undefined;
  const date = new Date(dateOnly ? `${value}T00:00:00Z` : value.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parseValue(spec: FieldSpec, name: string, raw: string): Parsed {
  switch (spec.kind) {
    case "address":
    case "text":
      return { ok: true, value: raw };
    case "choice":
      return spec.choices?.includes(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: `The value "${raw}" is not a valid choice for "${name}"; allowed: ${quoteList(spec.choices ?? [])}.` };
    case "boolean":
      if (["true", "1"].includes(raw)) return { ok: true, value: true };
      if (["false", "0"].includes(raw)) return { ok: true, value: false };
      return { ok: false, message: `The value "${raw}" is not a boolean for "${name}"; use true or false.` };
    case "integer":
      return /^-?\d{1,15}$/.test(raw)
        ? { ok: true, value: Number(raw) }
        : { ok: false, message: `The value "${raw}" is not an integer for "${name}".` };
    case "datetime": {
      const date = parseDateTime(raw);
      return date
        ? { ok: true, value: date }
        : { ok: false, message: `The value "${raw}" is not an RFC 3339 date-time (or YYYY-MM-DD) for "${name}".` };
    }
  }
}

/**
 * LIKE metacharacters escaped: Prisma 6.19 sends contains/startsWith/endsWith (and insensitive
 * equals) as an ILIKE pattern without escaping, so "%" would match every address.
 */
const likeLiteral = (value: unknown) => String(value).replace(/[\\%_]/g, (c) => `\\${c}`);

/** One condition as a Prisma clause. Strings compare case-insensitively (addresses are). */
function clause(spec: FieldSpec, operator: string, value: unknown): WhereClause {
  const column = spec.column;
  if (spec.kind === "address" || spec.kind === "text") {
    const mode = "insensitive";
    // Equality goes through `in`, which Prisma sends as LOWER(column) IN (LOWER($1)…): exact, no pattern.
    const values = operator === "in" ? value : [value];
    switch (operator) {
      case "eq": case "in": return { [column]: { in: values, mode } };
      case "neq": return { NOT: { [column]: { in: values, mode } } };
      case "contains": return { [column]: { contains: likeLiteral(value), mode } };
      case "ncontains": return { NOT: { [column]: { contains: likeLiteral(value), mode } } };
      case "start": return { [column]: { startsWith: likeLiteral(value), mode } };
      case "end": return { [column]: { endsWith: likeLiteral(value), mode } };
    }
  }
  switch (operator) {
    case "eq": return { [column]: value };
    case "neq": return { [column]: { not: value } };
    case "in": return { [column]: { in: value } };
    default: return { [column]: { [operator]: value } }; // gt, gte, lt, lte
  }
}

export interface CollectionQuery {
  /** AND-list of clauses. */
  where: WhereClause[];
  /** Prisma orderBy, always ending with the id as a stable tie-breaker. */
  orderBy: Record<string, "asc" | "desc">[];
}

function whereClauses(fields: Record<string, FieldSpec>, filter: Record<string, FilterCondition[] | null | undefined> | null | undefined, violations: Violation[]): WhereClause[] {
  const clauses: WhereClause[] = [];
  for (const [name, conditions] of Object.entries(filter ?? {})) {
    const spec = fields[name];
    if (!spec || !conditions) continue;
    for (const { operator: given, value } of conditions) {
      const operator = given ?? "eq";
      const allowed = OPERATORS[spec.kind];
      if (!allowed.includes(operator)) {
        violations.push({ propertyPath: name, message: `Unsupported operator "${operator}" for "${name}"; allowed: ${quoteList(allowed)}.` });
        continue;
      }
      const raws = operator === "in" ? value.split(",").map((v) => v.trim()) : [value];
      if (raws.length > MAX_IN_VALUES) {
        violations.push({ propertyPath: name, message: `At most ${MAX_IN_VALUES} values are allowed in "${name}[in]".` });
        continue;
      }
      const parsed = raws.map((raw) => parseValue(spec, name, raw));
      const bad = parsed.find((p): p is Extract<Parsed, { ok: false }> => !p.ok);
      if (bad) { violations.push({ propertyPath: name, message: bad.message }); continue; }
      const values = parsed.map((p) => (p as Extract<Parsed, { ok: true }>).value);
      clauses.push(clause(spec, operator, operator === "in" ? values : values[0]));
    }
  }
  return clauses;
}

function orderClauses(fields: Record<string, FieldSpec>, order: OrderCondition[] | null | undefined, violations: Violation[]): CollectionQuery["orderBy"] {
  const orderBy: CollectionQuery["orderBy"] = [];
  for (const { field, direction } of order ?? []) {
    const spec = fields[field];
    const dir = (direction ?? "asc").toLowerCase();
    const propertyPath = `order[${field}]`;
    if (!spec) { violations.push({ propertyPath, message: `"${field}" is not sortable; allowed: ${quoteList(Object.keys(fields))}.` }); continue; }
    if (dir !== "asc" && dir !== "desc") { violations.push({ propertyPath, message: `Unsupported direction "${direction}"; allowed: asc, desc.` }); continue; }
    orderBy.push({ [spec.column]: dir });
  }
  if (!orderBy.some((o) => "id" in o)) orderBy.push({ id: "asc" });
  return orderBy;
}

/**
 * Filter (field name → its conditions) and order over `fields`, as Prisma clauses; throws one
 * 422 listing every unsupported operator, malformed value and bad sort direction.
 */
export function buildCollectionQuery(
  fields: Record<string, FieldSpec>,
  filter: Record<string, FilterCondition[] | null | undefined> | null | undefined,
  order: OrderCondition[] | null | undefined,
): CollectionQuery {
  const violations: Violation[] = [];
  const where = whereClauses(fields, filter, violations);
  const orderBy = orderClauses(fields, order, violations);
  if (violations.length) throw violationError(violations);
  return { where, orderBy };
}
