// The /api/v2 dialect itself: routing, methods and errors shared by every area, and the OpenAPI
// document derived from the route table and the resource declarations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { TestSystem } from "../helpers/system.ts";
import { OPERATORS } from "../../lib/gateway/collection-rules.ts";
import { GATEWAY_ROUTES } from "../../router/rest/gateway/routes.ts";
import { LIST, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
let token: string;
const get = (path: string, headers?: Record<string, string>) => gateway.get(path, headers);

beforeAll(async () => {
  gateway = await startGatewaySystem();
  ({ system, token } = gateway);
});

afterAll(async () => { await system?.stop(); });

describe("/api/v2 routing", () => {
  it("answers an unknown path with 404 in the error shape", async () => {
    const response = await get("/api/v2/no-such-thing");
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ "@type": "hydra:Error", status: 404, title: "An error occurred" });
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const response = await system.request("DELETE", "/api/v2/login");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(response.body.status).toBe(405);
    const list = await system.request("POST", LIST, { body: {} });
    expect(list.status).toBe(405);
    expect(list.headers.get("allow")).toBe("GET");
  });
});


describe("/api/v2 methods", () => {
  it("answers OPTIONS with Allow, HEAD like GET without a body", async () => {
    const options = await system.request("OPTIONS", "/api/v2/login");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("POST");
    const head = await system.request("HEAD", LIST, { headers: { "x-esg-auth-token": token } });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("refuses oversized bodies in the error shape", async () => {
    const response = await system.request("POST", "/api/v2/login", { raw: "x".repeat(2 * 1024 * 1024), headers: { "content-type": "application/json" } });
    expect(response.status).toBe(413);
    expect(response.body["@type"]).toBe("hydra:Error");
  });
});


describe("GET /api/v2/docs.json", () => {
  type Doc = { paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: Record<string, unknown> }[]; security?: unknown[] }>>; components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> } };
  let doc: Doc;
  beforeAll(async () => {
    const response = await system.request("GET", "/api/v2/docs.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    doc = response.body;
  });

  it("is a valid OpenAPI 3.1 document whose every $ref resolves", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      const pointer = ref.slice(8, -1).replace(/^#\//, "").split("/");
      expect(pointer.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc), ref).toBeDefined();
    }
  });

  it("lists every route and method of the table, at a path its pattern matches", () => {
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`));
    const routed = GATEWAY_ROUTES.flatMap((route) => route.endpoints.flatMap((e) => e.methods.map((m) => `${m} /api/v2${route.path}`)));
    expect(documented.sort()).toEqual(routed.sort());
    expect(routed).toEqual(expect.arrayContaining(["POST /api/v2/login", `GET ${LIST}`, `GET ${LIST}/{id}`, "GET /api/v2/docs.json"]));
    for (const route of GATEWAY_ROUTES) {
      const sample = `/api/v2${route.path}`.replace(/\{\w+\}/g, "7");
      expect(new RegExp(`^${route.pattern.replace(/\(\?P</g, "(?<")}$`).test(sample), sample).toBe(true);
    }
  });

  it("documents each filter with the operators its type allows, and the paging bounds", () => {
    const parameters = doc.paths[LIST].get.parameters ?? [];
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p]));
    const operators = (name: string) => Object.keys((byName[name].schema.properties ?? {}) as object);
    expect(operators("email")).toEqual([...OPERATORS.string]);
    expect(operators("deliveryCount")).toEqual([...OPERATORS.integer]);
    expect(operators("accounted")).toEqual([...OPERATORS.boolean]);
    expect(operators("type")).toEqual([...OPERATORS.enum]);
    expect(byName.itemsPerPage.schema).toMatchObject({ type: "integer", minimum: 1, default: 30 });
    expect(byName.page.schema).toMatchObject({ minimum: 1, maximum: 2 ** 31 - 1 });
    expect(Object.keys((byName.order.schema.properties ?? {}) as object)).toContain("lastSeenOn");
    expect(doc.paths[LIST].get.security).toEqual([{ esgToken: [] }]);
  });

  it("shows the login's secrets as write-only, and no route's answer schema reads them back", () => {
    const credentials = doc.components.schemas.Credentials.properties ?? {};
    expect(credentials.password).toMatchObject({ type: "string", writeOnly: true });
    expect(credentials.token).toMatchObject({ readOnly: true });
    expect(doc.components.schemas.AccountedEmail.properties?.type).toMatchObject({ enum: ["address", "mailbox", "functional"] });
  });
});
