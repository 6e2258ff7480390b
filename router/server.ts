// The router: one HTTP server in front of the supergraph. /graphql for GraphQL clients and
// Apollo Sandbox; the REST compatibility surfaces (site under /{REST_ROOT}, email gateway under
// /api/v2) translate each documented route into one operation of the same graph.
import { DomainError, toGraphQLError } from "../lib/errors.ts";
import { createHttpClient } from "../lib/http-client.ts";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import fastifyApollo from "@as-integrations/fastify";
import type { Config } from "../lib/config.ts";
import type { LocalSubgraph } from "../lib/local-subgraph.ts";
import { composeSupergraph, type SubgraphSource } from "./compose.ts";
import { limitBodies, UPLOAD_BODY_BYTES } from "./body-limits.ts";
import { tokenLimit } from "./query-limits.ts";
import { createGraph, executor, routerContext, type Execute, type RouterContext } from "./graph.ts";
import { authenticate, readCredentials, type SubgraphTarget } from "./authenticate.ts";
import { registerSiteRest } from "./rest/site/server.ts";
import { registerGatewayRest } from "./rest/gateway/server.ts";
import { registerSiteOpenApi } from "./rest/openapi/site.ts";
import { registerUploads } from "./uploads.ts";
import { registerOAuth } from "./oauth.ts";
import { echoRequestId, loggerOptions } from "../lib/logging.ts";
import { createMetrics, registerMetrics } from "./observability/metrics.ts";
import { registerGraphiql } from "./explorer/graphiql.ts";
import { registerCors } from "./cors.ts";
import { registerGraphqlMultipart } from "./graphql-multipart.ts";
import { registerRedirects } from "./redirects.ts";
import { registerEmbedPages } from "./embed-page.ts";
import { createReadCache, readCachePlugin, registerReadCache, type ReadCache } from "./read-cache.ts";

export interface RunningRouter { url: string; supergraphSdl: string; stop(): Promise<void> }

/** What a REST surface needs from the router. */
export interface RestDeps {
  config: Config;
  execute: Execute;
  /** The caller's context from request headers; rejects bad credentials with a DomainError. */
  contextFor(request: FastifyRequest): Promise<RouterContext>;
}

export interface RouterOptions {
  /** The cache of anonymous reads (router/read-cache.ts); else one per READ_CACHE_TTL_MS. */
  readCache?: ReadCache;
  /** Subgraphs running in this process, by name: called in-process instead of over HTTP. */
  localSubgraphs?: Partial<Record<string, LocalSubgraph>>;
  /** What must be ready before the router listens (the database still opening while the graph is built). */
  listenAfter?: Promise<unknown>;
}

/** Whether the request's client has closed its connection (a half-close too: Node then closes it). */
export const connectionClosed = (request: FastifyRequest): boolean => request.raw.socket?.destroyed === true;

