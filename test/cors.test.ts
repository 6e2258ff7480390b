// CORS on /graphql and /api/v2: a browser app on an allowed origin gets its preflight answered
// and can call both; Apollo's CSRF prevention still refuses simple cross-site requests.
import crypto from "node:crypto";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../lib/config.ts";
import { registerCors } from "../router/cors.ts";
import { startTestSystem, type TestSystem } from "./helpers/system.ts";

const APP = "https://app.example";
const preflight = (origin: string, requestHeaders = "content-type, x-esg-auth-token") => ({
  origin, "access-control-request-method": "POST", "access-control-request-headers": requestHeaders,
});

let system: TestSystem;
beforeAll(async () => { system = await startTestSystem({ CORS_ORIGINS: `${APP}, http://localhost:5173` }); });
afterAll(async () => { await system?.stop(); });

describe("preflight", () => {
  for (const path of ["/graphql", "/api/v2/login", "/api/v2/licensing/accounted-email"]) {
    it(`OPTIONS ${path} from an allowed origin answers 204 with the CORS headers`, async () => {
      const r = await system.request("OPTIONS", path, { headers: preflight(APP) });
      expect(r.status).toBe(204);
      expect(r.headers.get("access-control-allow-origin")).toBe(APP);
      expect(r.headers.get("access-control-allow-methods")).toContain("POST");
      const allowHeaders = r.headers.get("access-control-allow-headers")?.split(/,\s*/) ?? [];
      expect(allowHeaders).toEqual(expect.arrayContaining(["x-esg-auth-token", "authorization", "content-type", "apollo-require-preflight", "x-request-id"]));
      expect(r.headers.get("vary")).toMatch(/Origin/i);
    });
  }

  it("gives an origin outside CORS_ORIGINS no Access-Control-Allow-Origin", async () => {
    const r = await system.request("OPTIONS", "/graphql", { headers: preflight("https://evil.example") });
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("leaves a plain OPTIONS on /api/v2 to the gateway (204 + Allow)", async () => {
    const r = await system.request("OPTIONS", "/api/v2/login");
    expect(r.status).toBe(204);
    expect(r.headers.get("allow")).toContain("POST");
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("requests", () => {
  it("lets an allowed origin run a query with content-type application/json", async () => {
    const r = await system.request("POST", "/graphql", {
      headers: { origin: APP, "content-type": "application/json" }, body: { query: "{ __typename }" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { __typename: "Query" } });
    expect(r.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("answers /api/v2 with the CORS headers too", async () => {
    const r = await system.request("GET", "/api/v2/docs.json", { headers: { origin: APP } });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("still refuses a cross-site simple request that skipped the preflight (CSRF prevention)", async () => {
    const r = await system.request("POST", "/graphql", {
      headers: { origin: "https://evil.example", "content-type": "text/plain" },
      raw: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/Cross-Site Request Forgery/);
    expect(r.text).not.toContain('"__typename"');
  });

  it("refuses a simple request even from an allowed origin", async () => {
    const r = await system.request("GET", "/graphql?query=%7B__typename%7D", { headers: { origin: APP } });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/Cross-Site Request Forgery/);
  });
});

describe("CORS_ORIGINS", () => {
  const config = (env: Record<string, string>) => loadConfig(env, { secretKey: crypto.randomBytes(32) });

  it("defaults to any origin and checks each listed one", () => {
    expect(config({}).corsOrigins).toBe("*");
    expect(config({ CORS_ORIGINS: "https://a.example, http://localhost:3000/" }).corsOrigins).toEqual(["https://a.example", "http://localhost:3000"]);
    expect(() => config({ CORS_ORIGINS: "a.example" })).toThrow(/not an origin/);
    expect(() => config({ CORS_ORIGINS: "https://a.example/app" })).toThrow(/not an origin/);
  });

  it("`*` answers every origin with a wildcard, and leaves other paths alone", async () => {
    const app = Fastify();
    registerCors(app, { corsOrigins: "*" });
    app.post("/graphql", async () => ({ ok: true }));
    app.get("/elsewhere", async () => ({ ok: true }));
    const pre = await app.inject({ method: "OPTIONS", url: "/graphql", headers: preflight("https://any.example") });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("*");
    const other = await app.inject({ method: "GET", url: "/elsewhere", headers: { origin: "https://any.example" } });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    await app.close();
  });
});
