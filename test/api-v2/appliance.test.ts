// Apply settings and auditing (5.3.0): a configuration change is pending until
// POST /appliance/apply-settings, each change that changes something is audited with its
// changeset and the executing node's unique id, and a change that changes nothing is not logged.
// Also the events list (certificate expiry 7 days ahead, release requests, DMARC report sender).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { hashPassword } from "../../subgraphs/gateway/auth/passwords.ts";
import { recordDmarcReport } from "../../subgraphs/gateway/events/events.ts";
import { hydra, json, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";
import { mail } from "./messages-fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
const DAY = 86_400_000;
const auth = () => ({ "x-esg-auth-token": gateway.token });
const patch = (body: unknown, headers: Record<string, string> = {}) =>
  system.request("PATCH", "/api/v2/appliance", { body, headers: { ...auth(), "content-type": "application/merge-patch+json", ...json, ...headers } });
const apply = () => system.request("POST", "/api/v2/appliance/apply-settings", { headers: auth() });
const auditLog = async (query = "") => (await gateway.get(`/api/v2/audit-log${query}`, json)).body as { id: number; action: string; section: string; nodeUid: string; username: string; changeset: Record<string, { old: unknown; new: unknown }> }[];

beforeAll(async () => {
  gateway = await startGatewaySystem();
  system = gateway.system;
});
afterAll(async () => { await system?.stop(); });

describe("apply settings and the audit log", () => {
  it("stores a change as pending, audits it with its changeset and the node's unique id, and applies it on request", async () => {
    const before = (await gateway.get("/api/v2/appliance", json)).body;
    expect(before.pendingChanges).toBe(false);
    expect(before.nodeUid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const changed = await patch({ mtaHostname: "mx1.corp.test" });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ mtaHostname: "mx1.corp.test", pendingChanges: true });

    // Not in force yet: a DMARC report still comes from no-reply at the applied hostname.
    const early = await recordDmarcReport({ db: system.db }, { domain: "sender.test", rua: "dmarc@sender.test", begin: new Date(0), end: new Date(DAY) });
    expect(early?.sender).toBe(`no-reply@${before.mtaHostname}`);

    const entries = await auditLog();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "change", section: "appliance", username: "admin", nodeUid: before.nodeUid, changeset: { mtaHostname: { old: before.mtaHostname, new: "mx1.corp.test" } } });
    expect(entries[0].nodeUid).not.toBe(before.hostname);

    const applied = await apply();
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ status: "applied", appliedSections: ["appliance"] });
    expect((await gateway.get("/api/v2/appliance", json)).body).toMatchObject({ mtaHostname: "mx1.corp.test", pendingChanges: false });
    const late = await recordDmarcReport({ db: system.db }, { domain: "sender.test", rua: "dmarc@sender.test", begin: new Date(DAY), end: new Date(2 * DAY) });
    expect(late).toMatchObject({ sender: "no-reply@mx1.corp.test", recipient: "dmarc@sender.test" });

    const afterApply = await auditLog();
    expect(afterApply[0]).toMatchObject({ action: "apply", nodeUid: before.nodeUid, changeset: { appliedSections: { old: null, new: ["appliance"] } } });
    expect((await apply()).body).toMatchObject({ status: "up-to-date", appliedSections: [] });
    expect(await auditLog()).toHaveLength(2);
  });

  it("does not log a change that changes nothing, and saving the applied value again leaves nothing pending", async () => {
    const count = (await auditLog()).length;
    expect((await patch({ mtaHostname: "MX1.corp.test." })).body.pendingChanges).toBe(false);
    expect(await auditLog()).toHaveLength(count);
    await patch({ adminEmail: "ops@corp.test" });
    expect((await gateway.get("/api/v2/appliance", json)).body.pendingChanges).toBe(true);
    await patch({ adminEmail: (await system.graphql<{ appliance: { applied: { adminEmail: string } } }>("{ appliance { applied { adminEmail } } }", {}, { headers: auth() })).data!.appliance.applied.adminEmail });
    expect((await gateway.get("/api/v2/appliance", json)).body.pendingChanges).toBe(false);
    const entries = await auditLog();
    expect(entries).toHaveLength(count + 2);
    expect(Object.keys(entries[0].changeset)).toEqual(["adminEmail"]);
  });

  it("filters the audit log by section and action, and reports a bad operator as a violation", async () => {
    const applies = await auditLog("?action=apply");
    expect(applies.length).toBeGreaterThan(0);
    expect(applies.every((e) => e.action === "apply")).toBe(true);
    const bad = await gateway.get("/api/v2/audit-log?section[like]=app", hydra);
    expect(bad.status).toBe(422);
    expect(bad.body.violations[0]).toMatchObject({ propertyPath: "section" });
    const one = await gateway.get(`/api/v2/audit-log/${applies[0].id}`, hydra);
    expect(one.body).toMatchObject({ "@id": `/api/v2/audit-log/${applies[0].id}`, "@type": "AuditEntry", action: "apply" });
    expect((await gateway.get("/api/v2/audit-log/999999", hydra)).status).toBe(404);
  });

  it("refuses bad settings with 422 violations (unknown properties included; read-only ones are ignored)", async () => {
    const bad = await patch({ mtaHostname: "not a host", adminEmail: `${"a".repeat(250)}@corp.test`, nodeUid: "x", colour: "red" });
    expect(bad.status).toBe(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["colour"]);
    const values = await patch({ mtaHostname: "not a host", adminEmail: `${"a".repeat(250)}@corp.test` });
    expect(values.status).toBe(422);
    expect(values.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["adminEmail", "mtaHostname"]);
    expect(values.body.violations.find((v: { propertyPath: string }) => v.propertyPath === "adminEmail").message).toContain("longer than 254");
    expect((await patch("[]")).status).toBe(400);
  });

  it("is for administrators only: no token, a forged token and a plain user are refused", async () => {
    expect((await system.request("POST", "/api/v2/appliance/apply-settings")).status).toBe(401);
    expect((await system.request("POST", "/api/v2/appliance/apply-settings", { headers: { "x-esg-auth-token": `${"A".repeat(22)}.${"B".repeat(43)}` } })).status).toBe(401);
    await system.db.prisma.gatewayUser.create({ data: { username: "plain", passwordHash: await hashPassword("plain-password"), roles: ["user"] } });
    const token = (await gateway.login("plain", "plain-password")).body.token;
    const refused = await system.request("POST", "/api/v2/appliance/apply-settings", { headers: { "x-esg-auth-token": token } });
    expect(refused.status).toBe(403);
    expect((await system.request("PATCH", "/api/v2/appliance", { body: { mtaHostname: "evil.test" }, headers: { "x-esg-auth-token": token } })).status).toBe(403);
    expect((await gateway.get("/api/v2/appliance", json)).body.mtaHostname).toBe("mx1.corp.test");
  });

  it("answers GraphQL: applySettings and the audit log as typed fields", async () => {
    await patch({ quarantineSender: "quarantine@corp.test" });
    const result = await system.graphql<{ applySettings: { status: string; appliedSections: string[] }; }>("mutation { applySettings { status appliedSections } }", {}, { headers: auth() });
    expect(result.data?.applySettings).toEqual({ status: "applied", appliedSections: ["appliance"] });
    const log = await system.graphql<{ auditEntries: { totalItems: number; items: { changeset: { property: string; new: unknown }[] }[] } }>(
      `{ auditEntries(filter: { action: [{ operator: eq, value: "change" }] }, itemsPerPage: 1) { totalItems items { changeset { property new } } } }`, {}, { headers: auth() });
    expect(log.data?.auditEntries.items[0].changeset).toEqual([{ property: "quarantineSender", new: "quarantine@corp.test" }]);
  });
});