export async function startRouter(config: Config, subgraphs: SubgraphSource[], options: RouterOptions = {}): Promise<RunningRouter> {
  const supergraphSdl = composeSupergraph(subgraphs);
  const urls = Object.fromEntries(subgraphs.map((s) => [s.name, s.url])) as Record<string, string>;
  const app: FastifyInstance = Fastify({ keepAliveTimeout: 75_000, bodyLimit: UPLOAD_BODY_BYTES, ...loggerOptions(config, "router") });
  limitBodies(app, config.restRoot);
  const metrics = createMetrics();
  echoRequestId(app);
  registerMetrics(app, metrics);
  const readCache = options.readCache ?? createReadCache({ ttlMs: config.readCacheTtlMs, coalesce: config.readCoalescing });
  const graph = await createGraph(supergraphSdl, {
    metrics, log: app.log, subgraphSecret: config.subgraphSecret, queryLimits: config.queryLimits, queryConcurrency: config.queryConcurrency,
    plugins: readCache.active ? [readCachePlugin(readCache)] : [], localSubgraphs: options.localSubgraphs,
  });

  // The subgraphs the router asks itself (credential checks, OAuth, redirects): in-process when they run here.
  const target = (name: string): SubgraphTarget => ({ url: urls[name], secret: config.subgraphSecret, local: options.localSubgraphs?.[name] });
  const credentialSubgraphs = { content: target("content"), gateway: target("gateway") };

  // Each request's context, for the read cache to see whether its operations failed.
  const contexts = new WeakMap<FastifyRequest, RouterContext>();
  const contextFor = async (request: FastifyRequest): Promise<RouterContext> => {
    const context: RouterContext = {
      ...routerContext(
        await authenticate({ ...readCredentials(request.headers), ip: request.ip }, credentialSubgraphs, config.secretKey, request.id),
        config.secretKey,
      ),
      requestId: request.id,
      log: request.log,
      failures: { server: false },
      abandoned: () => connectionClosed(request),
    };
    contexts.set(request, context);
    return context;
  };

  registerCors(app, config);
  if (readCache.active) registerReadCache(app, readCache, { restRoot: config.restRoot, contextOf: (request) => contexts.get(request) });
  registerEmbedPages(app, { config, execute: executor(graph) }); // <permalink>embed/ pages, before any route
  // GraphQL keeps Fastify's JSON body parser; each REST surface parses bodies itself.
  await app.register(async (scope) => {
    // What Fastify refuses before Apollo sees the request (a body that is not JSON, an unknown
    // content type, a body too large) still answers in GraphQL's error shape.
    scope.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, "graphql request failed");
      const code = status === 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST";
      const message = status === 500 ? "Internal server error" : error.message;
      return reply.status(status).send({ errors: [{ message, extensions: { code, http: { status } } }] });
    });
    scope.addHook("preHandler", tokenLimit(config.queryLimits));
    registerGraphqlMultipart(scope);
    await scope.register(fastifyApollo(graph), {
      path: "/graphql",
      // Bad credentials reject the request in GraphQL's own error shape.
      context: async (request) => {
        try {
          return Object.assign(await contextFor(request), { graphqlClient: true });
        } catch (error) {
          throw error instanceof DomainError ? toGraphQLError(error, { httpStatus: true }) : error;
        }
      },
    });
  });
  const deps: RestDeps = { config, execute: executor(graph), contextFor };
  await app.register(async (scope) => registerSiteRest(scope, deps));
  await app.register(async (scope) => registerGatewayRest(scope, deps));
  registerUploads(app, config);
  registerOAuth(app, config, credentialSubgraphs);
  registerGraphiql(app);
  registerSiteOpenApi(app, config);
  registerRedirects(app, deps, target("extensions"));

  app.get("/health", async () => ({ status: "ok" }));
  // The subgraphs' /health through the system's own HTTP client (node:http; their hosts allowed)
  // rather than fetch, whose response parser is WebAssembly that V8 compiles on its helper thread:
  // for a second after a start that thread is still tiering up PGlite's WebAssembly (npm start
  // gives V8 one helper: README "Starting"), and the first /ready waited for it.
  const healthClient = createHttpClient({ allowedHosts: subgraphs.map((s) => new URL(s.url).hostname) });
  const health = (url: string) => healthClient.request(url, { redirects: 0 })
    .then((r) => (r.status === 200 ? "ok" : `status ${r.status}`), (error: Error) => error.message);
  app.get("/ready", async (_request, reply) => {
    const checks = await Promise.all(subgraphs.map(async (s) => [s.name, await health(s.url.replace(/\/graphql$/, "/health"))] as const));
    const ready = checks.every(([, status]) => status === "ok");
    return reply.status(ready ? 200 : 503).send({ status: ready ? "ready" : "not ready", subgraphs: Object.fromEntries(checks) });
  });

  await options.listenAfter;
  const address = await app.listen({ port: config.port, host: config.host });
  return {
    url: address.replace("0.0.0.0", "127.0.0.1"),
    supergraphSdl,
    stop: async () => { await app.close(); await graph.stop(); },
  };
}
