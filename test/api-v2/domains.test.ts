// Domains: the summary's MX, SPF, DKIM and DMARC validation through the injectable resolver (a
// fake one here: no test needs the internet), and one-time trials for managed service provider
// tenants with their expiry notice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useDnsResolver, type DnsResolver, type MxRecord } from "../../lib/dns.ts";
import type { TestSystem } from "../helpers/system.ts";
import { hydra, json, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
let restore: () => void;
const MTA = "mx.gateway.test";
const mx: Record<string, MxRecord[]> = {};
const txt: Record<string, string[][]> = {};
const fake: DnsResolver = {
  resolveMx: async (name) => mx[name] ?? [],
  resolveTxt: async (name) => txt[name] ?? [],
};
const post = (path: string, body?: unknown) => system.request("POST", `/api/v2${path}`, { body, headers: { "x-esg-auth-token": gateway.token, ...json } });
const get = (path: string) => gateway.get(`/api/v2${path}`, json);

beforeAll(async () => {
  restore = useDnsResolver(fake);
  gateway = await startGatewaySystem();
  system = gateway.system;
  await system.request("PATCH", "/api/v2/appliance", { body: { mtaHostname: MTA }, headers: { "x-esg-auth-token": gateway.token, "content-type": "application/merge-patch+json" } });
  await post("/appliance/apply-settings");
});
afterAll(async () => { restore?.(); await system?.stop(); });

describe("domain summary", () => {
  it("validates correct MX, SPF, DKIM and DMARC records", async () => {
    mx["good.test"] = [{ exchange: "backup.other.test", priority: 20 }, { exchange: `${MTA}.`, priority: 10 }];
    txt["good.test"] = [["v=spf1 a:", MTA, " -all"], ["google-site-verification=abc"]];
    txt["sel1._domainkey.good.test"] = [["v=DKIM1; k=rsa; p=MIIBIjANBgkq"]];
    txt["_dmarc.good.test"] = [["v=DMARC1; p=reject; rua=mailto:dmarc@good.test"]];
    const created = await post("/domains", { name: "Good.Test", dkimSelector: "sel1" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "good.test", dkimSelector: "sel1", tenant: null });
    const summary = await get(`/domains/${created.body.id}/summary`);
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({
      domain: "good.test", mtaHostname: MTA, valid: true,
      mx: { records: [`10 ${MTA}`, "20 backup.other.test"], valid: true, problems: [] },
      spf: { records: [`v=spf1 a:${MTA} -all`], valid: true, problems: [] },
      dkim: { records: ["v=DKIM1; k=rsa; p=MIIBIjANBgkq"], valid: true, problems: [] },
      dmarc: { records: ["v=DMARC1; p=reject; rua=mailto:dmarc@good.test"], valid: true, problems: [] },
    });
  });

  it("names each problem: MX elsewhere, two SPF records, a revoked DKIM key, DMARC without policy", async () => {
    mx["bad.test"] = [{ exchange: "mail.elsewhere.test", priority: 5 }, { exchange: MTA, priority: 10 }];
    txt["bad.test"] = [["v=spf1 mx ~all"], ["v=spf1 +all"]];
    txt["default._domainkey.bad.test"] = [["v=DKIM1; p="]];
    txt["_dmarc.bad.test"] = [["v=DMARC1; rua=mailto:x@bad.test"]];
    const created = await post("/domains", { name: "bad.test" });
    const summary = (await get(`/domains/${created.body.id}/summary`)).body;
    expect(summary.valid).toBe(false);
    expect(summary.mx.problems).toEqual([`The most preferred MX (mail.elsewhere.test) is not the gateway (${MTA}).`]);
    expect(summary.spf.problems).toEqual(["More than one SPF record (a permanent error for receivers)."]);
    expect(summary.dkim.problems).toEqual(["The DKIM key is empty (revoked)."]);
    expect(summary.dmarc.problems[0]).toContain("no valid policy");
  });

  it("reports missing records, an SPF that does not authorise the gateway, and +all", async () => {
    txt["none.test"] = [["v=spf1 include:spf.other.test +all"]];
    const created = await post("/domains", { name: "none.test" });
    const summary = (await get(`/domains/${created.body.id}/summary`)).body;
    expect(summary.mx).toEqual({ records: [], valid: false, problems: ["No MX record: mail for the domain cannot be delivered."] });
    expect(summary.spf.problems).toEqual([`SPF does not authorise the gateway (${MTA}); add a:${MTA} or mx.`, "SPF ends in +all: every host may send for the domain."]);
    expect(summary.dkim.problems).toEqual(["No DKIM key at default._domainkey.none.test."]);
    expect(summary.dmarc.problems).toEqual(["No DMARC record at _dmarc.none.test."]);
    expect((await get("/domains/999999/summary")).status).toBe(404);
  });

  it("refuses bad and duplicate domains, filters by name, and audits additions", async () => {
    const bad = await post("/domains", { name: "not a domain", dkimSelector: "bad selector!" });
    expect(bad.status).toBe(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["dkimSelector", "name"]);
    expect((await post("/domains", { name: "GOOD.test" })).status).toBe(422);
    const list = await gateway.get("/api/v2/domains?name[end]=.test&order[name]=asc", hydra);
    expect(list.body["hydra:member"].map((d: { name: string }) => d.name)).toEqual(["bad.test", "good.test", "none.test"]);
    const log = (await get("/audit-log?section=domains")).body;
    expect(log.map((e: { changeset: Record<string, unknown> }) => Object.keys(e.changeset)[0]).sort()).toEqual(["bad.test", "good.test", "none.test"]);
  });
});

describe("one-time domain trials", () => {
  it("gives a managed service provider tenant's domain one trial, and announces its end 7 days ahead", async () => {
    const msp = await post("/domains", { name: "client.msp.test", tenant: "acme-msp" });
    const plain = (await get("/domains?name=good.test")).body[0];
    expect((await post(`/domains/${plain.id}/trial`)).status).toBe(409);
    const started = await post(`/domains/${msp.body.id}/trial`);
    expect(started.status).toBe(200);
    const ends = Date.parse(started.body.trialEndsAt);
    expect(Math.round((ends - Date.parse(started.body.trialStartedAt)) / 86_400_000)).toBe(30);
    const again = await post(`/domains/${msp.body.id}/trial`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain("one-time trial");
    // Nothing to announce 30 days ahead; 6 days before the end there is, once.
    expect((await get("/events?kind=trial-expiring")).body).toHaveLength(0);
    await system.db.prisma.gatewayDomain.update({ where: { id: msp.body.id }, data: { trialEndsAt: new Date(Date.now() + 6 * 86_400_000) } });
    const events = (await get("/events?kind=trial-expiring")).body;
    expect(events).toHaveLength(1);
    expect(events[0].subject).toContain("client.msp.test");
    expect((await get("/events?kind=trial-expiring")).body).toHaveLength(1);
  });

  it("is for administrators only, over GraphQL too", async () => {
    expect((await system.request("GET", "/api/v2/domains")).status).toBe(401);
    const g = await system.graphql<{ gatewayDomains: { totalItems: number } }>("{ gatewayDomains { totalItems } }", {}, { headers: { "x-esg-auth-token": gateway.token } });
    expect(g.data?.gatewayDomains.totalItems).toBe(4);
  });
});
