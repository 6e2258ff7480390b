// Versions: the release line 5.3.0–5.3.19 with dates and per-release API changes, served as data
// (which routes and properties were added, deprecated, fixed or removed, and when).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { hydra, json, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
const get = (path: string, headers = json) => gateway.get(`/api/v2${path}`, headers);

beforeAll(async () => {
  gateway = await startGatewaySystem();
  system = gateway.system;
});
afterAll(async () => { await system?.stop(); });

describe("releases", () => {
  it("lists the 20 releases of the line with their dates, in version order", async () => {
    const all = await get("/versions?itemsPerPage=100&order[version]=asc", hydra);
    expect(all.body["hydra:totalItems"]).toBe(20);
    const members = all.body["hydra:member"];
    expect(members[0]).toMatchObject({ "@id": "/api/v2/versions/5.3.0", id: "5.3.0", version: "5.3.0", releasedOn: "2024-05-22T00:00:00+00:00", apiChangeCount: 5 });
    expect(members.map((m: { version: string }) => m.version).slice(8, 12)).toEqual(["5.3.8", "5.3.9", "5.3.10", "5.3.11"]);
    expect(members[19]).toMatchObject({ version: "5.3.19", releasedOn: "2025-12-09T00:00:00+00:00" });
    const late = (await get("/versions?releasedOn[gte]=2025-01-01")).body;
    expect(late.map((r: { version: string }) => r.version)).toEqual(["5.3.15", "5.3.16", "5.3.17", "5.3.18", "5.3.19"]);
  });

  it("serves one release with its breaking and API changes", async () => {
    const first = (await get("/versions/5.3.0")).body;
    expect(first.breakingChanges).toHaveLength(3);
    expect(first.breakingChanges[0]).toContain("apply-settings");
    expect(first.apiChanges.map((c: { kind: string; target: string }) => `${c.kind} ${c.target}`)).toEqual([
      "added POST /appliance/apply-settings", "added POST /message/{id}/report-as-good", "added POST /message/{id}/report-as-bad",
      "deprecated POST /message/{id}/submit-as-good", "deprecated POST /message/{id}/submit-as-bad",
    ]);
    expect((await get("/versions/5.2.9")).status).toBe(404);
  });
});

describe("API changes", () => {
  it("lists what is deprecated and what replaces it", async () => {
    const deprecated = (await get("/api-changes?kind=deprecated")).body;
    expect(deprecated.map((c: { target: string; replacement: string; version: string }) => [c.version, c.target, c.replacement])).toEqual([
      ["5.3.0", "POST /message/{id}/submit-as-good", "POST /message/{id}/report-as-good"],
      ["5.3.0", "POST /message/{id}/submit-as-bad", "POST /message/{id}/report-as-bad"],
      ["5.3.8", "/integration/google-connector-config googleCustomerId", "/integration/google-connector-config organizationId"],
    ]);
  });

  it("says in which release a property came (tenant in 5.3.7, userEmailFromGroups on three connectors in 5.3.8)", async () => {
    const tenant = (await get("/api-changes?target[end]=tenant")).body;
    expect(tenant).toHaveLength(1);
    expect(tenant[0]).toMatchObject({ version: "5.3.7", kind: "added", subject: "property" });
    const groups = (await get("/api-changes?target[contains]=userEmailFromGroups&version=5.3.8")).body;
    expect(groups).toHaveLength(3);
    expect((await get("/api-changes?version[in]=5.3.2,5.3.5")).body).toHaveLength(4);
    expect((await get("/api-changes?kind=removed")).body[0]).toMatchObject({ version: "5.3.17", subject: "authentication" });
  });

  it("reports bad operators and values as violations, and needs a token", async () => {
    const bad = await get("/api-changes?kind[contains]=dep&releasedOn[gt]=yesterday");
    expect(bad.status).toBe(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["kind", "releasedOn"]);
    expect((await system.request("GET", "/api/v2/versions")).status).toBe(401);
    const g = await system.graphql<{ gatewayApiChanges: { totalItems: number } }>(`{ gatewayApiChanges(filter: { kind: [{ value: "deprecated" }] }) { totalItems } }`, {}, { headers: { "x-esg-auth-token": gateway.token } });
    expect(g.data?.gatewayApiChanges.totalItems).toBe(3);
  });
});
