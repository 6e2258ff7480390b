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
//
// Identical anonymous reads in flight at once are answered by one execution (READ_COALESCING,
// on even with the cache off): a read that arrives while the same key is being answered waits
// for that answer and gets it with `X-Cache: SHARED`, but only if the answer is one the cache
// would keep (no invalidation from the first read's start to its end, so none before the later
// read arrived either); otherwise the later read runs itself. Like the cache, this also spares the
// database the stampede of identical reads just after a write has cleared everything.
import { LRUCache } from "lru-cache";
import type { ApolloServerPlugin } from "@apollo/server";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
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
  /** Whether identical anonymous reads in flight at once share one answer (registerReadCache). */
  readonly coalesce: boolean;
  /** Whether the router must follow writes at all: to keep answers, or to share them in flight. */
  readonly active: boolean;
  /** Counts invalidations: read it when a read starts and hand it to `set`. */
  readonly generation: number;
  get(key: string): CachedAnswer | undefined;
  /** Keeps an answer, unless an invalidation happened since `generation` was read. */
  set(key: string, answer: CachedAnswer, generation: number): void;
}

export function createReadCache(options: { ttlMs: number; coalesce?: boolean; maxEntries?: number; maxBytes?: number }): ReadCache {
  const enabled = options.ttlMs > 0;
  const coalesce = options.coalesce ?? false;
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
    coalesce,
    active: enabled || coalesce,
    get generation() { return generation; },
    invalidate({ remote = false } = {}) {
      generation += 1;
      // lru-cache's clear() rewrites its arrays of `max` slots even when nothing is kept, and every
      // write request invalidates several times (its start and end, each mutation's): only clear what holds something.
      if (answers.size) answers.clear();
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
 * 200 answers; when `cache.coalesce`, answers identical reads in flight at once by one execution
 * (`X-Cache: SHARED`). Invalidates around every request that is not a read. `contextOf` gives the
 * graph's context of a request (whether something failed while answering it).
 */
export function registerReadCache(
  app: FastifyInstance, cache: ReadCache,
  options: { restRoot: string; contextOf(request: FastifyRequest): ReadCacheContext | undefined },
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

  /** A read being answered: its key, the generation it started in, and (when it leads) how to share its answer. */
  interface Read { key: string; generation: number; share?: (answer: CachedAnswer | undefined) => void }
  const reads = new WeakMap<FastifyRequest, Read>();
  /** Reads being answered now, by key: what later identical reads wait for. Undefined: not shareable. */
  const inFlight = new Map<string, { generation: number; answer: Promise<CachedAnswer | undefined> }>();
  const settle = (read: Read, answer: CachedAnswer | undefined) => {
    if (!read.share) return;
    read.share(answer);
    read.share = undefined;
    inFlight.delete(read.key);
  };
  const reply = (to: FastifyReply, answer: CachedAnswer, how: "HIT" | "SHARED") =>
    to.code(answer.status).headers(answer.headers).header("x-cache", how).send(answer.body);

  app.addHook("preHandler", async (request, response) => {
    const key = keyOf(request);
    if (key === undefined) return;
    const hit = cache.get(key);
    if (hit) return reply(response, hit, "HIT");
    const flight = cache.coalesce ? inFlight.get(key) : undefined;
    if (flight && flight.generation === cache.generation) {
      const shared = await flight.answer;
      if (shared) return reply(response, shared, "SHARED");
    }
    const read: Read = { key, generation: cache.generation };
    reads.set(request, read);
    response.header("x-cache", "MISS");
    if (cache.coalesce && !inFlight.has(key)) {
      const answer = new Promise<CachedAnswer | undefined>((resolve) => { read.share = resolve; });
      inFlight.set(key, { generation: read.generation, answer });
      // With the subgraphs and the embedded database in this process, a read runs to its end in
      // microtasks, before the event loop reads the next request: give the requests already
      // waiting on other connections one turn to arrive, so identical ones find this one in flight.
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  app.addHook("onSend", async (request, response, payload) => {
    const read = reads.get(request);
    if (!read) return payload;
    const answer = keepable(request, response, payload, read);
    if (answer) cache.set(read.key, answer, read.generation);
    settle(read, answer);
    return payload;
  });
  // A read that never reached onSend (its client went away) frees the ones waiting on it.
  app.addHook("onResponse", async (request) => { const read = reads.get(request); if (read) settle(read, undefined); });
  app.addHook("onRequestAbort", async (request) => { const read = reads.get(request); if (read) settle(read, undefined); });

  /** The answer as the cache keeps it, if it may be kept and shared: a 200 made for anyone, with no write since the read began. */
  function keepable(request: FastifyRequest, response: FastifyReply, payload: unknown, read: Read): CachedAnswer | undefined {
    if (response.statusCode !== 200 || options.contextOf(request)?.failures?.server || read.generation !== cache.generation) return undefined;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return undefined;
    // Never share what is meant for one caller. (Apollo's `no-store` only says no field had a cache hint.)
    if (response.hasHeader("set-cookie") || /\bprivate\b/i.test(String(response.getHeader("cache-control") ?? ""))) return undefined;
    const headers: CachedAnswer["headers"] = {};
    for (const [name, value] of Object.entries(response.getHeaders())) {
      if (value !== undefined && !NOT_STORED.has(name)) headers[name] = value;
    }
    // Encoded once here rather than on every hit.
    return { status: 200, headers, body: typeof payload === "string" ? Buffer.from(payload) : payload };
  }
}
