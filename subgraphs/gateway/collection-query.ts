// Collection filters and order as Prisma clauses. The grammar (operators per property type, value
// parsing, violations) is lib/gateway/collection-rules.ts, shared with the /api/v2 layer; this
// module only maps a parsed condition onto a column.
import {
  isViolation, parseCondition, parseDirection, violationError,
  type Condition, type FilterSpec, type Violation,
} from "../../lib/gateway/collection-rules.ts";

/** A filterable, sortable property of a model: its column and its type in the grammar. */
export interface ColumnSpec<Row> extends FilterSpec { column: keyof Row & string }

/** One condition on one field, as GraphQL receives it. */
export interface FilterInput { operator?: string | null; value: string }
export interface OrderInput<Field extends string> { field: Field; direction?: string | null }

/** A Prisma `where` fragment; the model-specific caller gives it its model's type. */
export type WhereClause = Record<string, unknown>;

/**
 * LIKE metacharacters escaped: Prisma 6.19 sends contains/startsWith/endsWith (and insensitive
 * equals) as an ILIKE pattern without escaping, so "%" would match every address.
 */
const likeLiteral = (value: unknown) => String(value).replace(/[\\%_]/g, (c) => `\\${c}`);

/** One condition as a Prisma clause. Strings compare case-insensitively (addresses are). */
function clause(column: string, type: FilterSpec["type"], { operator, value }: Condition): WhereClause {
  if (type === "string") {
    const mode = "insensitive";
    // Equality goes through `in`, which Prisma sends as LOWER(column) IN (LOWER($1)…): exact, no pattern.
    const values = Array.isArray(value) ? value : [value];
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
    default: return { [column]: { [operator]: value } }; // in, gt, gte, lt, lte
  }
}

export interface CollectionQuery {
  /** AND-list of clauses. */
  where: WhereClause[];
  /** Prisma orderBy, always ending with the id as a stable tie-breaker. */
  orderBy: Record<string, "asc" | "desc">[];
}

/**
 * Filter (field → its conditions) and order over `columns`, as Prisma clauses; throws one 422
 * listing every unsupported operator, malformed value and bad sort direction.
 */
export function buildCollectionQuery<Row, Field extends string>(
  columns: Record<Field, ColumnSpec<Row>>,
  filter: Partial<Record<Field, readonly FilterInput[] | null>> | null | undefined,
  order: readonly OrderInput<Field>[] | null | undefined,
): CollectionQuery {
  const violations: Violation[] = [];
  const where: WhereClause[] = [];
  for (const [name, conditions] of Object.entries(filter ?? {}) as [Field, readonly FilterInput[] | null][]) {
    const spec = columns[name];
    for (const { operator, value } of spec ? conditions ?? [] : []) {
      const parsed = parseCondition(name, spec, operator ?? "eq", value);
      if (isViolation(parsed)) violations.push(parsed);
      else where.push(clause(spec.column, spec.type, parsed));
    }
  }
  const orderBy: CollectionQuery["orderBy"] = [];
  for (const { field, direction } of order ?? []) {
    const dir = parseDirection(field, direction ?? "asc");
    if (isViolation(dir)) violations.push(dir);
    else orderBy.push({ [columns[field].column]: dir });
  }
  if (violations.length) throw violationError(violations);
  if (!orderBy.some((o) => "id" in o)) orderBy.push({ id: "asc" });
  return { where, orderBy };
}
