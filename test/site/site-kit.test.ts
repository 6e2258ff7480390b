// What the resource kit promises every site route: `Allow` says what each method really does for
// every role (asked of the graph, not a second rule in the router), and OPTIONS / `?context=help`
// show the resource's schema as WordPress does.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { restFieldSchemas } from "../../router/rest/site/kit/rest-fields.ts";
import { readRecording } from "../helpers/recordings.ts";
import { createUserWithPassword } from "../helpers/users.ts";
import { startTestSystem, type RequestOptions, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json/core/v2";
type Auth = RequestOptions["auth"];
const ROLES = ["subscriber", "contributor", "author", "editor", "administrator"] as const;
const callers: Record<string, Auth> = { anonymous: undefined };

beforeAll(async () => {
  s = await startTestSystem();
  for (const role of ROLES) callers[role] = (await createUserWithPassword(s, `kit-${role}`, [role])).auth;
}, 120_000);
afterAll(async () => { await s?.stop(); });

/** Collection routes and a body each one's creation would accept, so only permission can refuse it. */
const CREATES: [string, Record<string, unknown>][] = [
  [`${R}/posts`, { title: "Allow check" }],
  [`${R}/pages`, { title: "Allow check" }],
  [`${R}/media`, {}],
  [`${R}/menu-items`, { title: "Allow check", url: "https://example.com/" }],
  [`${R}/menus`, { name: "Allow check menu" }],
  [`${R}/categories`, { name: "Allow check category" }],
  [`${R}/tags`, { name: "Allow check tag" }],
  [`${R}/users`, { username: "allow-check", email: "allow-check@example.com", password: "pass word 1" }],
  [`${R}/settings`, {}],
  ["/wp-json/lang/v1/languages", { locale: "zz_ZZ" }],
];

describe("Allow agrees with what each method does", () => {
  const cases = Object.keys({ anonymous: 1, ...Object.fromEntries(ROLES.map((r) => [r, 1])) })
    .flatMap((who) => CREATES.map(([path, body]) => [who, path, body] as const));

  test.each(cases)("%s POST %s", async (who, path, body) => {
    const auth = callers[who];
    const options = await s.request("OPTIONS", path, { auth });
    const allowed = (options.headers.get("allow") ?? "").split(", ").includes("POST");
    const post = await s.request("POST", path, { auth, body });
    const refused = post.status === 401 || post.status === 403;
    expect({ allowed, status: post.status, code: post.body?.code }).toMatchObject({ allowed: !refused });
  });

  test("a contributor may write posts but not pages (the bug the kit fixed)", async () => {
    const posts = await s.request("GET", `${R}/posts`, { auth: callers.contributor });
    const pages = await s.request("GET", `${R}/pages`, { auth: callers.contributor });
    expect(posts.headers.get("allow")).toBe("GET, POST");
    expect(pages.headers.get("allow")).toBe("GET");
  });

  test("edit context of a list is refused to who may not write the type, in WordPress's words", async () => {
    const r = await s.request("GET", `${R}/pages?context=edit`, { auth: callers.contributor });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("rest_forbidden_context");
    expect((await s.request("GET", `${R}/posts?context=edit`, { auth: callers.contributor })).status).toBe(200);
    expect((await s.request("GET", `${R}/posts?context=edit`)).status).toBe(401);
  });
});

describe("the schema WordPress shows", () => {
  test("OPTIONS answers the route with the resource's schema, with WordPress's properties", async () => {
    const recorded = readRecording("003-options-posts.json").response.body as { schema: { properties: Record<string, unknown> } };
    const r = await s.request("OPTIONS", `${R}/posts`);
    expect(r.status).toBe(200);
    expect(r.body.schema).toMatchObject({ $schema: "http://json-schema.org/draft-04/schema#", title: "post", type: "object" });
    // The recording was made on WordPress without plugins: fields other namespaces registered on
    // posts (register_rest_field, e.g. Polylang's) are compared apart.
    const registered = Object.keys(restFieldSchemas("post"));
    expect(registered).toEqual(expect.arrayContaining(["lang", "translations"]));
    expect(Object.keys(r.body.schema.properties).filter((k) => !registered.includes(k)).sort()).toEqual(Object.keys(recorded.schema.properties).sort());
    expect(r.body.schema.properties.title).toEqual(recorded.schema.properties.title);
  });

  test("OPTIONS lists Polylang's registered fields with their types", async () => {
    const { properties } = (await s.request("OPTIONS", `${R}/posts`)).body.schema;
    expect(properties.lang).toMatchObject({ type: "string", context: ["view", "edit", "embed"] });
    expect(properties.lang.description).toEqual(expect.any(String));
    expect(properties.translations).toMatchObject({ type: "object", additionalProperties: { type: "integer" }, context: ["view", "edit", "embed"] });
    for (const name of Object.keys(restFieldSchemas("post"))) expect(properties[name]).toEqual(restFieldSchemas("post")[name]);
  });

  test("?context=help adds each route's schema to the index and namespace roots; the default view does not", async () => {
    const help = await s.request("GET", "/wp-json/core/v2?context=help");
    expect(help.body.routes["/core/v2/pages"].schema.title).toBe("page");
    expect(Object.keys(help.body.routes["/core/v2/pages"].schema.properties)).toContain("menu_order");
    const view = await s.request("GET", "/wp-json/core/v2");
    expect(view.body.routes["/core/v2/pages"].schema).toBeUndefined();
  });
});

describe("domain errors at the GraphQL edge", () => {
  test("a domain error keeps its code and status in GraphQL (a wrong post id)", async () => {
    const r = await s.graphql("{ post(id: 999999) { id } }");
    expect(r.errors?.[0].extensions).toMatchObject({ code: "rest_post_invalid_id", status: 404, http: { status: 404 } });
  });

  test("bad credentials reject a GraphQL request in GraphQL's error shape, with their status", async () => {
    const r = await s.request("POST", "/graphql", { body: { query: "{ site { name } }" }, headers: { "x-esg-auth-token": "forged" } });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].extensions.code).toBe("gateway_token_invalid");
  });
});
