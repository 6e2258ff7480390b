// Answers to anonymous reads, kept for a while: what a site serves most is the same public page
// to callers without credentials. Kept are 200 answers of GET site REST routes (under the REST
// root, or `?rest_route=`) and of GraphQL operations on /graphql (GET, or POST with a JSON body),
// keyed by everything that shapes the answer: method, URL, body and the headers in VARY.
//
// Writes drive invalidation: every mutation run through the graph (readCachePlugin) and every
// other non-GET request forget everything, at their start and again at their end. A read stores
// its answer only if no invalidation happened since it started, so a read that raced a write
// never keeps what it saw before the write. READ_CACHE_TTL_MS bounds how long an answer lives,
// for what changes with time alone (a scheduled post going live).
import { LRUCache } from "lru-cache";
import type { ApolloServerPlugin } from "@apollo/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { errorStatus } from "../lib/errors.ts";
import { CREDENTIAL_HEADERS } from "../lib/authenticate.ts";
import { VIEWS_TOKEN_HEADER } from "./rest/site/namespaces/forms-views/views.ts";

export interface CachedAnswer {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: string | Buffer;
}

export interface ReadCache {
  /**
   * Forgets every answer; reads under way will not store theirs. `remote`: the write happened in
   * another process that shares the database (its listeners already know, so they are not told).
   */
  invalidate(options?: { remote?: boolean }): void;
  /** Called on each local invalidation (a router worker passes it on to its siblings). */
  onInvalidate(listener: () => void): void;
  /** Whether answers are kept at all (a TTL of 0 turns the cache off). */
  readonly enabled: boolean;
  /** Counts invalidations: read it when a read starts and hand it to `set`. */
  readonly generation: number;
  get(key: string): CachedAnswer | undefined;
  /** Keeps an answer, unless an invalidation happened since `generation` was read. */
  set(key: string, answer: CachedAnswer, generation: number): void;
}

export function createReadCache(options: { ttlMs: number; maxEntries?: number; maxBytes?: number }): ReadCache {
  const enabled = options.ttlMs > 0;
  const answers = new LRUCache<string, CachedAnswer>({
    max: options.maxEntries ?? 2000,
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (answer, key) => key.length + (typeof answer.body === "string" ? Buffer.byteLength(answer.body) : answer.body.length) + 512,
    ttl: enabled ? options.ttlMs : undefined,
  });
  const listeners: (() => void)[] = [];
  let generation = 0;
  return {
    enabled,
    get generation() { return generation; },
    invalidate({ remote = false } = {}) {
      generation += 1;
      answers.clear();
      if (!remote) for (const listener of listeners) listener();
    },
    onInvalidate(listener) { listeners.push(listener); },
    get: (key) => (enabled ? answers.get(key) : undefined),
    set(key, answer, startedAt) {
      if (enabled && startedAt === generation) answers.set(key, answer);
    },
  };
}

/** What the graph tells the cache about one request's operations. */
export interface ReadCacheContext {
  /**
   * `server`: something failed on the server side (a subgraph down, a bug), so the answer is not
   * kept. An object the request's contexts share, as Apollo Server copies a context per operation.
   */
  failures?: { server: boolean };
}

/** Invalidates around every mutation the graph runs, and marks answers made while something failed. */
export function readCachePlugin(cache: ReadCache): ApolloServerPlugin<ReadCacheContext> {
  return {
    async requestDidStart() {
      let writes = false;
      return {
        async executionDidStart({ operation }) {
          writes = operation.operation === "mutation";
          if (writes) cache.invalidate();
        },
        async didEncounterErrors({ errors, contextValue }) {
          const failed = errors.some((error) => {
            const extensions: Record<string, unknown> = error.extensions ?? {};
            const status = errorStatus(extensions);
            return status === undefined ? !extensions.code || extensions.code === "INTERNAL_SERVER_ERROR" : status >= 500;
          });
          if (failed && contextValue.failures) contextValue.failures.server = true;
        },
        async willSendResponse() {
          if (writes) cache.invalidate();
        },
      };
    },
  };
}

