// Every setting comes from the environment, parsed and checked here once, with defaults that
// work on a fresh machine. Nothing else reads process.env.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";

export interface Config {
  /** Port of the router (REST + /graphql). */
  port: number;
  host: string;
  /** Path segment under which the site REST routes live ("wp-json"). */
  restRoot: string;
  /** Public address of the site, used in links; defaults to http://localhost:PORT. */
  siteUrl: string;
  /** memory: | file:<dir> | postgres://… ; unset means PGlite under DATA_DIR/pglite. */
  databaseUrl: string;
  /** DATABASE_THREAD: PGlite runs on its own thread (lib/pglite-thread.ts); 1 by default, 0 keeps it on the main thread. */
  databaseThread: boolean;
  dataDir: string;
  /** Keys application-password hashes and the signed identity header. */
  secretKey: Buffer;
  adminAppPassword?: string;
  gatewayAdminPassword?: string;
  /** SUBGRAPH_HOST: where subgraph servers listen (loopback by default: only routers on this machine reach them). */
  subgraphHost: string;
  /** SUBGRAPH_SECRET: when set, subgraphs answer only requests carrying it (lib/subgraph-secret.ts). */
  subgraphSecret?: string;
  /** Ports of the in-process subgraph servers (0 = any free port). */
  subgraphPorts: { content: number; extensions: number; gateway: number };
  /** WORKERS: router processes serving PORT (router/cluster.ts); 1 (the default) runs the whole system in one process. */
  workers: number;
  /** When set, the router uses these subgraphs instead of starting its own. */
  subgraphUrls?: { content: string; extensions: string; gateway: string };
  /** CORS_ORIGINS: origins whose browser apps may call /graphql and /api/v2 ("*" = any). */
  corsOrigins: "*" | string[];
  /** What one GraphQL client request may ask (router/query-limits.ts); GRAPHQL_MAX_* variables. */
  queryLimits: QueryLimits;
  /** LOG_LEVEL: pino's level for the request log and errors; `silent` prints nothing. */
  logLevel: LogLevel;
  /** HTTP_ALLOWED_HOSTS: hosts outbound requests (lib/http-client.ts) may reach though private or on another port. */
  httpAllowedHosts: string[];
  /** Forms, consent and downloads (subgraphs/extensions/{forms,consent,downloads}): FORMS_EXPORT_DIR (default DATA_DIR/uploads/forms-tmp), HUBSPOT_CLIENT_SECRET, CONSENT_FEEDBACK_URL, RECAPTCHA_URL / _PROJECT_ID / _API_KEY / _SITE_KEY. */
  formsPlugins: { exportDir: string; hubspotClientSecret?: string; consentFeedbackUrl: string; recaptcha: { url: string; projectId?: string; apiKey?: string; siteKey?: string } };
  /** SEO (subgraphs/extensions/seo) outside services: SEO_AI_GENERATOR_URL, SEO_KEYWORD_PROVIDER_URL, SEO_RANK_TRACKER_URL (unset: "not configured"). */
  seoServices: { aiGeneratorUrl?: string; keywordProviderUrl?: string; rankTrackerUrl?: string };
  /** READ_CACHE_TTL_MS: how long an anonymous read's answer is kept (router/read-cache.ts); 0 = off, the default for a router alone in front of remote subgraphs. */
  readCacheTtlMs: number;
  /** Identical anonymous reads in flight at once share one answer (router/read-cache.ts). */
  readCoalescing: boolean;
  /** QUERY_CONCURRENCY: anonymous GraphQL queries executing at once in a router process, the others waiting in order (router/graph.ts); 0 = no limit; unset: the router's default. */
  queryConcurrency?: number;
  /** Where log lines go (stdout unless set; tests capture them here). */
  logStream?: { write(line: string): void };
}

export interface QueryLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  /** GraphQL Armor's cost: 2 per object, 1 per scalar, ×1.5 per level of depth. */
  maxCost: number;
  maxResponseBytes: number;
}

/** Room for every query a front end makes (the explorer's introspection included), far below what hurts. */
function queryLimits(env: Env): QueryLimits {
  const limit = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
    return n;
  };
  return {
    maxTokens: limit("GRAPHQL_MAX_TOKENS", 5000),
    maxDepth: limit("GRAPHQL_MAX_DEPTH", 12),
    maxAliases: limit("GRAPHQL_MAX_ALIASES", 30),
    maxDirectives: limit("GRAPHQL_MAX_DIRECTIVES", 50),
    maxCost: limit("GRAPHQL_MAX_COST", 5000),
    maxResponseBytes: limit("GRAPHQL_MAX_RESPONSE_BYTES", 10 * 1024 * 1024),
  };
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL || "info";
  const level = LOG_LEVELS.find((l) => l === raw);
  if (!level) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
  return level;
}

type Env = Record<string, string | undefined>;

