// Collection query parameters in the gateway's style, read from a resource's declaration:
// `field[operator]=value` (a bare `field=value` means eq), `order[field]=asc|desc`, `page`,
// `itemsPerPage`. Parameters naming no filterable property are ignored, as API Platform ignores
// unknown parameters. Operators, values, directions and page bounds are checked here with the
// rules the subgraph enforces (lib/gateway/collection-rules.ts): every violation in one 422.
import {
  INT32_MAX, isViolation, pageWindow, parseCondition, parseDirection, violationError, type Violation,
} from "../../../lib/gateway/collection-rules.ts";
import { GatewayProblem } from "./problems.ts";
import type { CollectionVariables, FilterCondition, Properties, Resource } from "./resource.ts";

const BRACKETED = /^([^[\]]+)\[(.*)\]$/;

function positiveInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > INT32_MAX) throw new GatewayProblem(400, `Invalid value for "${name}": a positive integer is expected.`);
  return n;
}

export interface ParsedCollectionQuery<P extends Properties> {
  variables: CollectionVariables<P>;
  /** Whether any filter or order parameter applied (Hydra then shows a view even on one page). */
  filtered: boolean;
}

export function parseCollectionQuery<P extends Properties>(resource: Resource<P>, query: URLSearchParams): ParsedCollectionQuery<P> {
  const page = positiveInt(query, "page");
  const itemsPerPage = positiveInt(query, "itemsPerPage");
  pageWindow(page ?? 1, itemsPerPage ?? 1); // the subgraph's bounds, answered before the round trip

  const filter: Record<string, FilterCondition[]> = {};
  const order: { field: string; direction: string }[] = [];
  const violations: Violation[] = [];
  for (const [key, value] of query) {
    const bracketed = BRACKETED.exec(key);
    const name = bracketed ? bracketed[1] : key;
    if (name === "order" && bracketed) {
      const property = resource.properties[bracketed[2]];
      if (!property?.order) continue;
      const direction = parseDirection(bracketed[2], value);
      if (isViolation(direction)) violations.push(direction);
      else order.push({ field: property.field ?? bracketed[2], direction });
      continue;
    }
    const property = resource.properties[name];
    if (!property?.filter) continue;
    const operator = bracketed ? bracketed[2] : "eq";
    const parsed = parseCondition(name, property, operator, value);
    if (isViolation(parsed)) violations.push(parsed);
    else (filter[property.field ?? name] ??= []).push({ operator: parsed.operator, value });
  }
  if (violations.length) throw violationError(violations);
  // Keys come from the declaration's filterable and sortable properties, by their GraphQL fields:
  // exactly the shape CollectionVariables<P> spells out.
  const variables = { filter, order } as CollectionVariables<P>;
  if (page !== undefined) variables.page = page;
  if (itemsPerPage !== undefined) variables.itemsPerPage = itemsPerPage;
  return { variables, filtered: Object.keys(filter).length > 0 || order.length > 0 };
}
