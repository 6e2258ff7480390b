// Starts the whole system for one test file: in-memory PGlite by default, or a fresh schema in
// the PostgreSQL named by DATABASE_URL, every server on an ephemeral port.
import crypto from "node:crypto";
import pg from "pg";
import { loadConfig, type Config } from "../../lib/config.ts";
import { startSystem, type RunningSystem } from "../../router/system.ts";

export const ADMIN_APP_PASSWORD = "abcd EFGH ijkl MNOP qrst UVWX";
export const GATEWAY_ADMIN_PASSWORD = "gateway-admin-secret";

export interface TestSystem extends RunningSystem {
  config: Config;
  /** HTTP request against the router; `auth: "admin"` sends the administrator's application password. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  graphql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[]; status: number }>;
  /** Successful router fetches per subgraph so far, read from /metrics as an operator would. */
  subgraphFetches(): Promise<{ content: number; extensions: number; gateway: number }>;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body bytes or text, sent as is. */
  raw?: Buffer | string;
  headers?: Record<string, string>;
  auth?: "admin" | { username: string; password: string };
}

export interface TestResponse { status: number; headers: Headers; body: any; text: string }

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url || !url.startsWith("postgres")) return "memory:";
  const u = new URL(url);
  u.searchParams.set("schema", `t_${crypto.randomBytes(6).toString("hex")}`);
  return u.toString();
}

async function dropTestSchema(databaseUrl: string): Promise<void> {
  if (!databaseUrl.startsWith("postgres")) return;
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema");
  url.searchParams.delete("schema");
  if (!schema?.startsWith("t_")) return;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * `overrides` set what the environment cannot carry (e.g. `logStream`, to read the log). The read
 * cache is off unless `env` turns it on: tests write to the database directly and stop subgraphs,
 * which no router hears of (test/performance/read-cache.test.ts tests the cache).
 */
export async function startTestSystem(env: Record<string, string> = {}, overrides: Partial<Config> = {}): Promise<TestSystem> {
  const config = loadConfig(
    { ADMIN_APP_PASSWORD, GATEWAY_ADMIN_PASSWORD, LOG_LEVEL: "silent", READ_CACHE_TTL_MS: "0", ...env },
    {
      port: 0, host: "127.0.0.1", databaseUrl: databaseUrl(), secretKey: crypto.randomBytes(32),
      subgraphPorts: { content: 0, extensions: 0, gateway: 0 },
      ...overrides,
    },
  );
  const system = await startSystem({ ...config, siteUrl: "http://example.test" });
  const authHeader = (auth: RequestOptions["auth"]): Record<string, string> => {
    if (!auth) return {};
    const { username, password } = auth === "admin" ? { username: "admin", password: ADMIN_APP_PASSWORD } : auth;
    return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` };
  };
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...authHeader(options.auth), ...options.headers };
    let body: string | Blob | undefined;
    if (options.raw !== undefined) body = typeof options.raw === "string" ? options.raw : new Blob([new Uint8Array(options.raw)]);
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(system.url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  return {
    ...system,
    config,
    request,
    // A PostgreSQL run leaves nothing behind: the file's schema goes with it.
    stop: async () => {
      await system.stop();
      await dropTestSchema(config.databaseUrl);
    },
    graphql: async (query, variables = {}, options = {}) => {
      const r = await request("POST", "/graphql", { ...options, body: { query, variables } });
      return { ...r.body, status: r.status };
    },
    subgraphFetches: async () => {
      const text = (await request("GET", "/metrics")).text;
      const count = (name: string) => Number(text.match(new RegExp(`subgraph_fetches_total\\{[^}]*subgraph="${name}"[^}]*outcome="ok"[^}]*\\} (\\d+)`))?.[1] ?? 0);
      return { content: count("content"), extensions: count("extensions"), gateway: count("gateway") };
    },
  };
}
