// OpenAPI 3.1 of /api/v2, served at GET /api/v2/docs.json (API Platform's convention), derived
// from the route table and the resource declarations: paths and methods from the routes,
// parameters from the declared filters (operators from the one per-type table) and paging bounds,
// schemas from the declared properties. Nothing here is written per resource.
import {
  DEFAULT_ITEMS_PER_PAGE, DIRECTIONS, INT32_MAX, INT32_MIN, MAX_IN_VALUES, MAX_ITEMS_PER_PAGE,
} from "../../../lib/gateway/collection-rules.ts";
import { operatorsOf, propertySchema, type AnyResource, type Property } from "./resource.ts";
import { API_BASE, type GatewayRoute } from "./route.ts";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** An OpenAPI Operation Object (summary, parameters, requestBody, responses…). */
export type OpenApiOperation = JsonObject;

const ref = (kind: "schemas" | "responses", name: string): JsonObject => ({ $ref: `#/components/${kind}/${name}` });
const SECURITY: Json = [{ esgToken: [] }];

const ERROR_RESPONSES: Record<number, string> = {
  400: "Malformed request: bad JSON, bad paging",
  401: "No, unknown or expired X-ESG-Auth-Token",
  403: "Not allowed for this user",
  404: "No such resource",
  405: "Method not allowed (see Allow)",
  406: "Accept names no format the API produces",
  413: "Request body too large",
  415: "Unsupported request content type",
  422: "Constraint violations (filters or body), all listed at once",
};

const errors = (...statuses: number[]): JsonObject =>
  Object.fromEntries(statuses.map((status) => [String(status), ref("responses", status === 422 ? "ConstraintViolations" : `Error${status}`)]));

/** A filter's value as one operator takes it. */
function filterValueSchema(property: Property, operator: string): JsonObject {
  if (operator === "in") return { type: "string", description: `Comma-separated, at most ${MAX_IN_VALUES} values.` };
  switch (property.type) {
    case "integer": return { type: "integer", minimum: INT32_MIN, maximum: INT32_MAX };
    case "boolean": return { type: "boolean" };
    case "enum": return { type: "string", enum: [...property.values] };
    case "datetime": return { type: "string", description: "RFC 3339 with Z or an offset, or YYYY-MM-DD (midnight UTC)." };
    case "string": return { type: "string" };
  }
}

function filterParameters(resource: AnyResource): JsonObject[] {
  return Object.entries(resource.properties).filter(([, p]) => p.filter).map(([name, property]) => {
    const operators = operatorsOf(property);
    return {
      name, in: "query", required: false, style: "deepObject", explode: true,
      description: `Filters on ${name}: \`${name}[operator]=value\` with ${operators.join(", ")}; a bare \`${name}=value\` means eq. An unsupported operator is a 422 violation.`,
      schema: { type: "object", additionalProperties: false, properties: Object.fromEntries(operators.map((op) => [op, filterValueSchema(property, op)])) },
    };
  });
}

function orderParameter(resource: AnyResource): JsonObject[] {
  const sortable = Object.entries(resource.properties).filter(([, p]) => p.order).map(([name]) => name);
  if (!sortable.length) return [];
  return [{
    name: "order", in: "query", required: false, style: "deepObject", explode: true,
    description: "`order[property]=asc|desc`, applied in the order given; the id breaks ties.",
    schema: { type: "object", additionalProperties: false, properties: Object.fromEntries(sortable.map((name) => [name, { type: "string", enum: [...DIRECTIONS] }])) },
  }];
}

const PAGING_PARAMETERS: JsonObject[] = [
  { name: "page", in: "query", required: false, description: "1-based.", schema: { type: "integer", minimum: 1, maximum: INT32_MAX, default: 1 } },
  {
    name: "itemsPerPage", in: "query", required: false, description: `At least 1; larger values are clamped to ${MAX_ITEMS_PER_PAGE}.`,
    schema: { type: "integer", minimum: 1, maximum: INT32_MAX, default: DEFAULT_ITEMS_PER_PAGE },
  },
];

const formats = (schemas: { hal: Json; jsonld: Json; json: Json }): JsonObject => ({
  "application/hal+json": { schema: schemas.hal },
  "application/ld+json": { schema: schemas.jsonld },
  "application/json": { schema: schemas.json },
});

export function collectionOperation(resource: AnyResource): OpenApiOperation {
  const { name } = resource;
  return {
    operationId: `get${name}Collection`, tags: [name], summary: `Retrieves the collection of ${name} resources.`,
    ...(resource.description ? { description: resource.description } : {}),
    security: SECURITY,
    parameters: [...PAGING_PARAMETERS, ...filterParameters(resource), ...orderParameter(resource)],
    responses: {
      200: {
        description: `${name} collection (HAL when Accept names none of the formats' types specifically)`,
        content: formats({
          hal: {
            type: "object", required: ["_links", "totalItems", "itemsPerPage"],
            properties: {
              _links: ref("schemas", "HalCollectionLinks"), totalItems: { type: "integer" }, itemsPerPage: { type: "integer" },
              _embedded: { type: "object", properties: { item: { type: "array", items: ref("schemas", `${name}.jsonhal`) } } },
            },
          },
          jsonld: {
            type: "object", required: ["@context", "@id", "@type", "hydra:member", "hydra:totalItems"],
            properties: {
              "@context": { type: "string" }, "@id": { type: "string" }, "@type": { const: "hydra:Collection" },
              "hydra:member": { type: "array", items: ref("schemas", `${name}.jsonld`) },
              "hydra:totalItems": { type: "integer" }, "hydra:view": ref("schemas", "HydraView"),
            },
          },
          json: { type: "array", items: ref("schemas", name) },
        }),
      },
      ...errors(400, 401, 403, 406, 422),
    },
  };
}