/** Headers that change an answer the URL and body do not (CORS echoes Origin; GraphQL reads the rest). */
const VARY = ["origin", "accept", "content-type", "apollo-require-preflight", "x-apollo-operation-name"];
/** Any of these makes a request someone's own: never answered from, nor stored in, the cache. */
const CREDENTIALS = [...CREDENTIAL_HEADERS, VIEWS_TOKEN_HEADER];
/** Per-request headers an answer is stored without. */
const NOT_STORED = new Set(["x-request-id", "x-cache", "content-length", "date", "connection", "keep-alive", "transfer-encoding"]);
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Serves anonymous reads from `cache` (answer header `X-Cache: HIT` or `MISS`) and stores their
 * 200 answers; invalidates around every request that is not a read. `contextOf` gives the
 * graph's context of a request (whether something failed while answering it).
 */
export function registerReadCache(
  app: FastifyInstance, cache: ReadCache, options: { restRoot: string; contextOf(request: FastifyRequest): ReadCacheContext | undefined },
): void {
  const restPrefix = `/${options.restRoot}`;
  const isSiteRest = (path: string, search: string) =>
    path === restPrefix || path.startsWith(`${restPrefix}/`) || ((path === "/" || path === "/index.php") && /(?:^|&)rest_route=/.test(search));

  /** The cache key of an anonymous read; undefined for anything else. */
  const keyOf = (request: FastifyRequest): string | undefined => {
    const { headers, method } = request;
    if (CREDENTIALS.some((name) => headers[name] !== undefined) || headers["x-http-method-override"] !== undefined) return undefined;
    const [path, search = ""] = request.url.split("?", 2);
    let body = "";
    if (path === "/graphql") {
      if (method === "POST") {
        if (!/^application\/json\b/i.test(first(headers["content-type"]) ?? "")) return undefined;
        if (!request.body || typeof request.body !== "object" || Array.isArray(request.body)) return undefined;
        body = JSON.stringify(request.body);
      } else if (method !== "GET") return undefined;
    } else if (method !== "GET" || !isSiteRest(path, search) || /(?:^|&)_method=/.test(search)) {
      return undefined;
    }
    return [method, request.url, body, ...VARY.map((name) => first(headers[name]) ?? "")].join("\n");
  };

  const writes = new WeakSet<FastifyRequest>();
  app.addHook("onRequest", async (request) => {
    // GraphQL POSTs are mostly queries; the graph's own plugin invalidates around its mutations.
    if (READS.has(request.method) || (request.method === "POST" && request.url.split("?", 1)[0] === "/graphql")) return;
    writes.add(request);
    cache.invalidate();
  });
  app.addHook("onResponse", async (request) => {
    if (writes.has(request)) cache.invalidate();
  });

  const reads = new WeakMap<FastifyRequest, { key: string; generation: number }>();
  app.addHook("preHandler", async (request, reply) => {
    const key = keyOf(request);
    if (key === undefined) return;
    const hit = cache.get(key);
    if (hit) return reply.code(hit.status).headers(hit.headers).header("x-cache", "HIT").send(hit.body);
    reads.set(request, { key, generation: cache.generation });
    reply.header("x-cache", "MISS");
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const read = reads.get(request);
    if (!read || reply.statusCode !== 200 || options.contextOf(request)?.failures?.server) return payload;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    // Never share what is meant for one caller. (Apollo's `no-store` only says no field had a cache hint.)
    if (reply.hasHeader("set-cookie") || /\bprivate\b/i.test(String(reply.getHeader("cache-control") ?? ""))) return payload;
    const headers: CachedAnswer["headers"] = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !NOT_STORED.has(name)) headers[name] = value;
    }
    // Encoded once here rather than on every hit.
    cache.set(read.key, { status: 200, headers, body: typeof payload === "string" ? Buffer.from(payload) : payload }, read.generation);
    return payload;
  });
}
