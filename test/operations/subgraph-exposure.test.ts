// Subgraphs serve their routers only: they listen on loopback unless SUBGRAPH_HOST says otherwise,
// and with SUBGRAPH_SECRET set they refuse any request that does not carry it.
import { afterAll, beforeAll, expect, test } from "vitest";
import { SUBGRAPH_SECRET_HEADER } from "../../lib/subgraph-secret.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

const SECRET = "a-shared-secret-between-routers-and-subgraphs";
let s: TestSystem;
beforeAll(async () => { s = await startTestSystem({ SUBGRAPH_SECRET: SECRET }); });
afterAll(async () => { await s?.stop(); });

const ask = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query: "{ _service { sdl } }" }) });

test("subgraphs listen on loopback by default", () => {
  for (const subgraph of s.subgraphs) expect(new URL(subgraph.url).hostname).toBe("127.0.0.1");
});

test("a subgraph refuses a request without the secret, and answers one with it", async () => {
  for (const subgraph of s.subgraphs) {
    const refused = await ask(subgraph.url);
    expect(refused.status).toBe(401);
    expect((await refused.json()).errors[0].extensions.code).toBe("subgraph_secret_required");
    expect((await ask(subgraph.url, { [SUBGRAPH_SECRET_HEADER]: "not-the-secret" })).status).toBe(401);
    expect((await ask(subgraph.url, { [SUBGRAPH_SECRET_HEADER]: SECRET })).status).toBe(200);
  }
});

test("the router sends it: reads, signed-in writes and gateway sign-in work as usual", async () => {
  expect((await s.graphql("{ site { name } }")).data).toMatchObject({ site: { name: expect.any(String) } });
  expect((await s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: "Behind a secret" } })).status).toBe(201);
  expect((await s.request("POST", "/api/v2/login", { body: { username: "admin", password: "gateway-admin-secret" } })).status).toBe(200);
});
