// The email gateway's auth area over /api/v2: login, tokens and their checks, the first
// administrator. (Subgraph side: subgraphs/gateway/auth/.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATEWAY_ADMIN_PASSWORD, type TestSystem } from "../helpers/system.ts";
import { ensureAdministrator } from "../../subgraphs/gateway/auth/users.ts";
import { login as gatewayLogin } from "../../subgraphs/gateway/auth/sessions.ts";
import { openDatabase } from "../../lib/db.ts";
import { applyMigrations } from "../../lib/migrate.ts";
import { LIST, RFC3339_OFFSET, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
let token: string;
const login = (username?: string, password?: string) => gateway.login(username, password);
const get = (path: string, headers?: Record<string, string>) => gateway.get(path, headers);

beforeAll(async () => {
  gateway = await startGatewaySystem();
  ({ system, token } = gateway);
});

afterAll(async () => { await system?.stop(); });

describe("POST /api/v2/login", () => {
  it("returns a token for the administrator's password", async () => {
    const response = await login();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body.token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(response.body.expiresAt).toMatch(RFC3339_OFFSET);
    // The credentials are write-only: never read back.
    expect(Object.keys(response.body).sort()).toEqual(["expiresAt", "token"]);
  });

  it("stores only a keyed hash of the token", async () => {
    const { body } = await login();
    const [id, secret] = body.token.split(".");
    const session = await system.db.prisma.gatewaySession.findUniqueOrThrow({ where: { id } });
    expect(session.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(session.secretHash).not.toContain(secret);
  });

  it("answers a wrong password or an unknown user with 401 in the gateway's error shape", async () => {
    for (const response of [await login("admin", "wrong"), await login("nobody", "wrong")]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        "@context": "/api/v2/contexts/Error", "@type": "hydra:Error",
        "hydra:title": "An error occurred", "hydra:description": "Invalid credentials.",
        title: "An error occurred", detail: "Invalid credentials.", status: 401,
      });
    }
  });

  it("rejects malformed bodies in the same error shape", async () => {
    const badJson = await system.request("POST", "/api/v2/login", { raw: "{not json", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    expect(badJson.body["@type"]).toBe("hydra:Error");
    expect(badJson.body.status).toBe(400);

    const missing = await system.request("POST", "/api/v2/login", { body: { username: "admin" } });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('The key "password" must be provided.');

    const form = await system.request("POST", "/api/v2/login", { raw: "username=admin", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    expect(form.body["hydra:description"]).toContain("application/x-www-form-urlencoded");
  });

  it("still signs in when a stale token is sent along", async () => {
    const response = await system.request("POST", "/api/v2/login", {
      body: { username: "admin", password: GATEWAY_ADMIN_PASSWORD }, headers: { "x-esg-auth-token": "stale.token" },
    });
    expect(response.status).toBe(200);
  });
});


describe("authentication of /api/v2/licensing/accounted-email", () => {
  it("requires a token", async () => {
    const response = await system.request("GET", LIST);
    expect(response.status).toBe(401);
    expect(response.body["@type"]).toBe("hydra:Error");
    expect(response.body.status).toBe(401);
  });

  it("rejects an unknown token", async () => {
    for (const bad of ["garbage", `${"a".repeat(22)}.${"b".repeat(43)}`, `${token.split(".")[0]}.${"b".repeat(43)}`]) {
      const response = await get(LIST, { "x-esg-auth-token": bad });
      expect(response.status).toBe(401);
      expect(response.body.detail).toBe("The auth token is not valid.");
    }
  });

  it("says 'token' and 'expired' for an expired token, the wording clients re-login on", async () => {
    const { body } = await login();
    await system.db.prisma.gatewaySession.update({ where: { id: body.token.split(".")[0] }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await get(LIST, { "x-esg-auth-token": body.token });
    expect(response.status).toBe(401);
    expect(response.body.detail).toMatch(/token.*expired/);
    expect(response.body["hydra:description"]).toBe("The auth token has expired.");
  });

  it("records the token's last use", async () => {
    const { body } = await login();
    const id = body.token.split(".")[0];
    expect((await system.db.prisma.gatewaySession.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();
    expect((await get(LIST, { "x-esg-auth-token": body.token })).status).toBe(200);
    expect((await system.db.prisma.gatewaySession.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeInstanceOf(Date);
  });
});


describe("GraphQL", () => {
  it("does not expose authenticateGatewayToken in the supergraph", async () => {
    const response = await system.graphql("query($t: String!) { authenticateGatewayToken(token: $t) { userId } }", { t: token });
    expect(response.data).toBeUndefined();
    expect(response.errors?.[0].message).toMatch(/Cannot query field "authenticateGatewayToken"/);
  });
});

describe("first start", () => {
  it("creates admin with a generated password printed once, unless one is configured", async () => {
    const db = await openDatabase("memory:");
    try {
      await applyMigrations(db);
      const printed: string[] = [];
      const config = { ...system.config, gatewayAdminPassword: undefined, logLevel: "info" as const };
      await ensureAdministrator({ db, config }, (line) => printed.push(line));
      await ensureAdministrator({ db, config }, (line) => printed.push(line));
      expect(printed).toHaveLength(1);
      const password = /password "([^"]+)"/.exec(printed[0])?.[1];
      expect(password).toMatch(/^[\w-]{24}$/);
      await expect(gatewayLogin({ db, config }, "admin", password!)).resolves.toHaveProperty("token");
      expect(await db.prisma.gatewayUser.findMany({ select: { username: true, roles: true } })).toEqual([{ username: "admin", roles: ["admin"] }]);
    } finally {
      await db.close();
    }
  });

  it("keeps the token check for the router alone", async () => {
    const gateway = system.subgraphs.find((s) => s.name === "gateway")!;
    const response = await fetch(gateway.url, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "query($t: String!) { authenticateGatewayToken(token: $t) { userId } }", variables: { t: token } }),
    });
    const body = await response.json() as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0].extensions?.code).toBe("gateway_router_only");
  });
});

