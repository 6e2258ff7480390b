// OpenAPI 3.1 of the site REST routes, derived from the site route table alone (the data the index
// and OPTIONS read), so a route is never described twice. Each WordPress pattern becomes a path
// under the REST root; its endpoints' args become query parameters or a JSON body; the route's
// item schema, when it declares one, is the answer; errors are WordPress's {code, message, data}.
import type { FastifyInstance } from "fastify";
import type { Config } from "../../../lib/config.ts";
import type { Method } from "../table.ts";
import type { ArgSchema, ItemSchema, SiteEndpoint, SiteRoute } from "../site/route.ts";
import { siteRoutes } from "../site/routes/index.ts";

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

const ERROR_RESPONSES: Record<string, Response> = {
  InvalidParams: errorResponse("An argument is missing or invalid (rest_missing_callback_param, rest_invalid_param)."),
  Unauthorized: errorResponse("Not allowed to a visitor (rest_forbidden, rest_cannot_*)."),
  Forbidden: errorResponse("Not allowed to the signed-in user (rest_forbidden, rest_cannot_*)."),
  NotFound: errorResponse("No such object (rest_post_invalid_id, rest_no_route…)."),
  Error: errorResponse("Any other error, in the same shape."),
};

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
  const schemaNames = new Map<ItemSchema, string>();
  const paths: Record<string, PathItem> = {};
  /** Path items by shape, with each path parameter's alternatives: routes of one shape share an item. */
  const byShape = new Map<string, { item: PathItem; regexes: string[][] }>();
  const shapes = new Set(routes.map((r) => shapeOf(pathTemplate(r.pattern).path)));
  // WordPress's controller layout: a collection route has its item route (`/posts`, `/posts/(?P<id>…)`) beside it.
  const isCollection = (path: string) => shapes.has(`${shapeOf(path)}/{}`);

  /** The item schema as a component, named after its title (deduplicated by identity). */
  const schemaRef = (item: ItemSchema): Ref => {
    let name = schemaNames.get(item);
    if (!name) {
      const base = item.title.replace(/[^A-Za-z0-9._-]/g, "_") || "item";
      name = base;
      for (let n = 2; name in schemas; n++) name = `${base}_${n}`;
      const { $schema: _draft, ...schema } = item;
      schemas[name] = jsonSchema(schema);
      schemaNames.set(item, name);
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  const operation = (route: SiteRoute, endpoint: SiteEndpoint, method: Method, pathParams: PathParam[], collection: boolean): Operation => {
    const inPath = new Set(pathParams.map((p) => p.name));
    const args = Object.entries(endpoint.args).filter(([name]) => !inPath.has(name));
    const op: Omit<Operation, "responses"> = { operationId: operationId(method, pathTemplate(route.pattern).path), tags: [route.namespace || "index"] };
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

  /** 200 with the item (201 for a create on a collection, a list for a read of one), or a generic object without a schema. */
  const success = (route: SiteRoute, endpoint: SiteEndpoint, method: Method, collection: boolean): Record<string, Response> => {
    const item = route.schema ? schemaRef(route.schema) : undefined;
    const list = method === "GET" && collection;
    let schema: Schema = item ?? { type: "object" };
    if (item && list) schema = { type: "array", items: item };
    // DELETE answers the trashed item, or {deleted, previous} when it is gone for good.
    if (item && method === "DELETE") schema = { anyOf: [item, { type: "object", properties: { deleted: { type: "boolean" }, previous: item } }] };
    const created = method === "POST" && collection;
    return {
      [created ? "201" : "200"]: {
        description: created ? "Created." : "OK.",
        ...(list && "page" in endpoint.args ? { headers: PAGE_HEADERS } : {}),
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
    const collection = isCollection(path);
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
    tags: [...new Set(routes.map((r) => r.namespace || "index"))].map((name) => ({ name })),
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
