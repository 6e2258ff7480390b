// The outside services of seo/v1 against local fake servers: the AI generator's token flow
// (verification code, code_challenge, signed JWTs, expiry) with valid and forged callbacks,
// suggestions and usage; the keyword provider and the rank tracker; and the clear "not
// configured" answers of a site without them.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { sha256Hex } from "../../subgraphs/extensions/seo/services.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword, type SignedInUser } from "../helpers/users.ts";

let system: TestSystem;
let bare: TestSystem;
let fake: http.Server;
let editor: SignedInUser;
let serviceKey: CryptoKey;
let forgerKey: CryptoKey;
let jwks: unknown;
/** "callback": the AI service calls the site back at once (as Yoast's does); "silent": it only records. */
let mode: "callback" | "silent" = "callback";
const seen: { path: string; body: any; authorization?: string }[] = [];
let issuedAccess = "";

const sign = (key: CryptoKey, sub: string, expiresIn = "1h") =>
  new SignJWT({ sub }).setProtectedHeader({ alg: "ES256", kid: "ai" }).setIssuedAt().setExpirationTime(expiresIn).sign(key);

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const body = text ? JSON.parse(text) : null;
  const url = new URL(req.url ?? "/", "http://fake");
  seen.push({ path: `${req.method} ${url.pathname}${url.search}`, body, authorization: req.headers.authorization });
  const p = url.pathname;
  if (p === "/ai/.well-known/jwks.json") return json(res, 200, jwks);
  if (p === "/ai/token/request" || p === "/ai/token/refresh") {
    if (mode === "callback") {
      issuedAccess = await sign(serviceKey, "access");
      const route = p.endsWith("request") ? "callback" : "refresh_callback";
      const r = await system.request("POST", `/wp-json/seo/v1/ai_generator/${route}`, {
        body: { access_jwt: issuedAccess, refresh_jwt: await sign(serviceKey, "refresh", "30d"), code_challenge: body.code_challenge, user_id: Number(body.user_id) },
      });
      if (r.status !== 200) return json(res, 500, { error: "callback refused" });
    }
    return json(res, 200, { ok: true });
  }
  if (p.startsWith("/ai/openai/suggestions/")) {
    if (req.headers.authorization !== `Bearer ${issuedAccess}`) return json(res, 401, { error_code: "INVALID_TOKEN" });
    return json(res, 200, { choices: [{ text: ` ${body.subject.focus_keyphrase} made simple ` }, { text: "A second title" }] });
  }
  if (p.startsWith("/ai/usage/")) return json(res, 200, { sparks: 12, limit: 30 });
  if (p === "/kp/oauth2/access_token" || p === "/rt/oauth2/access_token") {
    return body.code === "good-code" ? json(res, 200, { access_token: `${p.slice(1, 3)}-token`, refresh_token: "r", expires_in: 3600 }) : json(res, 400, { error: "invalid_grant" });
  }
  if (p === "/kp/api/v1/keywords/phrase_fullsearch") {
    if (req.headers.authorization !== "Bearer kp-token") return json(res, 401, {});
    return json(res, 200, { data: { columnNames: ["Keyword", "Search Volume", "Trends", "Intent", "Keyword Difficulty Index"], rows: [[`${url.searchParams.get("phrase")} guide`, "1000", "0.5", "1", "40"]] } });
  }
  if (req.headers.authorization !== "Bearer rt-token" && p.startsWith("/rt/v1")) return json(res, 401, { error: "unauthorized" });
  if (p === "/rt/v1/account") return json(res, 200, { limits: { keywords: { usage: 1, limit: 3 }, history_days: 31 } });
  if (p === "/rt/v1/account/upgrade-campaign") return json(res, 200, { type: "RATE", months: 3, value: 0.3 });
  if (p === "/rt/v1/websites/42/keywords/bulk") return json(res, 201, { data: body.map((k: { keyword: string }, i: number) => ({ id: 100 + i, keyword: k.keyword, ranking: null })) });
  if (p === "/rt/v1/yoast/42/keywords") return json(res, 200, { data: [{ keyword: "garden tools", position: { value: 4 } }] });
  if (req.method === "DELETE" && p === "/rt/v1/websites/42/keywords/100") { res.writeHead(204); return res.end(); }
  json(res, 404, { error: "not found" });
}

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  forgerKey = pair.privateKey;
  const servicePair = await generateKeyPair("ES256");
  serviceKey = servicePair.privateKey;
  jwks = { keys: [{ ...(await exportJWK(servicePair.publicKey)), kid: "ai", alg: "ES256", use: "sig" }] };
  fake = http.createServer((req, res) => { handle(req, res).catch((e) => json(res, 500, { error: String(e) })); });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  system = await startTestSystem({ SEO_AI_GENERATOR_URL: `${base}/ai`, SEO_KEYWORD_PROVIDER_URL: `${base}/kp`, SEO_RANK_TRACKER_URL: `${base}/rt` });
  bare = await startTestSystem();
  editor = await createUserWithPassword(system, "ai-editor", ["editor"]);
}, 180_000);
afterAll(async () => {
  await system?.stop();
  await bare?.stop();
  await new Promise((resolve) => fake?.close(resolve));
});

