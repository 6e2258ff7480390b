// GET /openapi.json: the site REST routes as OpenAPI 3.1, derived from the route table alone. The
// served document must be valid under a maintained validator and list every route exactly once.
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { siteOpenApi, type OpenApiDocument } from "../../router/rest/openapi/site.ts";
import type { ItemSchema, LocalEndpoint, SiteRoute } from "../../router/rest/site/route.ts";
import { siteRoutes } from "../../router/rest/site/namespaces/index.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

const VERBS = ["get", "post", "put", "patch", "delete"] as const;

async function expectValid(document: OpenApiDocument): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(document as unknown as Record<string, unknown>);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
}

/** Every schema in the document (components, parameters, bodies, answers), nested ones included. */
function* schemasIn(value: unknown, inSchema = false): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) yield* schemasIn(v, inSchema);
  if (!value || typeof value !== "object" || Array.isArray(value)) return;
  const object = value as Record<string, unknown>;
  if (inSchema) yield object;
  for (const [key, child] of Object.entries(object)) {
    const childIsSchema = key === "schema" || key === "items" || key === "additionalProperties" || (inSchema && (key === "anyOf" || key === "oneOf"));
    if (key === "schemas" || key === "properties" || key === "patternProperties") {
      for (const s of Object.values(child as Record<string, unknown>)) yield* schemasIn(s, true);
    } else yield* schemasIn(child, childIsSchema);
  }
}

let s: TestSystem;
let served: OpenApiDocument;
beforeAll(async () => {
  s = await startTestSystem();
  const answer = await s.request("GET", "/openapi.json");
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  served = answer.body;
});
afterAll(async () => { await s?.stop(); });

describe("GET /openapi.json", () => {
  test("is valid OpenAPI 3.1", async () => {
    expect(served.openapi).toBe("3.1.0");
    await expectValid(served);
  });

  test("lists every route pattern of the table exactly once, under the REST root, with its methods", () => {
    const routes = siteRoutes();
    const listed = Object.values(served.paths).flatMap((item) => item["x-wp-routes"]);
    expect([...listed].sort()).toEqual(routes.map((r) => r.pattern).sort());
    expect(Object.keys(served.paths).every((path) => path.startsWith(`/${s.config.restRoot}/`))).toBe(true);
    for (const route of routes) {
      const item = Object.values(served.paths).find((i) => i["x-wp-routes"].includes(route.pattern))!;
      for (const method of route.endpoints.flatMap((e) => e.methods)) expect(item[method.toLowerCase() as (typeof VERBS)[number]], `${method} ${route.pattern}`).toBeDefined();
    }
    expect(served.servers).toEqual([{ url: "http://example.test" }]);
  });

  test("a route's item schema is what its operations answer", () => {
    for (const route of siteRoutes().filter((r) => r.schema)) {
      const item = Object.values(served.paths).find((i) => i["x-wp-routes"][0] === route.pattern);
      if (item) expect(JSON.stringify(item), route.pattern).toContain('"$ref":"#/components/schemas/');
    }
  });

  test("declares each path's parameters, keeps them out of the query, and gives each operation an error answer", () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(served.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect((item.parameters ?? []).map((p) => [p.name, p.in, p.required]), path).toEqual(names.map((n) => [n, "path", true]));
      for (const verb of VERBS) {
        const op = item[verb];
        if (!op) continue;
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        expect((op.parameters ?? []).filter((p) => names.includes(p.name)), `${verb} ${path}`).toEqual([]);
        expect(op.responses.default).toEqual({ $ref: "#/components/responses/Error" });
      }
    }
    const error = served.components.schemas.WP_Error as { required: string[] };
    expect(error.required).toEqual(["code", "message", "data"]);
  });

  test("args become query parameters for reads and deletes, a JSON body for writes", () => {
    const posts = served.paths[`/${s.config.restRoot}/core/v2/posts`];
    const perPage = posts.get!.parameters!.find((p) => p.name === "per_page")!;
    expect(perPage).toMatchObject({ in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 100 } });
    expect(posts.get!.parameters!.find((p) => p.name === "include")).toMatchObject({ style: "form", explode: false });
    expect(posts.post!.requestBody!.content["application/json"].schema).toMatchObject({ type: "object", properties: { title: {} } });
    expect(Object.keys(posts.post!.responses)).toContain("201");
    const item = served.paths[`/${s.config.restRoot}/core/v2/posts/{id}`];
    expect(item.delete!.parameters!.map((p) => p.name)).toContain("force");
    expect(item.get!.responses["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
  });

  test("every schema speaks OpenAPI 3.1's dialect, not WordPress's draft 4", () => {
    for (const schema of schemasIn(served)) {
      for (const key of ["exclusiveMinimum", "exclusiveMaximum"]) if (key in schema) expect(typeof schema[key], key).toBe("number");
      if ("required" in schema) expect(Array.isArray(schema.required)).toBe(true);
      expect(Object.keys(schema).filter((k) => ["readonly", "context", "$schema", "skipValidation"].includes(k))).toEqual([]);
    }
  });
});