describe("events", () => {
  it("records a certificate expiry notice 7 days ahead, once", async () => {
    const now = Date.now();
    await system.db.prisma.gatewayCertificate.createMany({
      data: [
        { commonName: "mx1.corp.test", nodeUid: "n1", issuedBy: "primary", notBefore: new Date(now - 80 * DAY), notAfter: new Date(now + 6 * DAY) },
        { commonName: "mx2.corp.test", nodeUid: "n2", issuedBy: "primary", notBefore: new Date(now - 80 * DAY), notAfter: new Date(now + 8 * DAY) },
      ],
    });
    const first = await gateway.get("/api/v2/events?kind=certificate-expiry", hydra);
    expect(first.status).toBe(200);
    expect(first.body["hydra:totalItems"]).toBe(1);
    expect(first.body["hydra:member"][0]).toMatchObject({ "@type": "Event", kind: "certificate-expiry", recipient: "postmaster@" + first.body["hydra:member"][0].recipient.split("@")[1] });
    expect(first.body["hydra:member"][0].subject).toContain("mx1.corp.test");
    const again = await gateway.get("/api/v2/events?kind=certificate-expiry", hydra);
    expect(again.body["hydra:totalItems"]).toBe(1);
    expect((await gateway.get("/api/v2/events?kind[contains]=cert", hydra)).status).toBe(422);
  });

  it("records a user's release request (POST /message/{id}/request-release), naming them by full name, or by username when it is empty", async () => {
    await system.db.prisma.gatewayUser.update({ where: { username: "plain" }, data: { email: "plain@corp.test" } });
    const ingest = await system.request("POST", "/api/v2/messages/ingest", { headers: auth(), body: [
      ...["RR1", "RR2"].map((id) => mail(1, { id, recipients: ["plain@corp.test"], quarantined: true, result: "spam", deliveryResult: "pending", subject: "Invoice" })),
      mail(2, { id: "RR-DELIVERED", recipients: ["plain@corp.test"] }),
      mail(3, { id: "RR-OTHERS", recipients: ["someone@corp.test"], quarantined: true, result: "spam", deliveryResult: "pending" }),
    ] });
    expect(ingest.status, ingest.text).toBe(200);
    const token = (await gateway.login("plain", "plain-password")).body.token;
    const ask = (id: string) => system.request("POST", `/api/v2/message/${id}/request-release`, { headers: { "x-esg-auth-token": token } });
    expect((await ask("RR1")).status).toBe(204);
    const user = await system.db.prisma.gatewayUser.findUniqueOrThrow({ where: { username: "plain" } });
    await system.db.prisma.gatewayUserProfile.upsert({ where: { userId: user.id }, create: { userId: user.id, fullName: "Paula Plain" }, update: { fullName: "Paula Plain" } });
    expect((await ask("RR2")).status).toBe(204);
    // Not in quarantine: 409; not the user's mail: 404; nothing recorded for either.
    expect((await ask("RR-DELIVERED")).status).toBe(409);
    expect((await ask("RR-OTHERS")).status).toBe(404);
    const events = (await gateway.get("/api/v2/events?kind=release-request&order[id]=asc", json)).body;
    expect(events.map((e: { subject: string }) => e.subject)).toEqual(["Release request from plain", "Release request from Paula Plain"]);
    expect(events[0].body).toContain("RR1");
    // Asking releases nothing.
    expect((await gateway.get("/api/v2/message/RR1", json)).body.state).toBe("quarantined");
  });
});
