// OpenAPI 3.1 of the site REST routes, derived from the site route table alone (the data the index
// and OPTIONS read), so a route is never described twice. Each WordPress pattern becomes a path
// under the REST root; its endpoints' args become query parameters or a JSON body; the route's
// item schema, when it declares one, is the answer; errors are WordPress's {code, message, data}.
import type { FastifyInstance } from "fastify";
import type { Config } from "../../../lib/config.ts";
import type { Method } from "../table.ts";
import type { ArgSchema, ItemSchema, SiteEndpoint, SiteRoute } from "../site/route.ts";
import { siteRoutes } from "../site/namespaces/index.ts";

/** A JSON Schema in OpenAPI 3.1's dialect (2020-12), as plain data. */
export type Schema = { [keyword: string]: unknown };

interface Parameter {
  name: string;
  in: "path" | "query";
  required?: boolean;
  description?: string;
  style?: "form";
  explode?: boolean;
  schema: Schema;
}

type Ref = { $ref: string };

interface Response {
  description: string;
  headers?: Record<string, { description: string; schema: Schema }>;
  content?: { "application/json": { schema: Schema } };
}

interface Operation {
  operationId: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: { "application/json": { schema: Schema } } };
  responses: Record<string, Response | Ref>;
  "x-wp-batch"?: true;
}

type Verb = "get" | "post" | "put" | "patch" | "delete";

type PathItem = { "x-wp-routes": string[]; parameters?: Parameter[] } & { [V in Verb]?: Operation };

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Response>; securitySchemes: Record<string, Schema> };
}

export interface SiteOpenApiOptions {
  /** The REST root, e.g. "wp-json" (config.restRoot). */
  restRoot: string;
  /** The site's public address (config.siteUrl). */
  siteUrl: string;
  version?: string;
}

/** WordPress's draft-4 argument or field schema as a 2020-12 schema: callbacks dropped, `required` lifted to the object. */
export function jsonSchema(arg: ArgSchema): Schema {
  const {
    required, readonly, context, items, properties, additionalProperties, patternProperties, oneOf, anyOf,
    minimum, maximum, exclusiveMinimum, exclusiveMaximum, ...rest
  } = arg;
  const schema: Schema = Object.fromEntries(Object.entries(rest as Record<string, unknown>)
    .filter(([key, value]) => value !== undefined && typeof value !== "function" && key !== "skipValidation"));
  // Draft 4 flags exclusivity beside the bound; 2020-12 makes the bound itself exclusive.
  if (minimum !== undefined) schema[exclusiveMinimum ? "exclusiveMinimum" : "minimum"] = minimum;
  if (maximum !== undefined) schema[exclusiveMaximum ? "exclusiveMaximum" : "maximum"] = maximum;
  if (readonly) schema.readOnly = true;
  if (context) schema["x-wp-context"] = context;
  if (items) schema.items = jsonSchema(items);
  if (properties) schema.properties = mapValues(properties, jsonSchema);
  const requiredNames = [
    ...(Array.isArray(required) ? required : []),
    ...Object.entries(properties ?? {}).filter(([, p]) => p.required === true).map(([name]) => name),
  ];
  if (requiredNames.length) schema.required = [...new Set(requiredNames)];
  if (additionalProperties !== undefined) {
    schema.additionalProperties = typeof additionalProperties === "boolean" ? additionalProperties : jsonSchema(additionalProperties);
  }
  if (patternProperties) schema.patternProperties = mapValues(patternProperties, jsonSchema);
  if (oneOf) schema.oneOf = oneOf.map(jsonSchema);
  if (anyOf) schema.anyOf = anyOf.map(jsonSchema);
  return schema;
}

const mapValues = <A, B>(record: Record<string, A>, f: (value: A) => B): Record<string, B> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));

interface PathParam { name: string; regex: string }

/** Index of the parenthesis closing the group opened at `start` (escapes and character classes skipped). */
function groupEnd(pattern: string, start: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = start; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  throw new Error(`Unbalanced group in route pattern ${pattern}`);
}

/** "/core/v2/posts/(?P<id>[\d]+)" → "/core/v2/posts/{id}" and the id's regex (in JavaScript's syntax). */
export function pathTemplate(pattern: string): { path: string; params: PathParam[] } {
  let path = "";
  const params: PathParam[] = [];
  for (let i = 0; i < pattern.length;) {
    if (!pattern.startsWith("(?P<", i)) {
      path += pattern[i++];
      continue;
    }
    const nameEnd = pattern.indexOf(">", i);
    const end = groupEnd(pattern, i);
    const name = pattern.slice(i + 4, nameEnd);
    params.push({ name, regex: pattern.slice(nameEnd + 1, end).replaceAll("(?P<", "(?<") });
    path += `{${name}}`;
    i = end + 1;
  }
  return { path, params };
}

type Collection = "list" | "keyed";

/** `/a/{x}` and `/a/{y}` are one path to OpenAPI. */
const shapeOf = (path: string) => path.replace(/\{[^}]*\}/g, "{}");

