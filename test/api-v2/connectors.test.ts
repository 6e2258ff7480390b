// Integration connectors over /api/v2 and GraphQL: the three configurations, write-only secrets,
// the deprecated customer-id property mapped onto organizationId, the 2048-character DN and filter
// limit, and every write pending until apply-settings, audited without secret values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { hashPassword } from "../../subgraphs/gateway/auth/passwords.ts";
import { appliedConnectorConfig } from "../../subgraphs/gateway/connectors/connectors.ts";
import { hydra, json, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
const M365 = "/api/v2/integration/microsoft-365-config";
const GOOGLE = "/api/v2/integration/google-connector-config";
const LDAP = "/api/v2/integration/ldap";
const auth = () => ({ "x-esg-auth-token": gateway.token });
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  system.request(method, path, { body, headers: { ...auth(), ...json, ...headers } });
const apply = () => system.request("POST", "/api/v2/appliance/apply-settings", { headers: auth() });

beforeAll(async () => {
  gateway = await startGatewaySystem();
  system = gateway.system;
});
afterAll(async () => { await system?.stop(); });

describe("cloud-suite-B (microsoft-365-config)", () => {
  it("reads defaults, saves tenant and userEmailFromGroups as pending, and applies them on request", async () => {
    const initial = await gateway.get(M365, hydra);
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ "@id": M365, "@type": "Microsoft365Config", enabled: false, tenant: "", userEmailFromGroups: false, hasClientSecret: false, pendingChanges: false, lastAppliedAt: null });

    const saved = await send("POST", M365, { tenant: "contoso.onmicrosoft.com", userEmailFromGroups: true, clientSecret: "s3cret-value" });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ tenant: "contoso.onmicrosoft.com", userEmailFromGroups: true, hasClientSecret: true, pendingChanges: true });
    expect(saved.body).not.toHaveProperty("clientSecret");
    expect(saved.text).not.toContain("s3cret-value");
    // Not in force before apply-settings.
    expect(await appliedConnectorConfig({ db: system.db }, "microsoft-365")).toMatchObject({ tenant: "", userEmailFromGroups: false });

    const log = (await gateway.get("/api/v2/audit-log?section=integration/microsoft-365", json)).body;
    expect(log).toHaveLength(1);
    expect(log[0].changeset).toEqual({
      tenant: { old: "", new: "contoso.onmicrosoft.com" }, clientSecret: { old: null, new: "******" }, userEmailFromGroups: { old: false, new: true },
    });
    expect(JSON.stringify(log)).not.toContain("s3cret-value");

    expect((await apply()).body.appliedSections).toEqual(["integration/microsoft-365"]);
    expect(await appliedConnectorConfig({ db: system.db }, "microsoft-365")).toMatchObject({ tenant: "contoso.onmicrosoft.com", userEmailFromGroups: true, clientSecret: "s3cret-value" });
    const after = (await gateway.get(M365, json)).body;
    expect(after.pendingChanges).toBe(false);
    expect(after.lastAppliedAt).toMatch(/\+00:00$/);
  });

  it("does not log or leave pending a write that changes nothing", async () => {
    const before = (await gateway.get("/api/v2/audit-log", json)).body.length;
    const same = await send("POST", M365, { tenant: "contoso.onmicrosoft.com", userEmailFromGroups: true });
    expect(same.body.pendingChanges).toBe(false);
    expect((await gateway.get("/api/v2/audit-log", json)).body).toHaveLength(before);
  });

  it("PUT replaces: properties not sent go back to defaults, the write-only secret is kept", async () => {
    const replaced = await send("PUT", M365, { tenant: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0" });
    expect(replaced.body).toMatchObject({ tenant: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", userEmailFromGroups: false, hasClientSecret: true, pendingChanges: true });
  });

  it("refuses bad values with 422 violations naming each property", async () => {
    const bad = await send("PATCH", M365, { tenant: "not a tenant!", enabled: "yes", colour: "red" }, { "content-type": "application/merge-patch+json" });
    expect(bad.status).toBe(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["colour", "enabled"]);
    const tenant = await send("PATCH", M365, { tenant: "not a tenant!" }, { "content-type": "application/merge-patch+json" });
    expect(tenant.status).toBe(422);
    expect(tenant.body.violations[0].propertyPath).toBe("tenant");
  });
});

describe("cloud-suite-A (google-connector-config)", () => {
  it("accepts the deprecated customer-id property and maps it onto organizationId", async () => {
    const saved = await send("POST", GOOGLE, { enabled: true, googleCustomerId: "C01abc234", userEmailFromGroups: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ enabled: true, organizationId: "C01abc234", googleCustomerId: "C01abc234", userEmailFromGroups: true, pendingChanges: true });
    const both = await send("POST", GOOGLE, { googleCustomerId: "old", organizationId: "C99new" });
    expect(both.body.organizationId).toBe("C99new");
    const log = (await gateway.get("/api/v2/audit-log?section=integration/google", json)).body;
    expect(Object.keys(log[0].changeset)).toEqual(["organizationId"]);
  });

  it("is a typed GraphQL query and mutation too, with googleCustomerId deprecated", async () => {
    const result = await system.graphql<{ updateGoogleConnectorConfig: { organizationId: string; googleCustomerId: string; pendingChanges: boolean } }>(
      `mutation { updateGoogleConnectorConfig(input: { googleCustomerId: "C77" }) { organizationId googleCustomerId pendingChanges } }`, {}, { headers: auth() });
    expect(result.data?.updateGoogleConnectorConfig).toEqual({ organizationId: "C77", googleCustomerId: "C77", pendingChanges: true });
    const schema = await system.graphql<{ __type: { fields: { name: string; isDeprecated: boolean }[] } }>(
      `{ __type(name: "GoogleConnectorConfig") { fields(includeDeprecated: true) { name isDeprecated } } }`);
    expect(schema.data?.__type.fields.find((f) => f.name === "googleCustomerId")?.isDeprecated).toBe(true);
  });
});

describe("directory (ldap)", () => {
  it("takes DNs and filters up to 2048 characters and refuses longer ones", async () => {
    const dn = `cn=${"a".repeat(2045)}`;
    expect(dn).toHaveLength(2048);
    const ok = await send("PATCH", LDAP, { host: "ldap.corp.test", enabled: true, bindDn: dn, userFilter: `(${"x".repeat(2046)})`, bindPassword: "pw" }, { "content-type": "application/merge-patch+json" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ enabled: true, bindDn: dn, hasBindPassword: true, port: 389, encryption: "none" });
    const long = await send("PATCH", LDAP, { baseDn: `${dn}x`, groupFilter: "y".repeat(2049) }, { "content-type": "application/merge-patch+json" });
    expect(long.status).toBe(422);
    expect(long.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["baseDn", "groupFilter"]);
    expect(long.body.violations[0].message).toContain("2048");
  });

  it("refuses an enabled connector without a host, a bad port and a bad encryption", async () => {
    const bad = await send("PUT", LDAP, { enabled: true, port: 70000, encryption: "ssl" });
    expect(bad.status).toBe(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["encryption"]);
    const bad2 = await send("PUT", LDAP, { enabled: true, port: 70000 });
    expect(bad2.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["host", "port"]);
  });

  it("is for administrators only", async () => {
    await system.db.prisma.gatewayUser.create({ data: { username: "da", passwordHash: await hashPassword("da-password"), roles: ["domain-admin"] } });
    const token = (await gateway.login("da", "da-password")).body.token;
    expect((await system.request("GET", LDAP, { headers: { "x-esg-auth-token": token } })).status).toBe(403);
    expect((await system.request("POST", LDAP, { body: { enabled: false }, headers: { "x-esg-auth-token": token } })).status).toBe(403);
    expect((await system.request("GET", LDAP)).status).toBe(401);
    expect((await system.request("DELETE", LDAP, { headers: auth() })).status).toBe(405);
  });
});

describe("group imports", () => {
  it("defaults both options to yes for new sets, and runs only with the connector enabled and applied", async () => {
    const created = await send("POST", "/api/v2/integration/group-import", { connector: "ldap", groupName: "Sales" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ connector: "ldap", groupName: "Sales", addGroupEmailToUsers: true, createFunctionalUserForGroups: true, lastRunAt: null });
    expect((await send("POST", "/api/v2/integration/group-import", { connector: "ldap", groupName: "Sales" })).status).toBe(422);
    expect((await send("POST", "/api/v2/integration/group-import", { connector: "exchange", groupName: "X" })).status).toBe(422);

    // The ldap connector was saved enabled earlier in this file but PUT-replaced since; enable it without applying.
    await send("PATCH", LDAP, { enabled: true, host: "ldap.corp.test" }, { "content-type": "application/merge-patch+json" });
    const early = await send("POST", `/api/v2/integration/group-import/${created.body.id}/run`, { groupEmail: "sales@corp.test", members: [] });
    expect(early.status).toBe(409);
    await apply();

    // sales@ had been accounted as an ordinary address; a member is a gateway user.
    await system.db.prisma.accountedEmail.create({ data: { address: "sales@corp.test", type: "address", domain: "corp.test", firstSeenOn: new Date(Date.now() - 5 * 86_400_000), lastSeenOn: new Date(), deliveryCount: 9, expiresOn: new Date(Date.now() + 30 * 86_400_000), accounted: true } });
    await system.db.prisma.gatewayUser.create({ data: { username: "sam", passwordHash: "x", roles: ["user"], email: "Sam@corp.test" } });
    const before = (await gateway.get("/api/v2/licensing/accounted-email?accounted=true", json)).body.length;
    const ran = await send("POST", `/api/v2/integration/group-import/${created.body.id}/run`, { groupEmail: "Sales@Corp.test", members: ["sam@corp.test", "ghost@corp.test"] });
    expect(ran.status).toBe(200);
    expect(ran.body).toEqual({ groupEmail: "sales@corp.test", functionalUser: true, usersUpdated: 1, membersUnknown: 1 });
    // The functional user no longer counts as a licence.
    const record = (await gateway.get("/api/v2/licensing/accounted-email?email=sales@corp.test", json)).body[0];
    expect(record).toMatchObject({ type: "functional", accounted: false });
    expect((await gateway.get("/api/v2/licensing/accounted-email?accounted=true", json)).body.length).toBe(before - 1);
    const sam = await system.db.prisma.gatewayUser.findUniqueOrThrow({ where: { username: "sam" } });
    expect((await system.db.prisma.gatewayUserProfile.findUniqueOrThrow({ where: { userId: sam.id } })).aliases).toEqual(["sales@corp.test"]);
    // Running again changes nothing more.
    expect((await send("POST", `/api/v2/integration/group-import/${created.body.id}/run`, { groupEmail: "sales@corp.test", members: ["sam@corp.test"] })).body.usersUpdated).toBe(0);
    const bad = await send("POST", `/api/v2/integration/group-import/${created.body.id}/run`, { groupEmail: `${"x".repeat(250)}@corp.test`, members: ["not-an-address"] });
    expect(bad.status).toBe(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(["groupEmail", "members[0]"]);
  });

  it("keeps a set's options when told no, and deletes sets", async () => {
    const created = await send("POST", "/api/v2/integration/group-import", { connector: "google", groupName: "Support", createFunctionalUserForGroups: false });
    expect(created.body).toMatchObject({ addGroupEmailToUsers: true, createFunctionalUserForGroups: false });
    expect((await gateway.get("/api/v2/integration/group-import", json)).body).toHaveLength(2);
    expect((await system.request("DELETE", `/api/v2/integration/group-import/${created.body.id}`, { headers: auth() })).status).toBe(204);
    expect((await system.request("DELETE", `/api/v2/integration/group-import/${created.body.id}`, { headers: auth() })).status).toBe(404);
  });
});