const suggest = (s: TestSystem, auth: any) => s.request("POST", "/wp-json/seo/v1/ai_generator/get_suggestions", {
  auth, body: { type: "seo-title", prompt_content: "<p>About garden tools.</p>", focus_keyphrase: "garden tools", language: "en", platform: "Google", editor: "gutenberg" },
});

describe("AI generator", () => {
  it("needs consent, then fetches tokens through the verified callback and answers suggestions", async () => {
    const before = await suggest(system, editor.auth);
    expect([before.status, before.body]).toEqual([403, { message: "CONSENT_REVOKED", errorIdentifier: "CONSENT_REVOKED" }]);
    expect((await system.request("POST", "/wp-json/seo/v1/ai_generator/consent", { auth: editor.auth, body: { consent: true } })).body).toBe("Consent successfully given.");
    const r = await suggest(system, editor.auth);
    expect([r.status, r.body]).toEqual([200, ["garden tools made simple", "A second title"]]);
    const request = seen.find((s) => s.path === "POST /ai/token/request")!;
    expect(request.body).toMatchObject({ service: "openai", user_id: String(editor.id), callback_url: "http://example.test/wp-json/seo/v1/ai_generator/callback", refresh_callback_url: "http://example.test/wp-json/seo/v1/ai_generator/refresh_callback" });
    expect(request.body.code_challenge).toMatch(/^[0-9a-f]{64}$/);
    // The stored token is reused: no second token request.
    await suggest(system, editor.auth);
    expect(seen.filter((s) => s.path === "POST /ai/token/request")).toHaveLength(1);
    const usage = await system.request("POST", "/wp-json/seo/v1/ai_generator/get_usage", { auth: editor.auth, body: {} });
    expect([usage.status, usage.body]).toEqual([200, { sparks: 12, limit: 30 }]);
    expect(seen.at(-1)!.path).toMatch(/^GET \/ai\/usage\/\d{4}-\d\d\/$/);
  });

  it("an expired access token is refreshed with the refresh token", async () => {
    const expired = await sign(serviceKey, "access", "-1m");
    await system.db.prisma.seoUserMeta.update({ where: { userId_key: { userId: editor.id, key: "_yoast_wpseo_ai_generator_access_jwt" } }, data: { value: expired } });
    const r = await suggest(system, editor.auth);
    expect(r.status).toBe(200);
    const refresh = seen.filter((s) => s.path === "POST /ai/token/refresh");
    expect(refresh).toHaveLength(1);
    expect(refresh[0].authorization).toMatch(/^Bearer ey/);
  });

  describe("the callback refuses forged input with 401 \"Unauthorized.\"", () => {
    let challenge = "";
    const callback = async (over: Record<string, unknown>) => system.request("POST", "/wp-json/seo/v1/ai_generator/callback", {
      body: { access_jwt: await sign(serviceKey, "access"), refresh_jwt: await sign(serviceKey, "refresh"), code_challenge: challenge, user_id: editor.id, ...over },
    });
    const newChallenge = async () => {
      mode = "silent";
      await system.request("POST", "/wp-json/seo/v1/ai_generator/consent", { auth: editor.auth, body: { consent: false } });
      await system.request("POST", "/wp-json/seo/v1/ai_generator/consent", { auth: editor.auth, body: { consent: true } });
      const r = await suggest(system, editor.auth);
      expect(r.status).toBe(401);
      challenge = seen.filter((s) => s.path === "POST /ai/token/request").at(-1)!.body.code_challenge;
      mode = "callback";
    };

    it("a wrong code_challenge, a token signed by another key, a malformed or expired token, another user", async () => {
      await newChallenge();
      const unauthorized = [401, "Unauthorized."];
      expect(await callback({ code_challenge: sha256Hex("guess") }).then((r) => [r.status, r.body])).toEqual(unauthorized);
      expect(await callback({ code_challenge: challenge.toUpperCase() }).then((r) => [r.status, r.body])).toEqual(unauthorized);
      expect(await callback({ access_jwt: await sign(forgerKey, "access") }).then((r) => [r.status, r.body])).toEqual(unauthorized);
      expect(await callback({ refresh_jwt: "not.a.jwt" }).then((r) => [r.status, r.body])).toEqual(unauthorized);
      expect(await callback({ access_jwt: await sign(serviceKey, "access", "-5m") }).then((r) => [r.status, r.body])).toEqual(unauthorized);
      expect(await callback({ user_id: 1 }).then((r) => [r.status, r.body])).toEqual(unauthorized);
      // The genuine callback still works, answers the verification code, and cannot be replayed.
      const ok = await callback({});
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe("Tokens successfully stored.");
      expect(sha256Hex(ok.body.code_verifier)).toBe(challenge);
      expect(await callback({}).then((r) => [r.status, r.body])).toEqual(unauthorized);
    });

    it("a verification code older than 300 seconds is refused and forgotten", async () => {
      await newChallenge();
      const key = { userId_key: { userId: editor.id, key: "yoast_wpseo_ai_generator_code_verifier_for_blog_1" } };
      const stored = await system.db.prisma.seoUserMeta.findUnique({ where: key });
      const value = stored!.value as { code: string; created_at: number };
      await system.db.prisma.seoUserMeta.update({ where: key, data: { value: { ...value, created_at: value.created_at - 301 } } });
      expect((await callback({})).status).toBe(401);
      expect(await system.db.prisma.seoUserMeta.findUnique({ where: key })).toBeNull();
    });

    it("missing fields are refused before any check", async () => {
      const r = await system.request("POST", "/wp-json/seo/v1/ai_generator/refresh_callback", { body: { access_jwt: "a" } });
      expect([r.status, r.body.code]).toEqual([400, "rest_missing_callback_param"]);
    });
  });

  it("suggestion arguments are checked, and anonymous callers refused", async () => {
    const bad = await system.request("POST", "/wp-json/seo/v1/ai_generator/get_suggestions", { auth: editor.auth, body: { type: "novel", prompt_content: "x", focus_keyphrase: "x", language: "en", platform: "Google", editor: "classic" } });
    expect([bad.status, bad.body.code]).toEqual([400, "rest_invalid_param"]);
    expect((await suggest(system, undefined)).status).toBe(401);
  });

  it("free sparks, subscription cache and revoking consent", async () => {
    expect((await system.request("POST", "/wp-json/seo/v1/ai/free_sparks", { auth: editor.auth })).body).toBe("Free sparks successfully started.");
    expect((await system.request("POST", "/wp-json/seo/v1/ai_generator/bust_subscription_cache", { auth: editor.auth })).body).toBe("Subscription cache successfully busted.");
    expect((await system.request("POST", "/wp-json/seo/v1/ai_generator/consent", { auth: editor.auth, body: { consent: false } })).body).toBe("Consent successfully revoked.");
    expect((await suggest(system, editor.auth)).status).toBe(403);
  });
});