const ERROR_SCHEMA: Schema = {
  description: "WordPress's error body (WP_Error as the REST server answers it).",
  type: "object",
  required: ["code", "message", "data"],
  properties: {
    code: { type: "string", examples: ["rest_invalid_param"] },
    message: { type: "string" },
    data: {
      type: ["object", "null"],
      properties: { status: { type: "integer" }, params: { type: "object" }, details: { type: "object" } },
    },
  },
};

const errorResponse = (description: string): Response =>
  ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/WP_Error" } } } });

const ERROR_RESPONSES = {
  InvalidParams: errorResponse("An argument is missing or invalid (rest_missing_callback_param, rest_invalid_param)."),
  Unauthorized: errorResponse("Not allowed to a visitor (rest_forbidden, rest_cannot_*)."),
  Forbidden: errorResponse("Not allowed to the signed-in user (rest_forbidden, rest_cannot_*)."),
  NotFound: errorResponse("No such object (rest_post_invalid_id, rest_no_route…)."),
  Error: errorResponse("Any other error, in the same shape."),
} satisfies Record<string, Response>;

const errorRef = (name: keyof typeof ERROR_RESPONSES): Ref => ({ $ref: `#/components/responses/${name}` });

const PAGE_HEADERS: Response["headers"] = {
  "X-WP-Total": { description: "Number of items matching the query.", schema: { type: "integer" } },
  "X-WP-TotalPages": { description: "Number of pages at this per_page.", schema: { type: "integer" } },
  Link: { description: "prev/next pages (RFC 8288).", schema: { type: "string" } },
};

const BODY_METHODS: ReadonlySet<Method> = new Set(["POST", "PUT", "PATCH"]);

/** Builds the document; `GET /openapi.json` serves it. */
export function siteOpenApi(routes: readonly SiteRoute[], options: SiteOpenApiOptions): OpenApiDocument {
  const root = `/${options.restRoot}`;
  const schemas: Record<string, Schema> = { WP_Error: ERROR_SCHEMA };
  const paths: Record<string, PathItem> = {};
  /** Path items by shape, with each path parameter's alternatives: routes of one shape share an item. */
  const byShape = new Map<string, { item: PathItem; regexes: string[][] }>();
  /** Item routes by shape: the regex of the path parameter that ends them (the first route of a shape answers). */
  const itemKeys = new Map<string, string>();
  for (const { pattern } of [...routes].reverse()) {
    const { path, params } = pathTemplate(pattern);
    if (path.endsWith("}")) itemKeys.set(shapeOf(path), params[params.length - 1].regex);
  }
  // WordPress's controller layout: a collection has its item route beside it (`/posts`, `/posts/(?P<id>[\d]+)`);
  // where items are addressed by name, not number (types, statuses, taxonomies), it answers an object keyed by name.
  const collectionOf = (path: string): Collection | undefined => {
    const key = itemKeys.get(`${shapeOf(path)}/{}`);
    return key === undefined ? undefined : new RegExp(`^(?:${key})$`).test("a") ? "keyed" : "list";
  };

  const schemaRefs = itemSchemas(routes, schemas);

  const operation = (route: SiteRoute, endpoint: SiteEndpoint, method: Method, pathParams: PathParam[], collection?: Collection): Operation => {
    const inPath = new Set(pathParams.map((p) => p.name));
    const args = Object.entries(endpoint.args).filter(([name]) => !inPath.has(name));
    const op: Omit<Operation, "responses"> = { operationId: operationId(method, pathTemplate(route.pattern).path), tags: [tagOf(route)] };
    if (BODY_METHODS.has(method)) {
      if (args.length) {
        const body = jsonSchema({ type: "object", properties: Object.fromEntries(args) });
        op.requestBody = { required: Array.isArray(body.required), content: { "application/json": { schema: body } } };
      }
    } else if (args.length) {
      op.parameters = args.map(([name, arg]) => {
        const { description, ...schema } = jsonSchema(arg);
        return {
          name, in: "query", required: arg.required === true,
          ...(typeof description === "string" ? { description } : {}),
          // WordPress reads a list as "1,2" (wp_parse_list).
          ...([arg.type].flat().includes("array") ? { style: "form" as const, explode: false } : {}),
          schema,
        };
      });
    }
    const responses: Operation["responses"] = success(route, endpoint, method, collection);
    if (Object.keys(endpoint.args).length) responses["400"] = errorRef("InvalidParams");
    if (endpoint.allowed || method !== "GET") Object.assign(responses, { 401: errorRef("Unauthorized"), 403: errorRef("Forbidden") });
    if (pathParams.length) responses["404"] = errorRef("NotFound");
    responses.default = errorRef("Error");
    return { ...op, responses, ...(endpoint.allowBatch ? { "x-wp-batch": true as const } : {}) };
  };

  /** 200 with the item (201 for a create on a collection, the items for a read of one), or a generic object without a schema. */
  const success = (route: SiteRoute, endpoint: SiteEndpoint, method: Method, collection?: Collection): Record<string, Response> => {
    const item = route.schema ? schemaRefs.get(route.schema) : undefined;
    const read = method === "GET" ? collection : undefined;
    let schema: Schema = item ?? { type: "object" };
    if (item && read === "list") schema = { type: "array", items: item };
    if (item && read === "keyed") schema = { type: "object", additionalProperties: item };
    // DELETE answers the trashed item, or {deleted, previous} when it is gone for good.
    if (item && method === "DELETE") schema = { anyOf: [item, { type: "object", properties: { deleted: { type: "boolean" }, previous: item } }] };
    const created = method === "POST" && collection !== undefined;
    return {
      [created ? "201" : "200"]: {
        description: created ? "Created." : "OK.",
        ...(read === "list" && "page" in endpoint.args ? { headers: PAGE_HEADERS } : {}),
        content: { "application/json": { schema } },
      },
    };
  };

  for (const route of routes) {
    const { path, params } = pathTemplate(route.pattern);
    const shared = byShape.get(shapeOf(path));
    const item: PathItem = shared?.item ?? { "x-wp-routes": [] };
    const regexes = shared?.regexes ?? params.map((): string[] => []);
    item["x-wp-routes"].push(route.pattern);
    params.forEach((param, i) => regexes[i].push(param.regex));
    // A later route of the same shape answers what the earlier ones do not match (first match wins).
    const schema = (i: number): Schema => ({ type: "string", pattern: `^(?:${regexes[i].join("|")})$` });
    if (shared) item.parameters?.forEach((param, i) => { param.schema = schema(i); });
    else {
      if (params.length) {
        item.parameters = params.map(({ name }, i) => {
          const description = paramDescription(route, name);
          return { name, in: "path", required: true, ...(description ? { description } : {}), schema: schema(i) };
        });
      }
      byShape.set(shapeOf(path), { item, regexes });
      paths[`${root}${path}`] = item;
    }
    const collection = collectionOf(path);
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        const verb = method.toLowerCase() as Verb;
        item[verb] ??= operation(route, endpoint, method, params, collection);
      }
    }
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Site REST API",
      version: options.version ?? "1",
      description: `WordPress-compatible REST routes of the site, under /${options.restRoot} (also ?rest_route=/…). ` +
        "Each path lists the WordPress route patterns it serves (x-wp-routes).",
    },
    servers: [{ url: options.siteUrl }],
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    // Reads are open to visitors; an application password (HTTP Basic) acts as its user.
    security: [{}, { applicationPassword: [] }],
    paths,
    components: {
      schemas,
      responses: ERROR_RESPONSES,
      securitySchemes: { applicationPassword: { type: "http", scheme: "basic", description: "username:application password" } },
    },
  };
}

