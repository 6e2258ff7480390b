// One request cannot freeze the server: GraphQL clients' documents are bounded in tokens, depth,
// aliases and cost, answers in size, and bodies are refused from their declared length before
// they are read (large ones only for file routes, and only with credentials).
import http from "node:http";
import { getIntrospectionQuery } from "graphql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

const code = (r: { errors?: { extensions?: Record<string, unknown> }[] }) => r.errors?.[0]?.extensions?.code;

describe("GraphQL documents from clients", () => {
  test("10,000 aliases are refused by size before parsing, with a clear code and 400", async () => {
    const query = `{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: site { name }`).join(" ")} }`;
    const r = await s.graphql(query);
    expect(r.status).toBe(400);
    expect(code(r)).toBe("query_too_large");
    expect((await s.request("GET", "/health")).status).toBe(200);
  });

  test("too many aliases, too deep, or too costly: 400 query_too_complex", async () => {
    const aliases = await s.graphql(`{ ${Array.from({ length: 40 }, (_, i) => `a${i}: site { name }`).join(" ")} }`);
    expect([aliases.status, code(aliases)]).toEqual([400, "query_too_complex"]);
    const deep = await s.graphql(`{ pages { nodes { ${"parent { ".repeat(15)}id${" }".repeat(15)} } } }`);
    expect([deep.status, code(deep)]).toEqual([400, "query_too_complex"]);
    expect((await s.graphql(`{ pages { nodes { ${"parent { ".repeat(5)}id${" }".repeat(5)} } } }`)).status).toBe(200);
  });

  test("an ordinary query, and the explorer's introspection, still answer", async () => {
    expect((await s.graphql("{ posts(perPage: 5) { nodes { id title { rendered } author { name } } } }")).status).toBe(200);
    const introspection = await s.graphql(getIntrospectionQuery());
    expect(introspection.errors).toBeUndefined();
    expect(introspection.status).toBe(200);
  });

  test("an answer beyond the response limit is replaced by a 413 error", async () => {
    const small = await startTestSystem({ GRAPHQL_MAX_RESPONSE_BYTES: "2000" });
    try {
      const big = await small.graphql("{ __schema { types { name description } } }");
      expect(big.status).toBe(413);
      expect(code(big)).toBe("response_too_large");
      expect((await small.graphql("{ site { name } }")).status).toBe(200);
    } finally {
      await small.stop();
    }
  });

  test("the REST layers' own documents are not a client's: a batch of 25 still runs", async () => {
    const requests = Array.from({ length: 25 }, (_, i) => ({ method: "POST", path: "/core/v2/posts", body: { title: `Batch ${i}` } }));
    const r = await s.request("POST", "/wp-json/batch/v1", { auth: "admin", body: { requests } });
    expect(r.status).toBe(207);
    expect(r.body.responses.every((x: { status: number }) => x.status === 201)).toBe(true);
  });
});

/** Sends only headers declaring a body of `length` bytes, and reads the answer (the router must not wait for the body). */
function declare(path: string, length: number, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(path, s.url);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": String(length), ...headers } }, (response) => {
      let body = "";
      response.on("data", (chunk) => { body += chunk; });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.flushHeaders();
  });
}

describe("request bodies", () => {
  test("a 20 MB body to a JSON route is refused from its length, before it is sent, in each surface's shape", async () => {
    const site = await declare("/wp-json/core/v2/posts", 20 * 1024 * 1024);
    expect(site.status).toBe(413);
    expect(JSON.parse(site.body).code).toBe("rest_request_too_large");
    const gateway = await declare("/api/v2/login", 20 * 1024 * 1024);
    expect(gateway.status).toBe(413);
    expect(JSON.parse(gateway.body).status).toBe(413);
  });

  test("a large upload needs credentials: anonymous is refused before the body, signed-in may send it", async () => {
    expect((await declare("/wp-json/core/v2/media", 20 * 1024 * 1024)).status).toBe(413);
    expect((await declare("/graphql", 20 * 1024 * 1024)).status).toBe(413);
    const png = Buffer.alloc(9 * 1024 * 1024, 0);
    const r = await s.request("POST", "/wp-json/core/v2/media", { auth: "admin", raw: png, headers: { "content-type": "image/png", "content-disposition": "attachment; filename=x.png" } });
    expect(r.status).not.toBe(413);
  });
});