describe("keyword provider", () => {
  it("authenticates with a code, then answers related keyphrases (cached a day)", async () => {
    const refused = await system.request("POST", "/wp-json/seo/v1/keyword-provider-a/authenticate", { auth: editor.auth, body: { code: "bad-code" } });
    expect([refused.status, refused.body]).toEqual([400, { error: "Authentication failed", status: 400 }]);
    const before = await system.request("GET", "/wp-json/seo/v1/keyword-provider-a/related_keyphrases?keyphrase=garden&country_code=us", { auth: editor.auth });
    expect(before.status).toBe(400);
    const ok = await system.request("POST", "/wp-json/seo/v1/keyword-provider-a/authenticate", { auth: editor.auth, body: { code: "good-code" } });
    expect(ok.status).toBe(200);
    expect(ok.body.tokens.access_token).toBe("kp-token");
    const r = await system.request("GET", "/wp-json/seo/v1/keyword-provider-a/related_keyphrases?keyphrase=garden&country_code=us", { auth: editor.auth });
    expect([r.status, r.body.results.rows[0][0]]).toEqual([200, "garden guide"]);
    const calls = seen.filter((s) => s.path.startsWith("GET /kp/api")).length;
    await system.request("GET", "/wp-json/seo/v1/keyword-provider-a/related_keyphrases?keyphrase=garden&country_code=us", { auth: editor.auth });
    expect(seen.filter((s) => s.path.startsWith("GET /kp/api")).length).toBe(calls);
    expect((await system.request("GET", "/wp-json/seo/v1/keyword-provider-a/related_keyphrases?keyphrase=garden&country_code=USA", { auth: editor.auth })).status).toBe(400);
    expect((await system.request("POST", "/wp-json/seo/v1/keyword-provider-a/country_code", { auth: editor.auth, body: { country_code: "de" } })).body).toEqual({ success: true, status: 200 });
  });
});