/** A route's namespace ("core/v2"); root-level routes by their first two segments ("batch/v1"), the index as "index". */
const tagOf = (route: SiteRoute): string => route.namespace || route.pattern.split("/").slice(1, 3).join("/") || "index";

/**
 * The routes' item schemas as components, one per distinct content, named after their titles (a
 * title two different schemas share gets its namespace: "core_v2_settings", "lang_v1_settings").
 */
function itemSchemas(routes: readonly SiteRoute[], schemas: Record<string, Schema>): Map<ItemSchema, Ref> {
  const converted = new Map<ItemSchema, { schema: Schema; json: string; tag: string }>();
  for (const route of routes) {
    if (!route.schema || converted.has(route.schema)) continue;
    const { $schema: _draft4, ...item } = route.schema;
    const schema = jsonSchema(item);
    converted.set(route.schema, { schema, json: JSON.stringify(schema), tag: tagOf(route) });
  }
  const variants = new Map<string, Set<string>>();
  for (const [{ title }, { json }] of converted) variants.set(title, (variants.get(title) ?? new Set()).add(json));
  const names = new Map<string, string>();
  const refs = new Map<ItemSchema, Ref>();
  for (const [item, { schema, json, tag }] of converted) {
    let name = names.get(json);
    if (!name) {
      const base = (variants.get(item.title)!.size > 1 ? `${tag}_${item.title}` : item.title).replace(/[^A-Za-z0-9._-]/g, "_");
      name = base;
      for (let n = 2; name in schemas; n++) name = `${base}_${n}`;
      schemas[name] = schema;
      names.set(json, name);
    }
    refs.set(item, { $ref: `#/components/schemas/${name}` });
  }
  return refs;
}

/** `GET /openapi.json` at the router's root: the document of the served table, built once. */
export function registerSiteOpenApi(app: FastifyInstance, config: Pick<Config, "restRoot" | "siteUrl">): void {
  const document = siteOpenApi(siteRoutes(), config);
  app.get("/openapi.json", async () => document);
}

/** The description a route's endpoints give their path argument. */
const paramDescription = (route: SiteRoute, name: string): string | undefined =>
  route.endpoints.map((e) => e.args[name]?.description).find(Boolean);

/** GET /core/v2/posts/{id} → getCoreV2PostsId. */
function operationId(method: Method, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0].toUpperCase() + w.slice(1))].join("") || method.toLowerCase();
}
