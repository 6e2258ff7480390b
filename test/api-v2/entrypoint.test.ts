// The /api/v2 entry point (API Platform's Entrypoint in Hydra, HAL links, plain JSON) and the
// JSON-LD @context documents that Hydra bodies name: each exists and defines the body's keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { LIST, hal, hydra, json, row, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;

beforeAll(async () => {
  gateway = await startGatewaySystem();
  ({ system } = gateway);
  await system.db.prisma.accountedEmail.createMany({ data: [row("ann@corp.test", 1), row("bob@corp.test", 2)] });
});

afterAll(async () => { await system?.stop(); });

/** The IRI of every collection the route table serves, keyed as API Platform names it (the short
 *  name of the collection's @context, first letter lowered): every path of the OpenAPI document (which the same route table
 *  produces) with a GET and no path parameter, asked for as the administrator, that answers a
 *  hydra:Collection. Singletons (the appliance, a connector's configuration) answer an item. */
async function servedCollections(): Promise<Record<string, string>> {
  const { body } = await system.request("GET", "/api/v2/docs.json");
  const entries: [string, string][] = [];
  for (const [path, item] of Object.entries(body.paths as Record<string, { get?: { tags?: string[] } }>)) {
    if (!item.get || path.includes("{") || item.get.tags?.includes("Documentation")) continue;
    const r = await gateway.get(path, hydra);
    expect(r.status, path).toBe(200);
    if (r.body["@type"] !== "hydra:Collection") continue;
    const name = String(r.body["@context"]).replace("/api/v2/contexts/", "");
    entries.push([name[0].toLowerCase() + name.slice(1), path]);
  }
  return Object.fromEntries(entries);
}

describe("GET /api/v2/", () => {
  let collections: Record<string, string>;
  beforeAll(async () => { collections = await servedCollections(); });

  it("the route table serves the mail-flow and licensing collections (the derivation below finds them)", () => {
    expect(collections).toMatchObject({
      accountedEmail: LIST, message: "/api/v2/messages", restrictedSender: "/api/v2/restricted-sender",
    });
    // Items, actions and singletons are not collections.
    for (const iri of Object.values(collections)) expect(iri).not.toMatch(/\{|\/api\/v2\/(appliance|cluster|otp-policy|login)$/);
  });

  it("is a Hydra Entrypoint listing every collection and nothing else, without signing in", async () => {
    for (const path of ["/api/v2/", "/api/v2"]) {
      const r = await system.request("GET", path, { headers: hydra });
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^application\/ld\+json/);
      expect(r.body).toEqual({ "@context": "/api/v2/contexts/Entrypoint", "@id": "/api/v2", "@type": "Entrypoint", ...collections });
    }
  });

  it("answers HAL links (also without Accept) and plain JSON, with the same collections", async () => {
    const links = Object.fromEntries(Object.entries(collections).map(([key, href]) => [key, { href }]));
    for (const headers of [hal, {}]) {
      const r = await system.request("GET", "/api/v2/", { headers });
      expect(r.headers.get("content-type")).toMatch(/^application\/hal\+json/);
      expect(r.body).toEqual({ _links: { self: { href: "/api/v2" }, ...links } });
    }
    const plain = await system.request("GET", "/api/v2/", { headers: json });
    expect(plain.body).toEqual(collections);
  });

  it("lists IRIs a signed-in client can follow, each answering a collection", async () => {
    const { body } = await system.request("GET", "/api/v2/", { headers: hydra });
    const iris = Object.entries(body).filter(([key]) => !key.startsWith("@")).map(([, iri]) => iri as string);
    expect(iris.length).toBe(Object.keys(collections).length);
    for (const iri of iris) {
      const r = await gateway.get(iri, hydra);
      expect(r.status, iri).toBe(200);
      expect(r.body["@type"], iri).toBe("hydra:Collection");
    }
  });

  it("is in the OpenAPI document", async () => {
    const { body } = await system.request("GET", "/api/v2/docs.json");
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(["/api/v2/", "/api/v2/contexts/{name}"]));
  });
});

describe("GET /api/v2/contexts/{name}", () => {
  /** Every key of a Hydra body (and its members) that the named context must define. */
  const ownKeys = (value: Record<string, unknown>): string[] => Object.keys(value).filter((k) => !k.startsWith("@") && !k.startsWith("hydra:"));

  async function expectContextDefines(body: Record<string, unknown>, keys: string[]) {
    const iri = body["@context"] as string;
    expect(iri).toMatch(/^\/api\/v2\/contexts\/\w+$/);
    const r = await system.request("GET", iri);
    expect(r.status, iri).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/ld\+json/);
    const context = r.body["@context"];
    expect(context.hydra).toBe("http://www.w3.org/ns/hydra/core#");
    for (const key of keys) expect(context, `${iri} defines ${key}`).toHaveProperty([key]);
  }

  it("exists for the entry point, a collection and an item, defining their properties", async () => {
    const entry = (await system.request("GET", "/api/v2/", { headers: hydra })).body;
    await expectContextDefines(entry, ownKeys(entry));
    const collection = (await gateway.get(LIST, hydra)).body;
    const member = collection["hydra:member"][0];
    await expectContextDefines(collection, ownKeys(member));
    const item = (await gateway.get(member["@id"], hydra)).body;
    await expectContextDefines(item, ownKeys(item));
  });

  it("exists for errors and constraint violations", async () => {
    const error = await system.request("GET", LIST, { headers: hydra });
    expect(error.status).toBe(401);
    await expectContextDefines(error.body, ownKeys(error.body));
    const violations = await gateway.get(`${LIST}?email[xx]=a`, hydra);
    expect(violations.status).toBe(422);
    await expectContextDefines(violations.body, [...ownKeys(violations.body), ...ownKeys(violations.body.violations[0])]);
  });

  it("answers 404 for a name no body uses", async () => {
    const r = await system.request("GET", "/api/v2/contexts/Nothing", { headers: hydra });
    expect(r.status).toBe(404);
  });
});