describe("rank tracker", () => {
  it("is for those who may publish posts", async () => {
    const contributor = await createUserWithPassword(system, "rt-contributor", ["contributor"]);
    const r = await system.request("GET", "/wp-json/seo/v1/rank-tracker/account/limit", { auth: contributor.auth });
    expect([r.status, r.body.code]).toEqual([403, "rest_forbidden"]);
    expect((await system.request("POST", "/wp-json/seo/v1/rank-tracker/keyphrases/track", { auth: contributor.auth, body: { keyphrases: ["a"] } })).status).toBe(403);
  });

  it("authorization URL, authentication, limits, tracking and untracking", async () => {
    const url = await system.request("GET", "/wp-json/seo/v1/rank-tracker/authorization-url", { auth: editor.auth });
    expect(url.body.status).toBe(200);
    expect(url.body.url).toMatch(/\/rt\/oauth2\/authorize\?response_type=code&/);
    expect((await system.request("GET", "/wp-json/seo/v1/rank-tracker/account/limit", { auth: editor.auth })).status).toBe(400);
    expect((await system.request("POST", "/wp-json/seo/v1/rank-tracker/authenticate", { auth: editor.auth, body: { code: "good-code", websiteId: "42" } })).status).toBe(200);
    expect((await system.request("GET", "/wp-json/seo/v1/rank-tracker/account/limit", { auth: editor.auth })).body).toEqual({ canTrack: true, limit: 3, usage: 1, historyDays: 31, status: 200 });
    expect((await system.request("GET", "/wp-json/seo/v1/rank-tracker/account/upgrade-campaign", { auth: editor.auth })).body).toEqual({ discount: 0.3, months: 3, status: 200 });
    const tooMany = await system.request("POST", "/wp-json/seo/v1/rank-tracker/keyphrases/track", { auth: editor.auth, body: { keyphrases: ["a", "b", "c"] } });
    expect([tooMany.status, tooMany.body]).toEqual([400, { limit: 3, error: "Account limit exceeded", status: 400 }]);
    const tracked = await system.request("POST", "/wp-json/seo/v1/rank-tracker/keyphrases/track", { auth: editor.auth, body: { keyphrases: ["garden tools"] } });
    expect(tracked.body).toEqual({ results: { "garden tools": { id: 100, keyword: "garden tools" } }, status: 200 });
    expect(await system.db.prisma.seoTrackedKeyphrase.findMany({ select: { keyphrase: true, externalId: true } })).toEqual([{ keyphrase: "garden tools", externalId: "100" }]);
    const rankings = await system.request("POST", "/wp-json/seo/v1/rank-tracker/keyphrases", { auth: editor.auth, body: { keyphrases: ["garden tools"] } });
    expect(rankings.body.results["garden tools"].position.value).toBe(4);
    expect((await system.request("DELETE", "/wp-json/seo/v1/rank-tracker/keyphrases/untrack?keyphraseID=100", { auth: editor.auth })).body).toEqual({ status: 200 });
    expect(await system.db.prisma.seoTrackedKeyphrase.count()).toBe(0);
  });
});

describe("a site without the services configured", () => {
  it("answers clear not-configured errors and calls nothing", async () => {
    const ed = await createUserWithPassword(bare, "bare-editor", ["editor"]);
    const count = seen.length;
    await bare.request("POST", "/wp-json/seo/v1/ai_generator/consent", { auth: ed.auth, body: { consent: true } });
    const ai = await suggest(bare, ed.auth);
    expect([ai.status, ai.body]).toEqual([409, { message: "The AI generator service is not configured on this site.", errorIdentifier: "NOT_CONFIGURED" }]);
    const kp = await bare.request("GET", "/wp-json/seo/v1/keyword-provider-a/related_keyphrases?keyphrase=a&country_code=us", { auth: ed.auth });
    expect([kp.status, kp.body]).toEqual([409, { error: "The keyword provider service is not configured on this site.", status: 409 }]);
    const rt = await bare.request("GET", "/wp-json/seo/v1/rank-tracker/account/limit", { auth: ed.auth });
    expect([rt.status, rt.body.error]).toEqual([409, "The rank tracker service is not configured on this site."]);
    const cb = await bare.request("POST", "/wp-json/seo/v1/ai_generator/callback", { body: { access_jwt: "a", refresh_jwt: "b", code_challenge: "c", user_id: ed.id } });
    expect([cb.status, cb.body]).toEqual([401, "Unauthorized."]);
    expect(seen.length).toBe(count);
  });
});
