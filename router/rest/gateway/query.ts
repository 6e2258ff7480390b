// Collection query parameters in the gateway's style: `field[operator]=value` (a bare
// `field=value` means eq), `order[field]=asc|desc`, `page`, `itemsPerPage`. Parameters naming no
// declared filter are ignored, as API Platform ignores unknown parameters; operators and values
// are checked by the subgraph, which owns the filter grammar and answers with violations.
import { GatewayProblem } from "./problems.ts";

export interface CollectionParams {
  /** Properties that take filters. */
  filters: readonly string[];
  /** Properties that `order[...]` may name. */
  order: readonly string[];
}

export interface CollectionVariables {
  filter: Record<string, { operator: string; value: string }[]>;
  order: { field: string; direction: string }[];
  /** Left out when not sent, so the subgraph's defaults apply (page 1, 30 per page). */
  page?: number;
  itemsPerPage?: number;
  [name: string]: unknown;
}

const INT_MAX = 2 ** 31 - 1;
const BRACKETED = /^([^[\]]+)\[(.*)\]$/;

function positiveInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > INT_MAX) throw new GatewayProblem(400, `Invalid value for "${name}": a positive integer is expected.`);
  return n;
}

export function collectionVariables(query: URLSearchParams, params: CollectionParams): CollectionVariables {
  const filter: CollectionVariables["filter"] = {};
  const order: CollectionVariables["order"] = [];
  for (const [key, value] of query) {
    const bracketed = BRACKETED.exec(key);
    const name = bracketed ? bracketed[1] : key;
    if (name === "order" && bracketed) {
      if (params.order.includes(bracketed[2])) order.push({ field: bracketed[2], direction: value });
    } else if (params.filters.includes(name)) {
      (filter[name] ??= []).push({ operator: bracketed ? bracketed[2] : "eq", value });
    }
  }
  const variables: CollectionVariables = { filter, order };
  const page = positiveInt(query, "page");
  const itemsPerPage = positiveInt(query, "itemsPerPage");
  if (page !== undefined) variables.page = page;
  if (itemsPerPage !== undefined) variables.itemsPerPage = itemsPerPage;
  return variables;
}

/** Whether any filter or order parameter was applied (Hydra shows a view for filtered collections). */
export const isFiltered = (variables: CollectionVariables): boolean =>
  Object.keys(variables.filter).length > 0 || variables.order.length > 0;