export function itemOperation(resource: AnyResource): OpenApiOperation {
  const { name } = resource;
  const id = resource.properties.id;
  return {
    operationId: `get${name}Item`, tags: [name], summary: `Retrieves a ${name} resource.`,
    security: SECURITY,
    parameters: [{ name: "id", in: "path", required: true, schema: id?.type === "integer" ? { type: "integer", minimum: 0, maximum: INT32_MAX } : { type: "string" } }],
    responses: {
      200: {
        description: `${name} resource`,
        content: formats({ hal: ref("schemas", `${name}.jsonhal`), jsonld: ref("schemas", `${name}.jsonld`), json: ref("schemas", name) }),
      },
      ...errors(401, 403, 404, 406),
    },
  };
}

/** An action on the caller's own session that takes no body and answers 204. */
export function noContentOperation(facts: { operationId: string; summary: string; tag: string; errors: number[] }): OpenApiOperation {
  return {
    operationId: facts.operationId, tags: [facts.tag], summary: facts.summary, security: SECURITY,
    responses: { 204: { description: "Done" }, ...errors(...facts.errors) },
  };
}

/** An action that takes the resource's writable properties as a JSON body and answers its readable ones. */
export function actionOperation(resource: AnyResource, facts: { operationId: string; summary: string; description?: string; auth: boolean; errors: number[] }): OpenApiOperation {
  const body = { "application/json": { schema: ref("schemas", resource.name) } };
  return {
    operationId: facts.operationId, tags: [resource.name], summary: facts.summary,
    ...(facts.description ? { description: facts.description } : {}),
    ...(facts.auth ? { security: SECURITY } : { security: [] }),
    requestBody: { required: true, content: body },
    responses: { 200: { description: `${resource.name} result`, content: body }, ...errors(...facts.errors) },
  };
}

function resourceSchemas(resource: AnyResource): JsonObject {
  const { name } = resource;
  const plain: JsonObject = {
    type: "object",
    ...(resource.description ? { description: resource.description } : {}),
    properties: Object.fromEntries(Object.entries(resource.properties).map(([key, p]) => [key, propertySchema(p)])),
    required: Object.keys(resource.properties),
  };
  if (!resource.path) return { [name]: plain };
  return {
    [name]: plain,
    [`${name}.jsonld`]: { allOf: [ref("schemas", name), { type: "object", required: ["@id", "@type"], properties: { "@context": { type: "string", readOnly: true }, "@id": { type: "string", readOnly: true }, "@type": { const: name } } }] },
    [`${name}.jsonhal`]: { allOf: [ref("schemas", name), { type: "object", required: ["_links"], properties: { _links: { type: "object", properties: { self: ref("schemas", "HalLink") } } } }] },
  };
}

const href: JsonObject = { type: "object", required: ["href"], properties: { href: { type: "string" } } };
const stringProps = (...names: string[]): JsonObject => Object.fromEntries(names.map((n) => [n, { type: "string" }]));

const SHARED_SCHEMAS: JsonObject = {
  HalLink: href,
  HalCollectionLinks: {
    type: "object", required: ["self", "first", "last"],
    properties: { ...Object.fromEntries(["self", "first", "last", "prev", "next"].map((k) => [k, ref("schemas", "HalLink")])), item: { type: "array", items: ref("schemas", "HalLink") } },
  },
  HydraView: { type: "object", properties: { ...stringProps("@id", "hydra:first", "hydra:last", "hydra:previous", "hydra:next"), "@type": { const: "hydra:PartialCollectionView" } } },
  Error: {
    type: "object", description: "Hydra and RFC 7807 keys together, for clients of either API Platform generation.",
    required: ["title", "detail", "status"],
    properties: { ...stringProps("@context", "@type", "hydra:title", "hydra:description", "title", "detail"), status: { type: "integer" } },
  },
  ConstraintViolationList: {
    allOf: [ref("schemas", "Error"), {
      type: "object", required: ["violations"],
      properties: { violations: { type: "array", items: { type: "object", required: ["propertyPath", "message"], properties: stringProps("propertyPath", "message") } } },
    }],
  },
};

function errorResponses(): JsonObject {
  const content = (schema: string) => ({ "application/problem+json": { schema: ref("schemas", schema) }, "application/ld+json": { schema: ref("schemas", schema) } });
  return {
    ...Object.fromEntries(Object.entries(ERROR_RESPONSES).filter(([s]) => s !== "422").map(([status, description]) => [`Error${status}`, { description, content: content("Error") }])),
    ConstraintViolations: { description: ERROR_RESPONSES[422], content: content("ConstraintViolationList") },
  };
}

/** The whole document: every route and method of the table, every resource's schemas. */
export function openApiDocument(routes: readonly GatewayRoute[]): JsonObject {
  const paths: JsonObject = {};
  const resources = new Map<string, AnyResource>();
  for (const route of routes) {
    const operations: JsonObject = {};
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) operations[method.toLowerCase()] = endpoint.openapi;
      if (endpoint.resource) resources.set(endpoint.resource.name, endpoint.resource);
    }
    paths[`${API_BASE}${route.path}`] = operations;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Email security gateway management API", version: "5.3",
      description: "Sign in with POST /api/v2/login and send the token as X-ESG-Auth-Token. Collections answer HAL, JSON-LD/Hydra or plain JSON by Accept.",
    },
    paths,
    components: {
      schemas: { ...Object.fromEntries([...resources.values()].flatMap((r) => Object.entries(resourceSchemas(r)))), ...SHARED_SCHEMAS },
      responses: errorResponses(),
      securitySchemes: { esgToken: { type: "apiKey", in: "header", name: "X-ESG-Auth-Token" } },
    },
  };
}
