// A gateway resource, declared once: its properties (type, GraphQL field, filterable with the
// operators its type allows, sortable, read-only or write-only), its collection path and item IRI.
// Routes (resource-routes.ts), filter parsing (query.ts), Hydra/HAL/JSON shaping (formats.ts) and
// the OpenAPI document (openapi.ts) all read this; the types below tie it to the typed operations,
// so a property the graph does not select, or selects with another type, fails `tsc`.
import { OPERATORS, type Operator, type PropertyType } from "../../../lib/gateway/collection-rules.ts";
import type { JsonObject } from "./openapi.ts";
import { API_BASE } from "./route.ts";

interface PropertyBase {
  description?: string;
  /** The GraphQL field it reads and filters by, when its name differs from the property's. */
  field?: string;
  /** Takes `name[operator]=value` filters, with the operators of OPERATORS[type]. */
  filter?: boolean;
  /** May be named by `order[name]=asc|desc`. */
  order?: boolean;
  /** Shown, never written (ids, computed values). */
  readOnly?: boolean;
  /** Written, never read back: secrets and credentials. */
  writeOnly?: boolean;
  /** A list of values of the type (e.g. a message's recipients). */
  list?: boolean;
  /** May be null (an absent Date header, a hidden envelope). */
  nullable?: boolean;
}

export type Property =
  | PropertyBase & { type: "string"; format?: "email" | "password" | "hostname" }
  | PropertyBase & { type: "enum"; values: readonly string[] }
  | PropertyBase & { type: Exclude<PropertyType, "string" | "enum"> };

export type Properties = Record<string, Property>;

export interface ResourceDeclaration<P extends Properties> {
  /** Short name: Hydra `@type`, `/api/v2/contexts/<name>`, the OpenAPI schema name. */
  name: string;
  description?: string;
  /** Collection path under /api/v2; items live at `<path>/{id}`. Left out for bodies that are not resources (login). */
  path?: string;
  /** Where items live when not under the collection path (messages: `/messages` and `/message/{id}`). */
  itemPath?: string;
  properties: P;
}

export interface Resource<P extends Properties = Properties> extends ResourceDeclaration<P> {
  /** Properties that are shown, in declaration order, with the GraphQL field each reads. */
  readonly shown: readonly { name: string; field: string }[];
}

/** A resource of any shape, where only its runtime facts matter (OpenAPI, routing). */
export type AnyResource = Resource<Properties>;

/** Declares a resource; `const` keeps the literal types the typed operations are checked against. */
export function resource<const P extends Properties>(declaration: ResourceDeclaration<P>): Resource<P> {
  const shown = Object.entries(declaration.properties)
    .filter(([, p]) => !p.writeOnly)
    .map(([name, p]) => ({ name, field: p.field ?? name }));
  return { ...declaration, shown };
}

export const collectionIri = (resource: AnyResource): string => `${API_BASE}${resource.path}`;
export const itemIri = (resource: AnyResource, id: unknown): string => `${API_BASE}${resource.itemPath ?? resource.path}/${encodeURIComponent(String(id))}`;

/** One value of a property's type. */
type ScalarOf<T extends Property> =
  T extends { type: "enum"; values: readonly (infer V)[] } ? V
  : T extends { type: "integer" } ? number
  : T extends { type: "boolean" } ? boolean
  : string; // string, datetime (RFC 3339)

/** The value a property has in the graph's answer: a list property's is an array (JSON arrays in REST). */
export type ValueOf<T extends Property> = T extends { list: true } ? ScalarOf<T>[] : ScalarOf<T>;

type FieldOf<P extends Properties, K extends keyof P> = P[K] extends { field: infer F extends string } ? F : K & string;
type KeysWhere<P extends Properties, Flag extends string> = { [K in keyof P]: P[K] extends Record<Flag, true> ? K : never }[keyof P];
type ShownKeys<P extends Properties> = Exclude<keyof P, KeysWhere<P, "writeOnly">>;

/** The id an item route passes to its operation. */
export type IdOf<P extends Properties> = P["id"] extends Property ? ValueOf<P["id"]> : string;

/** An item as the graph must answer it: every shown property, by its GraphQL field. */
export type GraphItem<P extends Properties> = { [K in ShownKeys<P> as FieldOf<P, K>]: ValueOf<P[K]> };

/** One condition of a filter, as GraphQL's GatewayFilterCondition takes it. */
export interface FilterCondition { operator: Operator; value: string }

/** GraphQL variables of a collection operation: filters by GraphQL field, order, paging. */
export interface CollectionVariables<P extends Properties> {
  filter: { [K in KeysWhere<P, "filter"> as FieldOf<P, K>]?: FilterCondition[] };
  order: { field: FieldOf<P, KeysWhere<P, "order">>; direction: string }[];
  /** Left out when not sent, so the subgraph's defaults apply. */
  page?: number;
  itemsPerPage?: number;
}

/** JSON Schema of one property, as OpenAPI 3.1 shows it. */
export function propertySchema(property: Property): JsonObject {
  const schema: JsonObject = property.type === "enum" ? { type: "string", enum: [...property.values] }
    : property.type === "datetime" ? { type: "string", format: "date-time" }
    : property.type === "string" ? { type: "string", ...(property.format ? { format: property.format } : {}) }
    : { type: property.type };
  const shaped: JsonObject = property.list ? { type: "array", items: schema } : schema;
  if (property.nullable) shaped.type = [String(shaped.type), "null"];
  return decorate(shaped, property);
}

function decorate(schema: JsonObject, property: Property): JsonObject {
  if (property.description) schema.description = property.description;
  if (property.readOnly) schema.readOnly = true;
  if (property.writeOnly) schema.writeOnly = true;
  return schema;
}

/** The operators a filterable property takes (from the one per-type table). */
export const operatorsOf = (property: Property): readonly string[] => OPERATORS[property.type];
