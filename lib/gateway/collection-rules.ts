// The email gateway's collection rules, held once for both edges: the subgraph enforces them for
// every caller (GraphQL included) and the /api/v2 layer validates and documents from them.
// Filters are `field[operator]=value` (a bare `field=value` means eq), joined with AND, `in` giving
// OR inside one field; each property type allows the operators of ONE table below. Anything else
// is a constraint violation (422), every bad condition reported at once, as API Platform does.
import type { DomainError } from "../errors.ts";
import { domainError } from "../errors.ts";
import { MAX_ADDRESS_LENGTH } from "./licensing.ts";

export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;

/** `page` is 1-based; `itemsPerPage` defaults to 30 and is clamped to 100 (API Platform's maximum_items_per_page clamps silently). */
export const DEFAULT_ITEMS_PER_PAGE = 30;
export const MAX_ITEMS_PER_PAGE = 100;
/** At most this many comma-separated values in one `field[in]=`. */
export const MAX_IN_VALUES = 100;

export type PropertyType = "string" | "enum" | "integer" | "boolean" | "datetime";

const STRING = ["eq", "neq", "contains", "ncontains", "start", "end", "in"] as const;
const ORDERED = ["eq", "neq", "gt", "gte", "lt", "lte"] as const;

/** The operators each property type allows: the one table both edges read. */
export const OPERATORS = {
  string: STRING,
  enum: ["eq", "neq", "in"],
  boolean: ["eq"],
  integer: ORDERED,
  datetime: ORDERED,
} as const satisfies Record<PropertyType, readonly string[]>;

export type Operator = (typeof OPERATORS)[PropertyType][number];
export const DIRECTIONS = ["asc", "desc"] as const;
export type Direction = (typeof DIRECTIONS)[number];

export interface Violation { propertyPath: string; message: string }

/** 422 with every violation, in the shape REST and GraphQL clients both read (`extensions.data.violations`). */
export function violationError(violations: Violation[]): DomainError {
  const message = violations.map((v) => `${v.propertyPath}: ${v.message}`).join("\n");
  return domainError("constraint_violation", { message, data: { violations } });
}

const badInput = (message: string) => domainError("BAD_USER_INPUT", { message });

export interface PageWindow { page: number; itemsPerPage: number; skip: number; take: number }

/** The rows a page covers; a user error (400, BAD_USER_INPUT) for a page below 1 or beyond what an int32 offset reaches. */
export function pageWindow(page: number, itemsPerPage: number): PageWindow {
  if (!Number.isInteger(page) || page < 1) throw badInput("Page should not be less than 1.");
  if (!Number.isInteger(itemsPerPage) || itemsPerPage < 1) throw badInput("Items per page should not be less than 1.");
  const size = Math.min(itemsPerPage, MAX_ITEMS_PER_PAGE);
  const skip = (page - 1) * size;
  if (skip > INT32_MAX) throw badInput("Page is out of range.");
  return { page, itemsPerPage: size, skip, take: size };
}

/** RFC 3339 with `Z` or an offset, or a bare date meaning midnight UTC; local times are ambiguous and refused. */
export function parseDateTime(value: string): Date | undefined {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const full = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/.test(value);
  if (!dateOnly && !full) return undefined;
  const date = new Date(dateOnly ? `${value}T00:00:00Z` : value.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** What the grammar needs to know of a property; an `email` is at most 254 characters (seed 001 §8). */
export interface FilterSpec { type: PropertyType; values?: readonly string[]; format?: string }

export type FilterValue = string | number | boolean | Date;
export type Condition = { operator: Operator; value: FilterValue } | { operator: "in"; value: FilterValue[] };

const list = (items: readonly string[]) => items.join(", ");

function parseValue(spec: FilterSpec, name: string, raw: string): FilterValue | Violation {
  const violation = (message: string): Violation => ({ propertyPath: name, message });
  switch (spec.type) {
    case "string":
      // Longer addresses are refused wherever they enter; the answer quotes only their start.
      return spec.format === "email" && raw.length > MAX_ADDRESS_LENGTH
        ? violation(`The address "${raw.slice(0, 64)}…" is longer than ${MAX_ADDRESS_LENGTH} characters.`)
        : raw;
    case "enum":
      return spec.values?.includes(raw) ? raw : violation(`The value "${raw}" is not a valid choice for "${name}"; allowed: ${list(spec.values ?? [])}.`);
    case "boolean":
      if (raw === "true" || raw === "1") return true;
      if (raw === "false" || raw === "0") return false;
      return violation(`The value "${raw}" is not a boolean for "${name}"; use true or false.`);
    case "integer": {
      if (!/^-?\d{1,15}$/.test(raw)) return violation(`The value "${raw}" is not an integer for "${name}".`);
      const n = Number(raw);
      return n < INT32_MIN || n > INT32_MAX ? violation(`The value "${raw}" is out of range for "${name}" (${INT32_MIN} to ${INT32_MAX}).`) : n;
    }
    case "datetime":
      return parseDateTime(raw) ?? violation(`The value "${raw}" is not an RFC 3339 date-time (or YYYY-MM-DD) for "${name}".`);
  }
}

export const isViolation = (value: unknown): value is Violation => typeof value === "object" && value !== null && "propertyPath" in value;

/** One `name[operator]=raw` condition, parsed; or the violation naming the property and what it allows. */
export function parseCondition(name: string, spec: FilterSpec, operator: string, raw: string): Condition | Violation {
  const allowed: readonly string[] = OPERATORS[spec.type];
  if (!allowed.includes(operator)) {
    return { propertyPath: name, message: `Unsupported operator "${operator}" for "${name}"; allowed: ${list(allowed)}.` };
  }
  if (operator === "in") {
    const raws = raw.split(",").map((v) => v.trim());
    if (raws.length > MAX_IN_VALUES) return { propertyPath: name, message: `At most ${MAX_IN_VALUES} values are allowed in "${name}[in]".` };
    const values = raws.map((r) => parseValue(spec, name, r));
    return values.find(isViolation) ?? { operator, value: values as FilterValue[] };
  }
  const value = parseValue(spec, name, raw);
  return isViolation(value) ? value : { operator: operator as Operator, value };
}

/** A sort direction, case-insensitive; or the violation on `order[field]`. */
export function parseDirection(field: string, direction: string): Direction | Violation {
  const dir = direction.toLowerCase();
  return dir === "asc" || dir === "desc" ? dir : { propertyPath: `order[${field}]`, message: `Unsupported direction "${direction}"; allowed: ${list(DIRECTIONS)}.` };
}
