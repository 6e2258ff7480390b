// OAuth 2.0 (router/oauth.ts, subgraphs/content/users/oauth.ts): authorization code with PKCE
// S256, refresh rotation, revocation, expiry, scopes, and bearer tokens on REST and GraphQL.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOAuthClient } from "../../subgraphs/content/users/oauth.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

const REDIRECT = "https://app.example/callback";
// Fixed verifiers: the test is deterministic; the server's codes and tokens are random by design.
const VERIFIER = "v".repeat(43) + "erifier-fixed-0123456789";
const challengeOf = (verifier: string) => crypto.createHash("sha256").update(verifier).digest("base64url");

let s: TestSystem;
let client: { clientId: string; clientSecret: string };
let requests = 0;

const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
const send = (...args: Parameters<TestSystem["request"]>) => { requests++; return s.request(...args); };

/** The consent page's hidden fields, as a browser would post them back. */
function consentFields(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2].replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))]));
}

async function authorize(options: { scope?: string; verifier?: string; state?: string } = {}): Promise<string> {
  const query = new URLSearchParams({
    response_type: "code", client_id: client.clientId, redirect_uri: REDIRECT, scope: options.scope ?? "read write",
    state: options.state ?? "xyz", code_challenge: challengeOf(options.verifier ?? VERIFIER), code_challenge_method: "S256",
  });
  const page = await send("GET", `/oauth/authorize?${query}`, { auth: "admin" });
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(page.text).toContain("Authorize Test app");
  const decision = await fetch(`${s.url}/oauth/authorize`, {
    method: "POST", redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}` },
    body: new URLSearchParams({ ...consentFields(page.text), decision: "approve" }).toString(),
  });
  requests++;
  expect(decision.status).toBe(302);
  const location = new URL(decision.headers.get("location")!);
  expect(location.origin + location.pathname).toBe(REDIRECT);
  expect(location.searchParams.get("state")).toBe(options.state ?? "xyz");
  return location.searchParams.get("code")!;
}

const exchange = (code: string, verifier = VERIFIER) =>
  send("POST", "/oauth/token", form({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: client.clientId, client_secret: client.clientSecret }));
const refresh = (refreshToken: string) =>
  send("POST", "/oauth/token", form({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.clientId, client_secret: client.clientSecret }));
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const meRest = (token: string) => send("GET", "/wp-json/core/v2/users/me", bearer(token));
const meGraphql = (token: string) => { requests++; return s.graphql<{ viewer: { id: number } | null }>("{ viewer { id: databaseId } }", {}, bearer(token)); };

beforeAll(async () => {
  s = await startTestSystem();
  client = await createOAuthClient({ prisma: s.db.prisma, config: s.config }, { name: "Test app", redirectUris: [REDIRECT] });
});
afterAll(async () => {
  await s?.stop();
  console.info(`oauth.test.ts: ${requests} requests`);
});

describe("authorization code with PKCE", () => {
  it("issues tokens that sign in on REST, GraphQL and /oauth/me", async () => {
    const tokens = await exchange(await authorize());
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get("cache-control")).toBe("no-store");
    expect(tokens.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read write" });
    expect((await meRest(tokens.body.access_token)).body).toMatchObject({ id: 1 });
    expect((await meGraphql(tokens.body.access_token)).data?.viewer).toEqual({ id: 1 });
    expect((await send("GET", "/oauth/me", bearer(tokens.body.access_token))).body).toEqual({ id: 1, roles: ["administrator"], scope: "read write" });
  });

  it("refuses a wrong verifier, and the code is spent by the attempt", async () => {
    const code = await authorize();
    const wrong = await exchange(code, "w".repeat(50));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    expect((await exchange(code)).body.error).toBe("invalid_grant");
  });

  it("refuses a code replayed, a wrong client secret and a grant type it does not know", async () => {
    const code = await authorize();
    expect((await exchange(code)).status).toBe(200);
    expect((await exchange(code)).body.error).toBe("invalid_grant");
    const badSecret = await send("POST", "/oauth/token", form({ grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: client.clientId, client_secret: "nope" }));
    expect(badSecret.status).toBe(401);
    expect(badSecret.body.error).toBe("invalid_client");
    const password = await send("POST", "/oauth/token", form({ grant_type: "password", client_id: client.clientId, client_secret: client.clientSecret }));
    expect(password.body.error).toBe("unsupported_grant_type");
  });

  it("answers authorization errors: unknown client as JSON, the rest by redirect with state", async () => {
    const unknown = await send("GET", `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: "nope", redirect_uri: REDIRECT })}`, { auth: "admin" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("invalid_client");
    const plain = await fetch(`${s.url}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.clientId, redirect_uri: REDIRECT, state: "s1", code_challenge: VERIFIER, code_challenge_method: "plain" })}`, {
      redirect: "manual", headers: { authorization: `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}` },
    });
    requests++;
    const location = new URL(plain.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("s1");
    const anonymous = await send("GET", `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.clientId, redirect_uri: REDIRECT, code_challenge: challengeOf(VERIFIER), code_challenge_method: "S256" })}`);
    expect(anonymous.status).toBe(401);
  });

  it("a denial or a consent form not the one shown redirects with an error, and issues no code", async () => {
    const query = new URLSearchParams({ response_type: "code", client_id: client.clientId, redirect_uri: REDIRECT, scope: "read", state: "d1", code_challenge: challengeOf(VERIFIER), code_challenge_method: "S256" });
    const page = await send("GET", `/oauth/authorize?${query}`, { auth: "admin" });
    const post = async (fields: Record<string, string>) => {
      requests++;
      const r = await fetch(`${s.url}/oauth/authorize`, {
        method: "POST", redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}` },
        body: new URLSearchParams(fields).toString(),
      });
      return new URL(r.headers.get("location")!).searchParams;
    };
    const denied = await post({ ...consentFields(page.text), decision: "deny" });
    expect([denied.get("error"), denied.get("state"), denied.get("code")]).toEqual(["access_denied", "d1", null]);
    // The scope widened after consent: the form's MAC no longer matches.
    const widened = await post({ ...consentFields(page.text), scope: "read write", decision: "approve" });
    expect([widened.get("error"), widened.get("code")]).toEqual(["invalid_request", null]);
  });
});

