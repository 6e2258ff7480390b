// Authentication: users with roles, OTP (TOTP) that administrators make mandatory for all or
// selected users (taking effect after apply-settings), unavailable to external identity provider
// users; passwordless login tokens whose last use is recorded; X-Switch-User for API users.
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { json, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
const admin = () => ({ "x-esg-auth-token": gateway.token });
const call = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
  system.request(method, path, { body, headers: { "x-esg-auth-token": token, ...json, ...headers } });
const code = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: Date.now() + offsetSeconds * 1000 });
const createUser = async (body: Record<string, unknown>) => call("POST", "/api/v2/users", gateway.token, body);

beforeAll(async () => {
  gateway = await startGatewaySystem();
  system = gateway.system;
});
afterAll(async () => { await system?.stop(); });

describe("users and roles", () => {
  it("creates users with roles; only administrators manage users", async () => {
    const created = await createUser({ username: "dora", password: "dora-password", fullName: "Dora Domain", email: "dora@corp.test", role: "domain-admin", domains: ["corp.test", "Sub.Corp.Test"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: "dora", role: "domain-admin", domains: ["corp.test", "sub.corp.test"], identityProvider: "local", otp: "disabled" });
    expect(created.body).not.toHaveProperty("password");
    // A list property is a JSON array: a comma-joined string is not a list (no deprecated form exists).
    const joined = await createUser({ username: "dina", password: "dina-password", role: "domain-admin", domains: "corp.test,sub.corp.test" });
    expect(joined.status).toBe(422);
    expect(joined.body.violations).toEqual([{ propertyPath: "domains", message: "This value should be of type array of string." }]);
    const user = await createUser({ username: "uma", password: "uma-password", role: "user" });
    expect(user.status).toBe(201);
    expect((await createUser({ username: "uma", password: "x", role: "boss" })).body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(["role"]);
    expect((await createUser({ username: "uma", password: "x" })).body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["password", "username"]);
    const uma = (await gateway.login("uma", "uma-password")).body.token;
    expect((await call("GET", "/api/v2/users", uma)).status).toBe(403);
    expect((await call("GET", "/api/v2/users/me", uma)).body).toMatchObject({ username: "uma", role: "user" });
    const listed = await call("GET", "/api/v2/users?username[start]=d", gateway.token);
    expect(listed.body.map((u: { username: string }) => u.username)).toEqual(["dora"]);
  });
});

describe("one-time passwords", () => {
  let secret = "";
  it("sets up OTP, then asks for a code at sign-in, refuses a wrong one and a replayed one", async () => {
    await createUser({ username: "olga", password: "olga-password" });
    const token = (await gateway.login("olga", "olga-password")).body.token;
    const started = await call("POST", "/api/v2/users/me/otp", token);
    expect(started.status).toBe(200);
    secret = started.body.secret;
    expect(started.body.uri).toMatch(/^otpauth:\/\/totp\/.*olga\?.*secret=/);
    expect((await call("POST", "/api/v2/users/me/otp/confirm", token, { code: "000000" === code(secret) ? "111111" : "000000" })).status).toBe(422);
    const confirmed = await call("POST", "/api/v2/users/me/otp/confirm", token, { code: code(secret) });
    expect(confirmed.body.otp).toBe("enabled");
    // The stored secret is sealed, not the base32 the user saw.
    const profile = await system.db.prisma.gatewayUserProfile.findFirstOrThrow({ where: { otpEnabledAt: { not: null } } });
    expect(profile.otpSecret).not.toContain(secret);

    const missing = await gateway.login("olga", "olga-password");
    expect(missing.status).toBe(401);
    expect(missing.body.detail).toBe("A one-time password is required.");
    expect((await system.request("POST", "/api/v2/login", { body: { username: "olga", password: "olga-password", otp: "12345x" } })).status).toBe(401);
    const next = code(secret, 30); // the step after the one enrollment used
    const ok = await system.request("POST", "/api/v2/login", { body: { username: "olga", password: "olga-password", otp: next } });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual(["expiresAt", "token"]);
    const replay = await system.request("POST", "/api/v2/login", { body: { username: "olga", password: "olga-password", otp: next } });
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toBe("The one-time password is not valid.");
  });

  it("lets an administrator make OTP mandatory for selected users, in force only after apply-settings", async () => {
    const saved = await call("PATCH", "/api/v2/otp-policy", gateway.token, { mandatory: "selected", users: ["uma"] }, { "content-type": "application/merge-patch+json" });
    expect(saved.body).toEqual({ mandatory: "selected", users: ["uma"], pendingChanges: true });
    // Pending: uma still signs in with full rights.
    const before = await gateway.login("uma", "uma-password");
    expect(before.body).not.toHaveProperty("otpEnrollmentRequired");
    expect((await call("GET", "/api/v2/users/me", before.body.token)).body.otp).toBe("disabled");
    expect((await call("POST", "/api/v2/appliance/apply-settings", gateway.token)).body.appliedSections).toContain("otp-policy");

    const after = await gateway.login("uma", "uma-password");
    expect(after.body.otpEnrollmentRequired).toBe(true);
    const restricted = after.body.token;
    // Until set up, the session can only set OTP up.
    expect((await call("GET", "/api/v2/users/me", restricted)).body.otp).toBe("required");
    expect((await call("DELETE", "/api/v2/users/me/otp", restricted)).status).toBe(409);
    // Not even the user's own mail.
    expect((await call("GET", "/api/v2/messages", restricted)).status).toBe(403);
    expect((await call("GET", "/api/v2/messages", gateway.token)).status).toBe(200);
    const enrollment = (await call("POST", "/api/v2/users/me/otp", restricted)).body;
    expect((await call("POST", "/api/v2/users/me/otp/confirm", restricted, { code: code(enrollment.secret) })).body.otp).toBe("enabled");
    expect((await gateway.login("uma", "uma-password")).status).toBe(401);
    expect((await call("GET", "/api/v2/users?username=uma", gateway.token)).body[0].otp).toBe("enabled");
  });

  it("refuses unknown users in the policy and bad values with 422", async () => {
    const bad = await call("POST", "/api/v2/otp-policy", gateway.token, { mandatory: "sometimes", users: ["nobody-here"] });
    expect(bad.status).toBe(422);
    const unknown = await call("POST", "/api/v2/otp-policy", gateway.token, { users: ["nobody-here"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.violations[0].propertyPath).toBe("users");
    const joined = await call("POST", "/api/v2/otp-policy", gateway.token, { users: "uma,dora" });
    expect(joined.status).toBe(422);
    expect(joined.body.violations).toEqual([{ propertyPath: "users", message: "This value should be of type array of string." }]);
  });

  it("shows OTP as unavailable for external identity provider users, who cannot set it up", async () => {
    const ext = await createUser({ username: "eve", identityProvider: "external", role: "user" });
    expect(ext.status).toBe(201);
    expect(ext.body.otp).toBe("unavailable");
    await call("POST", "/api/v2/otp-policy", gateway.token, { mandatory: "selected", users: ["dora", "eve", "uma"] });
    await call("POST", "/api/v2/appliance/apply-settings", gateway.token);
    const users = (await call("GET", "/api/v2/users?itemsPerPage=100", gateway.token)).body as { username: string; otp: string }[];
    expect(Object.fromEntries(users.map((u) => [u.username, u.otp]))).toMatchObject({ eve: "unavailable", dora: "required", uma: "enabled", olga: "enabled", admin: "disabled" });
    // A login token for eve; OTP is not asked of her.
    const eve = users.find((u) => u.username === "eve") as unknown as { id: number };
    const issued = await call("POST", `/api/v2/users/${eve.id}/login-tokens`, gateway.token, { label: "kiosk" });
    const login = await system.request("POST", "/api/v2/passwordless-login", { body: { loginToken: issued.body.token } });
    expect(login.status).toBe(200);
    expect(login.body).not.toHaveProperty("otpEnrollmentRequired");
    expect((await call("POST", "/api/v2/users/me/otp", login.body.token)).status).toBe(409);
    await call("POST", "/api/v2/otp-policy", gateway.token, { mandatory: "none" });
    await call("POST", "/api/v2/appliance/apply-settings", gateway.token);
  });

  it("with OTP mandatory for all, even an administrator's session can only set OTP up", async () => {
    await call("POST", "/api/v2/otp-policy", gateway.token, { mandatory: "all" });
    await call("POST", "/api/v2/appliance/apply-settings", gateway.token);
    const locked = await call("GET", "/api/v2/users", gateway.token);
    expect(locked.status).toBe(403);
    // Put back from the command line's side (the domain function an operator would run).
    const { stageChange, applySettings } = await import("../../subgraphs/gateway/appliance/settings.ts");
    const { OTP_POLICY_SECTION } = await import("../../subgraphs/gateway/users/otp.ts");
    await stageChange({ db: system.db, identity: {} }, OTP_POLICY_SECTION, { mandatory: "none", users: [] });
    await applySettings({ db: system.db, identity: {} });
    expect((await call("GET", "/api/v2/users", gateway.token)).status).toBe(200);
  });

  it("lets an administrator reset a user's OTP", async () => {
    const olga = (await call("GET", "/api/v2/users?username=olga", gateway.token)).body[0];
    expect((await call("DELETE", `/api/v2/users/${olga.id}/otp`, gateway.token)).status).toBe(204);
    expect((await gateway.login("olga", "olga-password")).status).toBe(200);
  });
});

describe("passwordless login tokens", () => {
  it("signs in without a password, records the last use, and stops working when revoked or expired", async () => {
    const dora = (await call("GET", "/api/v2/users?username=dora", gateway.token)).body[0];
    const issued = await call("POST", `/api/v2/users/${dora.id}/login-tokens`, gateway.token, { label: "laptop" });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ label: "laptop", lastUsedAt: null, expiresAt: null });
    const token = issued.body.token;
    const first = await system.request("POST", "/api/v2/passwordless-login", { body: { loginToken: token } });
    expect(first.status).toBe(200);
    expect((await call("GET", "/api/v2/users/me", first.body.token)).body.username).toBe("dora");
    const listed = (await call("GET", `/api/v2/users/${dora.id}/login-tokens`, gateway.token)).body;
    expect(listed).toHaveLength(1);
    expect(listed[0].lastUsedAt).toMatch(/\+00:00$/);
    expect(listed[0]).not.toHaveProperty("token");
    // Dora lists her own tokens; another user may not.
    expect((await call("GET", `/api/v2/users/${dora.id}/login-tokens`, first.body.token)).status).toBe(200);
    const uma = (await call("GET", "/api/v2/users?username=uma", gateway.token)).body[0];
    expect((await call("GET", `/api/v2/users/${uma.id}/login-tokens`, first.body.token)).status).toBe(403);

    expect((await system.request("POST", "/api/v2/passwordless-login", { body: { loginToken: `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}` } })).status).toBe(401);
    expect((await call("DELETE", `/api/v2/users/${dora.id}/login-tokens/${listed[0].id}`, gateway.token)).status).toBe(204);
    expect((await system.request("POST", "/api/v2/passwordless-login", { body: { loginToken: token } })).status).toBe(401);

    const expiring = await call("POST", `/api/v2/users/${dora.id}/login-tokens`, gateway.token, { label: "soon", expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await system.db.prisma.gatewayLoginToken.update({ where: { id: expiring.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await system.request("POST", "/api/v2/passwordless-login", { body: { loginToken: expiring.body.token } })).status).toBe(401);
    expect((await call("POST", `/api/v2/users/${dora.id}/login-tokens`, gateway.token, { label: "past", expiresAt: "2020-01-01T00:00:00Z" })).status).toBe(422);
  });
});

describe("API users and X-Switch-User", () => {
  it("refuses an API user without X-Switch-User (403), and acts as the named user with it", async () => {
    await createUser({ username: "soar", password: "soar-password", role: "api" });
    const token = (await gateway.login("soar", "soar-password")).body.token;
    expect((await call("GET", "/api/v2/users/me", token)).status).toBe(403);
    const asDora = await call("GET", "/api/v2/users/me", token, undefined, { "x-switch-user": "dora" });
    expect(asDora.status).toBe(200);
    expect(asDora.body.username).toBe("dora");
    const asAdmin = await call("GET", "/api/v2/licensing/accounted-email", token, undefined, { "x-switch-user": "admin" });
    expect(asAdmin.status).toBe(200);
    expect((await call("GET", "/api/v2/users/me", token, undefined, { "x-switch-user": "nobody" })).status).toBe(403);
    expect((await call("GET", "/api/v2/users/me", token, undefined, { "x-switch-user": "soar" })).status).toBe(403);
    // A user who is not an API user may not switch.
    expect((await call("GET", "/api/v2/users/me", gateway.token, undefined, { "x-switch-user": "dora" })).status).toBe(403);
    expect((await system.graphql("{ gatewayMe { username } }", {}, { headers: { "x-esg-auth-token": token, "x-switch-user": "dora" } })).data).toEqual({ gatewayMe: { username: "dora" } });
  });

  it("ends a user's sessions when an administrator changes their password; refuses deleting yourself", async () => {
    const dora = (await call("GET", "/api/v2/users?username=dora", gateway.token)).body[0];
    const session = (await gateway.login("dora", "dora-password")).body.token;
    expect((await call("PATCH", `/api/v2/users/${dora.id}`, gateway.token, { password: "new-dora-password", fullName: "Dora D." }, { "content-type": "application/merge-patch+json" })).body.fullName).toBe("Dora D.");
    expect((await call("GET", "/api/v2/users/me", session)).status).toBe(401);
    const me = (await call("GET", "/api/v2/users/me", gateway.token)).body;
    expect((await call("DELETE", `/api/v2/users/${me.id}`, gateway.token)).status).toBe(409);
    expect((await call("DELETE", "/api/v2/users/999999", gateway.token)).status).toBe(404);
  });
});