describe("the document of a route table", () => {
  const thing: ItemSchema = {
    $schema: "http://json-schema.org/draft-04/schema#", title: "thing", type: "object",
    properties: {
      id: { description: "Unique identifier.", type: "integer", context: ["view", "edit"], readonly: true },
      size: { type: "number", minimum: 0, exclusiveMinimum: true },
    },
  };
  const endpoint = (methods: LocalEndpoint["methods"], args: LocalEndpoint["args"] = {}): LocalEndpoint =>
    ({ methods, args, handle: async () => ({ body: null }) });
  const routes: SiteRoute[] = [
    { namespace: "test/v1", pattern: "/test/v1/things", schema: thing, endpoints: [
      endpoint(["GET"], { page: { type: "integer", default: 1 } }),
      endpoint(["POST"], { name: { type: "string", required: true, validate: () => undefined } }),
    ] },
    { namespace: "test/v1", pattern: "/test/v1/things/(?P<id>[\\d]+)", schema: thing, endpoints: [
      endpoint(["GET"], { id: { description: "The thing's id.", type: "integer" } }),
      endpoint(["DELETE"], { id: { type: "integer" }, force: { type: "boolean", default: false } }),
    ] },
    // Same shape: OpenAPI sees one path; the second route answers what the first does not match.
    { namespace: "test/v1", pattern: "/test/v1/things/(?P<slug>[a-z]+)", endpoints: [endpoint(["GET"], { slug: { type: "string" } })] },
    // Items addressed by name: the collection is an object keyed by name (WordPress's types, statuses).
    { namespace: "test/v1", pattern: "/test/v1/kinds", schema: thing, endpoints: [endpoint(["GET"])] },
    { namespace: "test/v1", pattern: "/test/v1/kinds/(?P<kind>[\\w-]+)", schema: thing, endpoints: [endpoint(["GET"])] },
  ];
  const document = siteOpenApi(routes, { restRoot: "api", siteUrl: "http://site.test" });

  test("is valid, under the given REST root", async () => {
    await expectValid(document);
    expect(Object.keys(document.paths)).toEqual(["/api/test/v1/things", "/api/test/v1/things/{id}", "/api/test/v1/kinds", "/api/test/v1/kinds/{kind}"]);
  });

  test("answers with the route's item schema: a list for a collection read, 201 for a create", () => {
    const ref = { $ref: "#/components/schemas/thing" };
    const things = document.paths["/api/test/v1/things"];
    expect(things.get!.responses["200"]).toMatchObject({ content: { "application/json": { schema: { type: "array", items: ref } } } });
    expect(things.get!.responses["200"]).toHaveProperty("headers.X-WP-Total");
    expect(things.post!.responses["201"]).toMatchObject({ content: { "application/json": { schema: ref } } });
    expect(document.paths["/api/test/v1/things/{id}"].get!.responses["200"]).toMatchObject({ content: { "application/json": { schema: ref } } });
    expect(document.paths["/api/test/v1/kinds"].get!.responses["200"])
      .toMatchObject({ content: { "application/json": { schema: { type: "object", additionalProperties: ref } } } });
    expect(things.post!.requestBody).toEqual({
      required: true, content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } },
    });
    expect(document.components.schemas.thing).toEqual({
      title: "thing", type: "object",
      properties: {
        id: { description: "Unique identifier.", type: "integer", readOnly: true, "x-wp-context": ["view", "edit"] },
        size: { type: "number", exclusiveMinimum: 0 },
      },
    });
  });

  test("one component per distinct schema; a title two schemas share is namespaced", () => {
    const settings = (name: string): ItemSchema => ({ ...thing, title: "settings", properties: { [name]: { type: "string" } } });
    const one = settings("a");
    const { components, tags } = siteOpenApi([
      { namespace: "a/v1", pattern: "/a/v1/settings", schema: one, endpoints: [endpoint(["GET"])] },
      { namespace: "a/v1", pattern: "/a/v1/settings/again", schema: { ...one }, endpoints: [endpoint(["GET"])] },
      { namespace: "b/v1", pattern: "/b/v1/settings", schema: settings("b"), endpoints: [endpoint(["GET"])] },
      { namespace: "", pattern: "/batch/v1", endpoints: [endpoint(["POST"])] },
    ], { restRoot: "wp-json", siteUrl: "http://site.test" });
    expect(Object.keys(components.schemas)).toEqual(["WP_Error", "a_v1_settings", "b_v1_settings"]);
    expect(tags).toEqual([{ name: "a/v1" }, { name: "b/v1" }, { name: "batch/v1" }]);
  });

  test("routes of one shape share a path whose parameter matches either pattern", () => {
    const item = document.paths["/api/test/v1/things/{id}"];
    expect(item["x-wp-routes"]).toEqual(["/test/v1/things/(?P<id>[\\d]+)", "/test/v1/things/(?P<slug>[a-z]+)"]);
    expect(item.parameters).toEqual([
      { name: "id", in: "path", required: true, description: "The thing's id.", schema: { type: "string", pattern: "^(?:[\\d]+|[a-z]+)$" } },
    ]);
    expect(item.get!.operationId).toBe("getTestV1ThingsId");
    expect(item.delete!.parameters).toEqual([{ name: "force", in: "query", required: false, schema: { type: "boolean", default: false } }]);
  });
});