describe("refresh, revocation and expiry", () => {
  it("rotates refresh tokens: the old one stops working", async () => {
    const first = (await exchange(await authorize())).body;
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const again = await refresh(first.refresh_token);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await meRest(second.body.access_token)).status).toBe(200);
    // The client may authenticate with HTTP Basic instead (client_secret_basic).
    const basic = await send("POST", "/oauth/token", {
      ...form({ grant_type: "refresh_token", refresh_token: second.body.refresh_token }),
      auth: { username: client.clientId, password: client.clientSecret },
    });
    expect(basic.status).toBe(200);
  });

  it("revokes access and refresh tokens (RFC 7009)", async () => {
    const tokens = (await exchange(await authorize())).body;
    expect((await meRest(tokens.access_token)).status).toBe(200);
    const revoke = (token: string) => send("POST", "/oauth/revoke", form({ token, client_id: client.clientId, client_secret: client.clientSecret }));
    expect((await revoke(tokens.access_token)).status).toBe(200);
    expect((await meRest(tokens.access_token)).status).toBe(401);
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).body.error).toBe("invalid_grant");
    // An unknown token is not an error (RFC 7009 §2.2).
    expect((await revoke("unknown")).status).toBe(200);
  });

  it("refuses an expired access token and an expired refresh token", async () => {
    const tokens = (await exchange(await authorize())).body;
    await s.db.prisma.oAuthToken.updateMany({ data: { expiresAt: new Date(Date.UTC(2000, 0, 1)) } });
    expect((await meRest(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token)).body.error).toBe("invalid_grant");
  });
});

describe("bearer tokens on each surface", () => {
  it("a forged or unknown bearer is 401 in REST's and GraphQL's shapes", async () => {
    const forged = crypto.createHash("sha256").update("forged").digest("base64url");
    const rest = await meRest(forged);
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ code: "invalid_token", data: { status: 401 } });
    const graphql = await meGraphql(forged);
    expect(graphql.status).toBe(401);
    expect(graphql.errors?.[0].extensions?.code).toBe("invalid_token");
  });

  it("the read scope reads as the user but may not write", async () => {
    const tokens = (await exchange(await authorize({ scope: "read" }))).body;
    expect(tokens.scope).toBe("read");
    expect((await meRest(tokens.access_token)).status).toBe(200);
    const write = await send("POST", "/wp-json/core/v2/posts", { ...bearer(tokens.access_token), body: { title: "by token", status: "publish" } });
    expect(write.status).toBe(403);
    const own = await send("POST", "/wp-json/core/v2/users/me/application-passwords", { ...bearer(tokens.access_token), body: { name: "escalation" } });
    expect(own.status).toBe(403);
    const full = (await exchange(await authorize({ scope: "read write" }))).body;
    const allowed = await send("POST", "/wp-json/core/v2/posts", { ...bearer(full.access_token), body: { title: "by token", status: "publish" } });
    expect(allowed.status).toBe(201);
  });
});