/** A whole-number setting from `min` to `max`; unset or empty: undefined, for the caller's default. `what` words the error. */
function wholeNumber(env: Env, name: string, what: string, min: number, max = Infinity): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be ${what}, got "${raw}"`);
  return n;
}

const portNumber = (env: Env, name: string, fallback: number): number => wholeNumber(env, name, "a port number", 0, 65535) ?? fallback;

/** CORS_ORIGINS: `*` (the default) or a comma list of origins such as https://app.example. */
function corsOrigins(env: Env): "*" | string[] {
  const raw = (env.CORS_ORIGINS ?? "*").trim();
  if (raw === "*") return "*";
  return raw.split(",").map((s) => s.trim()).filter(Boolean).map((origin) => {
    let parsed: URL | undefined;
    try { parsed = new URL(origin); } catch { /* reported below */ }
    if (parsed?.origin !== origin.replace(/\/+$/, "")) throw new Error(`CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port])`);
    return parsed.origin;
  });
}

/**
 * WORKERS: a positive integer, 1 by default: the process that owns PGlite is the bottleneck, so
 * router workers add memory (~350 MB for two) without adding uncached throughput (bench:scale-out).
 */
const workers = (env: Env): number => wholeNumber(env, "WORKERS", "a positive integer", 1) ?? 1;

/** A router alone in front of remote subgraphs does not see every write by default: no cache unless asked. */
const readCacheTtlMs = (env: Env, remoteSubgraphs: boolean): number =>
  wholeNumber(env, "READ_CACHE_TTL_MS", "a number of milliseconds", 0) ?? (remoteSubgraphs ? 0 : 30_000);

/** QUERY_CONCURRENCY: a whole number; unset leaves the choice to the router (router/graph.ts). */
const queryConcurrency = (env: Env): number | undefined => wholeNumber(env, "QUERY_CONCURRENCY", "a whole number (0: no limit)", 0);

/** A 0/1 setting; unset or empty means `fallback`. */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw !== "0" && raw !== "1") throw new Error(`${name} must be 0 or 1, got "${raw}"`);
  return raw === "1";
}

function subgraphSecret(env: Env): string | undefined {
  const raw = env.SUBGRAPH_SECRET;
  if (!raw) return undefined;
  if (raw.length < 32) throw new Error("SUBGRAPH_SECRET must be at least 32 characters");
  return raw;
}

/** The secret key: SECRET_KEY (hex or any string ≥ 32 chars), else one generated once and kept in DATA_DIR. */
function secretKey(env: Env, dataDir: string): Buffer {
  const raw = env.SECRET_KEY;
  if (raw) {
    if (raw.length < 32) throw new Error("SECRET_KEY must be at least 32 characters");
    return Buffer.from(raw, "utf8");
  }
  const file = path.join(dataDir, "secret-key");
  try {
    return Buffer.from(fs.readFileSync(file, "utf8").trim(), "utf8");
  } catch {
    const key = crypto.randomBytes(32).toString("hex");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, key + "\n", { mode: 0o600 });
    return Buffer.from(key, "utf8");
  }
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const port = overrides.port ?? portNumber(env, "PORT", 4000);
  const dataDir = path.resolve(env.DATA_DIR ?? "data");
  const restRoot = (env.REST_ROOT ?? "wp-json").replace(/^\/+|\/+$/g, "");
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(restRoot)) throw new Error(`REST_ROOT "${restRoot}" is not a path`);
  const urls = [env.CONTENT_URL, env.EXTENSIONS_URL, env.GATEWAY_URL];
  if (urls.some(Boolean) && !urls.every(Boolean)) {
    throw new Error("Set all of CONTENT_URL, EXTENSIONS_URL and GATEWAY_URL, or none");
  }
  const config: Config = {
    port,
    host: env.HOST ?? "127.0.0.1",
    restRoot,
    siteUrl: (env.SITE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    databaseUrl: env.DATABASE_URL ?? `file:${path.join(dataDir, "pglite")}`,
    dataDir,
    secretKey: overrides.secretKey ?? secretKey(env, dataDir),
    adminAppPassword: env.ADMIN_APP_PASSWORD || undefined,
    gatewayAdminPassword: env.GATEWAY_ADMIN_PASSWORD || undefined,
    subgraphHost: env.SUBGRAPH_HOST || "127.0.0.1",
    subgraphSecret: subgraphSecret(env),
    subgraphPorts: {
      content: portNumber(env, "CONTENT_PORT", 4001),
      extensions: portNumber(env, "EXTENSIONS_PORT", 4002),
      gateway: portNumber(env, "GATEWAY_PORT", 4003),
    },
    workers: workers(env),
    subgraphUrls: urls.every(Boolean)
      ? { content: env.CONTENT_URL!, extensions: env.EXTENSIONS_URL!, gateway: env.GATEWAY_URL! }
      : undefined,
    corsOrigins: corsOrigins(env),
    queryLimits: queryLimits(env),
    logLevel: logLevel(env),
    formsPlugins: { exportDir: path.resolve(env.FORMS_EXPORT_DIR || path.join(dataDir, "uploads", "forms-tmp")), hubspotClientSecret: env.HUBSPOT_CLIENT_SECRET || undefined, consentFeedbackUrl: env.CONSENT_FEEDBACK_URL || "https://feedback.cookieyes.com/api/v1/feedbacks", recaptcha: { url: env.RECAPTCHA_URL || "https://recaptchaenterprise.googleapis.com/v1", projectId: env.RECAPTCHA_PROJECT_ID || undefined, apiKey: env.RECAPTCHA_API_KEY || undefined, siteKey: env.RECAPTCHA_SITE_KEY || undefined } },
    seoServices: { aiGeneratorUrl: env.SEO_AI_GENERATOR_URL || undefined, keywordProviderUrl: env.SEO_KEYWORD_PROVIDER_URL || undefined, rankTrackerUrl: env.SEO_RANK_TRACKER_URL || undefined },
    readCacheTtlMs: readCacheTtlMs(env, urls.every(Boolean)),
    // On unless the router is alone in front of remote subgraphs (it does not hear of others' writes), as the cache.
    readCoalescing: flag(env, "READ_COALESCING", !urls.every(Boolean)),
    queryConcurrency: queryConcurrency(env),
    databaseThread: flag(env, "DATABASE_THREAD", true),
    httpAllowedHosts: (env.HTTP_ALLOWED_HOSTS ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean),
  };
  return { ...config, ...overrides };
}
