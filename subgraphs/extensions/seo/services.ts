// The outside services SEO talks to: the AI generator, the keyword provider (related
// keyphrases) and the rank tracker. Each goes through one injectable HTTP client; the services'
// addresses come from configuration (SEO_AI_GENERATOR_URL, SEO_KEYWORD_PROVIDER_URL,
// SEO_RANK_TRACKER_URL), and a service that is not configured answers a clear error instead of
// a call. Answers keep Yoast's shapes: `{…, status}` bodies whose status is the HTTP status.
import crypto from "node:crypto";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { deleteUserMeta, getOption, getUserMeta, requireCapability, setOption, setUserMeta } from "./store.ts";
import type { ExtensionsContext } from "../context.ts";

export interface SeoHttpResponse { status: number; body: unknown }
export interface SeoHttpClient {
  request(url: string, options: { method: "GET" | "POST" | "DELETE"; headers?: Record<string, string>; body?: unknown }): Promise<SeoHttpResponse>;
}

/** The default client: fetch with a 10 s limit, JSON in and out. */
export const fetchClient: SeoHttpClient = {
  async request(url, { method, headers = {}, body }) {
    const response = await fetch(url, {
      method, signal: AbortSignal.timeout(10_000),
      headers: { accept: "application/json", ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
    return { status: response.status, body: parsed };
  },
};

const clients = new WeakMap<object, SeoHttpClient>();
/** Replaces the HTTP client for one configuration (tests hand in a recording or failing client). */
export const useSeoHttpClient = (config: object, client: SeoHttpClient) => clients.set(config, client);
const http = (ctx: ExtensionsContext) => clients.get(ctx.config) ?? fetchClient;

/** A REST answer: its HTTP status and body, as Yoast's route answers it. */
export interface ServiceAnswer { status: number; body: unknown }

type ServiceName = "aiGeneratorUrl" | "keywordProviderUrl" | "rankTrackerUrl";
const SERVICE_LABEL: Record<ServiceName, string> = { aiGeneratorUrl: "AI generator", keywordProviderUrl: "keyword provider", rankTrackerUrl: "rank tracker" };
const serviceUrl = (ctx: ExtensionsContext, name: ServiceName) => ctx.config.seoServices?.[name]?.replace(/\/+$/, "");
/**
 * The status of a request for a service this site has no address for: 409 (the site's
 * configuration conflicts with the request), a client-side answer, since retrying cannot help
 * until an operator sets the address; nothing is sent anywhere.
 */
export const NOT_CONFIGURED = 409;
export const notConfigured = (name: ServiceName) => `The ${SERVICE_LABEL[name]} service is not configured on this site.`;

async function call(ctx: ExtensionsContext, name: ServiceName, path: string, options: Parameters<SeoHttpClient["request"]>[1]): Promise<SeoHttpResponse> {
  const base = serviceUrl(ctx, name);
  if (!base) throw Object.assign(new Error(notConfigured(name)), { status: NOT_CONFIGURED });
  try {
    return await http(ctx).request(`${base}${path}`, options);
  } catch (error) {
    throw Object.assign(new Error(`The ${SERVICE_LABEL[name]} service could not be reached: ${error instanceof Error ? error.message : String(error)}`), { status: 502 });
  }
}
const statusOf = (e: unknown) => ((e as { status?: number }).status ?? 500);
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

// ---------------------------------------------------------------------------------------------
// AI generator

export const VERIFIER_TTL_SECONDS = 300;
const VERIFIER_KEY = "yoast_wpseo_ai_generator_code_verifier_for_blog_1";
const ACCESS_KEY = "_yoast_wpseo_ai_generator_access_jwt";
const REFRESH_KEY = "_yoast_wpseo_ai_generator_refresh_jwt";
const CONSENT_KEY = "_yoast_wpseo_ai_consent";

export const sha256Hex = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

/** A JWT that is well formed and not expired (the payload's `exp`); Yoast reads nothing else from it. */
export function tokenUsable(jwt: string | null, now = Date.now()): boolean {
  if (!jwt) return false;
  try {
    const { exp } = decodeJwt(jwt);
    return typeof exp === "number" && exp * 1000 > now;
  } catch {
    return false;
  }
}

const jwks = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/**
 * The callback's check: a stored, unexpired verification code for the user whose SHA-256 is the
 * code_challenge, and two well-formed, unexpired JWTs signed by the configured AI service (its
 * keys at /.well-known/jwks.json). Any failure answers 401 "Unauthorized." as Yoast does.
 */
export async function storeCallbackTokens(
  ctx: ExtensionsContext, input: { accessJwt: string; refreshJwt: string; codeChallenge: string; userId: number }, now = Date.now(),
): Promise<ServiceAnswer> {
  const unauthorized = { status: 401, body: "Unauthorized." };
  const stored = await getUserMeta<{ code: string; created_at: number } | null>(ctx, input.userId, VERIFIER_KEY, null);
  if (!stored) return unauthorized;
  if (now / 1000 - stored.created_at > VERIFIER_TTL_SECONDS) {
    await deleteUserMeta(ctx, input.userId, VERIFIER_KEY);
    return unauthorized;
  }
  const expected = Buffer.from(sha256Hex(stored.code));
  const given = Buffer.from(input.codeChallenge);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return unauthorized;
  const base = serviceUrl(ctx, "aiGeneratorUrl");
  if (!base) return unauthorized;
  let keys = jwks.get(base);
  if (!keys) { keys = createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`)); jwks.set(base, keys); }
  try {
    for (const jwt of [input.accessJwt, input.refreshJwt]) {
      await jwtVerify(jwt, keys, { currentDate: new Date(now) });
    }
  } catch {
    return unauthorized;
  }
  await setUserMeta(ctx, input.userId, ACCESS_KEY, input.accessJwt);
  await setUserMeta(ctx, input.userId, REFRESH_KEY, input.refreshJwt);
  await deleteUserMeta(ctx, input.userId, VERIFIER_KEY);
  return { status: 200, body: { message: "Tokens successfully stored.", code_verifier: stored.code } };
}

/** A new verification code for the user (sha256 of their id, time and randomness), stored with its time. */
async function newVerifier(ctx: ExtensionsContext, userId: number, now: number): Promise<string> {
  const code = sha256Hex(`${userId}:${now}:${crypto.randomBytes(16).toString("hex")}`);
  await setUserMeta(ctx, userId, VERIFIER_KEY, { code, created_at: Math.floor(now / 1000) });
  return code;
}

/** An access token for the user: the stored one, else refreshed, else requested; the AI service calls back with them. */
async function accessToken(ctx: ExtensionsContext, userId: number): Promise<string> {
  const now = Date.now();
  const access = await getUserMeta<string | null>(ctx, userId, ACCESS_KEY, null);
  if (tokenUsable(access, now)) return access!;
  const restBase = `${ctx.config.siteUrl}/${ctx.config.restRoot}/seo/v1/ai_generator`;
  const refresh = await getUserMeta<string | null>(ctx, userId, REFRESH_KEY, null);
  const code = await newVerifier(ctx, userId, now);
  const response = tokenUsable(refresh, now)
    ? await call(ctx, "aiGeneratorUrl", "/token/refresh", { method: "POST", headers: { authorization: `Bearer ${refresh}` }, body: { code_challenge: sha256Hex(code), user_id: String(userId) } })
    : await call(ctx, "aiGeneratorUrl", "/token/request", {
      method: "POST",
      body: { service: "openai", code_challenge: sha256Hex(code), license_site_url: ctx.config.siteUrl, user_id: String(userId), callback_url: `${restBase}/callback`, refresh_callback_url: `${restBase}/refresh_callback` },
    });
  if (response.status >= 400) throw Object.assign(new Error("The AI generator refused to issue tokens."), { status: response.status });
  const issued = await getUserMeta<string | null>(ctx, userId, ACCESS_KEY, null);
  if (!tokenUsable(issued)) throw Object.assign(new Error("The AI generator did not deliver usable tokens."), { status: 401 });
  return issued!;
}

async function withConsent(ctx: ExtensionsContext, userId: number): Promise<ServiceAnswer | null> {
  if (!(await getUserMeta<boolean>(ctx, userId, CONSENT_KEY, false))) return { status: 403, body: { message: "CONSENT_REVOKED", errorIdentifier: "CONSENT_REVOKED" } };
  return null;
}

export async function getSuggestions(ctx: ExtensionsContext, input: { type: string; promptContent: string; focusKeyphrase: string; language: string; platform: string; editor: string }): Promise<ServiceAnswer> {
  const userId = requireCapability(ctx, "edit_posts");
  const refused = await withConsent(ctx, userId);
  if (refused) return refused;
  try {
    const token = await accessToken(ctx, userId);
    const response = await call(ctx, "aiGeneratorUrl", `/openai/suggestions/${input.type}`, {
      method: "POST", headers: { authorization: `Bearer ${token}` },
      body: { service: "openai", user_id: String(userId), subject: { content: input.promptContent, focus_keyphrase: input.focusKeyphrase, language: input.language, platform: input.platform }, editor: input.editor },
    });
    if (response.status === 403) {
      await setAiConsentRevoked(ctx, userId);
      return { status: 403, body: { message: "CONSENT_REVOKED", errorIdentifier: "CONSENT_REVOKED" } };
    }
    if (response.status >= 400) return { status: response.status, body: { message: "The AI generator refused the request.", errorIdentifier: errorIdentifier(response.body) } };
    const choices = (response.body as { choices?: { text?: string }[] } | null)?.choices ?? [];
    return { status: 200, body: choices.map((c) => String(c.text ?? "").trim()).filter(Boolean) };
  } catch (e) {
    return { status: statusOf(e), body: { message: messageOf(e), errorIdentifier: statusOf(e) === NOT_CONFIGURED ? "NOT_CONFIGURED" : "REQUEST_FAILED" } };
  }
}

const errorIdentifier = (body: unknown): string => String((body as { error_code?: string } | null)?.error_code ?? "REQUEST_FAILED");

async function setAiConsentRevoked(ctx: ExtensionsContext, userId: number) {
  for (const key of [CONSENT_KEY, ACCESS_KEY, REFRESH_KEY]) await deleteUserMeta(ctx, userId, key);
}

export async function getUsage(ctx: ExtensionsContext, isWooProductEntity: boolean, now = new Date()): Promise<ServiceAnswer> {
  const userId = requireCapability(ctx, "edit_posts");
  try {
    const token = await accessToken(ctx, userId);
    const month = now.toISOString().slice(0, 7);
    const response = await call(ctx, "aiGeneratorUrl", `/usage/${month}/${isWooProductEntity ? "?is_woo_product_entity=1" : ""}`, { method: "GET", headers: { authorization: `Bearer ${token}` } });
    if (response.status >= 400) return { status: response.status, body: { errorMessage: "The AI generator refused the request.", errorIdentifier: errorIdentifier(response.body), errorCode: response.status } };
    return { status: 200, body: response.body };
  } catch (e) {
    return { status: statusOf(e), body: { errorMessage: messageOf(e), errorIdentifier: statusOf(e) === NOT_CONFIGURED ? "NOT_CONFIGURED" : "REQUEST_FAILED", errorCode: statusOf(e) } };
  }
}

export async function startFreeSparks(ctx: ExtensionsContext, now = Date.now()): Promise<ServiceAnswer> {
  requireCapability(ctx, "edit_posts");
  await setOption(ctx, "wpseo.ai_free_sparks_started_on", Math.floor(now / 1000));
  return { status: 200, body: "Free sparks successfully started." };
}

export async function bustSubscriptionCache(ctx: ExtensionsContext): Promise<ServiceAnswer> {
  requireCapability(ctx, "edit_posts");
  await ctx.prisma.seoOption.deleteMany({ where: { name: { startsWith: "transient:wpseo_site_information" } } });
  return { status: 200, body: "Subscription cache successfully busted." };
}

export async function setConsent(ctx: ExtensionsContext, consent: boolean): Promise<ServiceAnswer> {
  const userId = requireCapability(ctx, "edit_posts");
  if (consent) await setUserMeta(ctx, userId, CONSENT_KEY, true);
  else await setAiConsentRevoked(ctx, userId);
  return { status: 200, body: consent ? "Consent successfully given." : "Consent successfully revoked." };
}

// ---------------------------------------------------------------------------------------------
// Keyword provider (related keyphrases; SEMrush-compatible routes)

interface Tokens { access_token: string; refresh_token: string; expires: number; has_expired: boolean; created_at: number }

async function requestTokens(ctx: ExtensionsContext, name: ServiceName, body: Record<string, unknown>): Promise<Tokens> {
  const response = await call(ctx, name, "/oauth2/access_token", { method: "POST", body });
  const t = response.body as { access_token?: string; refresh_token?: string; expires_in?: number } | null;
  if (response.status >= 400 || !t?.access_token) throw Object.assign(new Error("Authentication failed"), { status: response.status >= 400 ? response.status : 400 });
  const now = Math.floor(Date.now() / 1000);
  return { access_token: t.access_token, refresh_token: t.refresh_token ?? "", expires: now + (t.expires_in ?? 3600), has_expired: false, created_at: now };
}

export async function keywordProviderAuthenticate(ctx: ExtensionsContext, code: string): Promise<ServiceAnswer> {
  requireCapability(ctx, "edit_posts");
  try {
    const tokens = await requestTokens(ctx, "keywordProviderUrl", { grant_type: "authorization_code", code });
    await setOption(ctx, "wpseo.keyword_provider_a_tokens", { ...tokens });
    return { status: 200, body: { tokens, status: 200 } };
  } catch (e) {
    return { status: statusOf(e), body: { error: messageOf(e), status: statusOf(e) } };
  }
}

export async function keywordProviderCountry(ctx: ExtensionsContext, countryCode: string): Promise<ServiceAnswer> {
  requireCapability(ctx, "edit_posts");
  await setOption(ctx, "wpseo.keyword_provider_a_country_code", countryCode);
  return { status: 200, body: { success: true, status: 200 } };
}

export async function relatedKeyphrases(ctx: ExtensionsContext, keyphrase: string, countryCode: string): Promise<ServiceAnswer> {
  requireCapability(ctx, "edit_posts");
  const cacheKey = `transient:wpseo_related_keyphrases_${keyphrase.toLowerCase()}_${countryCode}`;
  const cached = await getOption<{ expires: number; data: unknown } | null>(ctx, cacheKey, null);
  if (cached && cached.expires > Date.now()) return { status: 200, body: { results: cached.data, status: 200 } };
  try {
    const tokens = await getOption<Tokens | null>(ctx, "wpseo.keyword_provider_a_tokens", null);
    if (!serviceUrl(ctx, "keywordProviderUrl")) throw Object.assign(new Error(notConfigured("keywordProviderUrl")), { status: NOT_CONFIGURED });
    if (!tokens) throw Object.assign(new Error("Token is empty. Authenticate with the keyword provider first."), { status: 400 });
    const query = new URLSearchParams({ phrase: keyphrase, database: countryCode, export_columns: "Ph,Nq,Td,In,Kd", display_limit: "10", display_offset: "0", display_sort: "nq_desc", display_filter: "%2B|Nq|Lt|1000" });
    const response = await call(ctx, "keywordProviderUrl", `/api/v1/keywords/phrase_fullsearch?${query}`, { method: "GET", headers: { authorization: `Bearer ${tokens.access_token}` } });
    if (response.status >= 400) return { status: response.status, body: { error: "The keyword provider refused the request.", status: response.status } };
    const data = (response.body as { data?: unknown } | null)?.data ?? response.body;
    await setOption(ctx, cacheKey, { expires: Date.now() + 86_400_000, data: data as never });
    return { status: 200, body: { results: data, status: 200 } };
  } catch (e) {
    return { status: statusOf(e), body: { error: messageOf(e), status: statusOf(e) } };
  }
}

// ---------------------------------------------------------------------------------------------
// Rank tracker (Wincher-compatible routes; Yoast lets those who may publish posts or pages use it)

export async function rankTrackerAuthorizationUrl(ctx: ExtensionsContext): Promise<ServiceAnswer> {
  requireCapability(ctx, "publish_posts");
  const base = serviceUrl(ctx, "rankTrackerUrl");
  if (!base) return { status: NOT_CONFIGURED, body: { error: notConfigured("rankTrackerUrl"), status: NOT_CONFIGURED } };
  const state = crypto.randomBytes(16).toString("hex");
  await setOption(ctx, "wpseo.rank_tracker_oauth_state", state);
  const redirect = `${ctx.config.siteUrl}/wp-admin/admin.php?page=wpseo_integrations`;
  const url = `${base}/oauth2/authorize?${new URLSearchParams({ response_type: "code", client_id: "yoast", redirect_uri: redirect, scope: "account:read websites:read websites:write", state })}`;
  return { status: 200, body: { status: 200, url } };
}

export async function rankTrackerAuthenticate(ctx: ExtensionsContext, code: string, websiteId: string): Promise<ServiceAnswer> {
  requireCapability(ctx, "publish_posts");
  try {
    const tokens = await requestTokens(ctx, "rankTrackerUrl", { grant_type: "authorization_code", code });
    await setOption(ctx, "wpseo.rank_tracker_tokens", { ...tokens });
    await setOption(ctx, "wpseo.rank_tracker_website_id", websiteId);
    return { status: 200, body: { tokens, status: 200 } };
  } catch (e) {
    return { status: statusOf(e), body: { error: messageOf(e), status: statusOf(e) } };
  }
}

async function rankTracker(ctx: ExtensionsContext, method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<SeoHttpResponse> {
  if (!serviceUrl(ctx, "rankTrackerUrl")) throw Object.assign(new Error(notConfigured("rankTrackerUrl")), { status: NOT_CONFIGURED });
  const tokens = await getOption<Tokens | null>(ctx, "wpseo.rank_tracker_tokens", null);
  if (!tokens) throw Object.assign(new Error("Token is empty. Authenticate with the rank tracker first."), { status: 400 });
  const response = await call(ctx, "rankTrackerUrl", path, { method, headers: { authorization: `Bearer ${tokens.access_token}` }, body });
  if (response.status >= 400) throw Object.assign(new Error(String((response.body as { error?: string } | null)?.error ?? "The rank tracker refused the request.")), { status: response.status });
  return response;
}

async function limits(ctx: ExtensionsContext) {
  const account = (await rankTracker(ctx, "GET", "/v1/account")).body as { limits?: { keywords?: { usage?: number; limit?: number | null }; history_days?: number } };
  const usage = account.limits?.keywords?.usage ?? null;
  const limit = account.limits?.keywords?.limit ?? null;
  return { canTrack: limit === null || (usage ?? 0) < limit, limit, usage, historyDays: account.limits?.history_days ?? null };
}

const failed = (e: unknown): ServiceAnswer => ({ status: statusOf(e), body: { error: messageOf(e), status: statusOf(e) } });

export async function rankTrackerLimit(ctx: ExtensionsContext): Promise<ServiceAnswer> {
  requireCapability(ctx, "publish_posts");
  try {
    return { status: 200, body: { ...(await limits(ctx)), status: 200 } };
  } catch (e) { return failed(e); }
}

export async function rankTrackerUpgradeCampaign(ctx: ExtensionsContext): Promise<ServiceAnswer> {
  requireCapability(ctx, "publish_posts");
  try {
    const r = (await rankTracker(ctx, "GET", "/v1/account/upgrade-campaign")).body as { type?: string; months?: number; value?: number } | null;
    return r?.type === "RATE" && r.months && r.value
      ? { status: 200, body: { discount: r.value, months: r.months, status: 200 } }
      : { status: 200, body: { discount: null, months: null, status: 200 } };
  } catch (e) { return failed(e); }
}

export async function trackKeyphrases(ctx: ExtensionsContext, keyphrases: string[]): Promise<ServiceAnswer> {
  requireCapability(ctx, "publish_posts");
  try {
    const l = await limits(ctx);
    if (!l.canTrack || (l.limit !== null && (l.usage ?? 0) + keyphrases.length > l.limit)) return { status: 400, body: { limit: l.limit, error: "Account limit exceeded", status: 400 } };
    const website = await getOption<string>(ctx, "wpseo.rank_tracker_website_id", "");
    const r = (await rankTracker(ctx, "POST", `/v1/websites/${encodeURIComponent(website)}/keywords/bulk`, keyphrases.map((k) => ({ keyword: k, groups: [] })))).body as { data?: { id: number | string; keyword: string }[] };
    const data = Object.fromEntries((r.data ?? []).map((k) => [k.keyword, { id: k.id, keyword: k.keyword }]));
    for (const k of r.data ?? []) {
      await ctx.prisma.seoTrackedKeyphrase.upsert({ where: { keyphrase: k.keyword }, create: { keyphrase: k.keyword, externalId: String(k.id) }, update: { externalId: String(k.id) } });
    }
    return { status: 200, body: { results: data, status: 200 } };
  } catch (e) { return failed(e); }
}

export async function trackedKeyphrases(ctx: ExtensionsContext, input: { keyphrases: string[] | null; permalink: string | null; startAt: string | null }): Promise<ServiceAnswer> {
  requireCapability(ctx, "publish_posts");
  try {
    const website = await getOption<string>(ctx, "wpseo.rank_tracker_website_id", "");
    const r = (await rankTracker(ctx, "POST", `/v1/yoast/${encodeURIComponent(website)}/keywords`, {
      ...(input.keyphrases ? { keywords: input.keyphrases } : {}), ...(input.permalink ? { url: input.permalink } : {}), ...(input.startAt ? { start_at: input.startAt } : {}),
    })).body as { data?: { keyword: string }[] };
    const data = Object.fromEntries((r.data ?? []).map((k) => [k.keyword, k]));
    return { status: 200, body: { results: data, status: 200 } };
  } catch (e) { return failed(e); }
}

export async function untrackKeyphrase(ctx: ExtensionsContext, keyphraseId: string | null): Promise<ServiceAnswer> {
  requireCapability(ctx, "publish_posts");
  try {
    const website = await getOption<string>(ctx, "wpseo.rank_tracker_website_id", "");
    await rankTracker(ctx, "DELETE", `/v1/websites/${encodeURIComponent(website)}/keywords/${encodeURIComponent(keyphraseId ?? "")}`);
    if (keyphraseId) await ctx.prisma.seoTrackedKeyphrase.deleteMany({ where: { externalId: keyphraseId } });
    return { status: 200, body: { status: 200 } };
  } catch (e) { return failed(e); }
}
