// A subgraph = schema file + resolvers + context, served over HTTP by Apollo Server on Fastify.
// Every subgraph verifies the router's signed identity header before any resolver runs; without
// one, it checks the caller's forwarded credentials (behind Hive Gateway or Apollo Router). A
// router in the same process skips HTTP: it runs operations through `local` with the caller's
// identity as it is (the same Apollo Server, so plugins, error formatting and logs are the same).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { ApolloServer, HeaderMap, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import fastifyApollo, { fastifyApolloDrainPlugin } from "@as-integrations/fastify";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse, type DocumentNode } from "graphql";
import type { GraphQLResolverMap } from "@apollo/subgraph/dist/schema-helper/resolverMap.js";
import type { Database } from "./db.ts";
import type { Config } from "./config.ts";
import type { LocalSubgraph } from "./local-subgraph.ts";
import { IDENTITY_HEADER, verifyIdentity, type Identity } from "./identity.ts";
import { DomainError, toGraphQLError } from "./errors.ts";
import { isSubgraphSecret, SUBGRAPH_SECRET_HEADER } from "./subgraph-secret.ts";
import { authenticate, readCredentials } from "./authenticate.ts";
import { registerSubgraphUrl, subgraphUrl } from "./subgraph-peers.ts";
import { compiledExecution } from "./compiled-execution.ts";
import { echoRequestId, errorLogPlugin, loggerOptions, REQUEST_ID_HEADER } from "./logging.ts";

export interface SubgraphContextBase {
  identity: Identity;
}

export interface SubgraphDefinition<Context extends SubgraphContextBase = SubgraphContextBase> {
  name: "content" | "extensions" | "gateway";
  typeDefs: DocumentNode;
  resolvers: GraphQLResolverMap<Context>;
  /** Builds the per-request context (fresh DataLoaders for every request). */
  context(db: Database, identity: Identity, config: Config): Context;
  /** Largest request body it accepts (default 2 MB): the content subgraph takes media as base64. */
  maxRequestBytes?: number;
  /** Brings a fresh database to its first-start state; safe to run on every start. */
  install?(db: Database, config: Config): Promise<void>;
}

/** What serving a subgraph needs, whatever its context type (so the three can share one list). */
export type ServableSubgraph = Omit<SubgraphDefinition, "resolvers" | "context"> & {
  resolvers: unknown;
  context(db: Database, identity: Identity, config: Config): SubgraphContextBase;
};

/**
 * A subgraph's schema: every `.graphql` file under its folder (one per area, beside the area's
 * resolvers), joined in path order after the file that holds the schema's `@link`.
 */
export function loadTypeDefs(folder: URL): DocumentNode {
  const root = fileURLToPath(folder);
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".graphql")).sort();
  const sources = files.map((f) => fs.readFileSync(path.join(root, f), "utf8"));
  const linkFirst = [...sources.filter((s) => /extend\s+schema/.test(s)), ...sources.filter((s) => !/extend\s+schema/.test(s))];
  // Without locations: the built schema keeps its AST, and each location held the whole token list.
  return parse(linkFirst.join("\n"), { noLocation: true });
}

export interface RunningSubgraph {
  name: string;
  url: string;
  /** The in-process way in, for a router running in this process. */
  local: LocalSubgraph;
  stop(): Promise<void>;
}

/** Calls `onMutation` when a caller's mutation starts and again when it has answered. */
function mutationPlugin(onMutation: () => void): ApolloServerPlugin<SubgraphContextBase> {
  return {
    async requestDidStart() {
      let mutation = false;
      return {
        async executionDidStart({ operation, contextValue }) {
          // The router's own bookkeeping (a redirect hit logged) changes nothing a caller reads.
          mutation = operation.operation === "mutation" && !contextValue.identity.router;
          if (mutation) onMutation();
        },
        async willSendResponse() {
          if (mutation) onMutation();
        },
      };
    },
  };
}

/**
 * Serves a subgraph on `port`. `onMutation` hears of every mutation it runs, whichever router
 * asked (this process's read cache forgets what may have changed). `db` may still be opening:
 * requests wait for it, so the schema is built meanwhile.
 */
export async function serveSubgraph(
  definition: ServableSubgraph, db: Database | Promise<Database>, config: Config, port: number, options: { onMutation?: () => void } = {},
): Promise<RunningSubgraph> {
  const app = Fastify({ keepAliveTimeout: 75_000, bodyLimit: definition.maxRequestBytes ?? 2 * 1024 * 1024, ...loggerOptions(config, definition.name) });
  echoRequestId(app);
  // With a shared secret configured, only a router that sends it reaches the graph.
  const secret = config.subgraphSecret;
  if (secret) {
    app.addHook("onRequest", async (request, reply) => {
      if (request.url.startsWith("/graphql") && !isSubgraphSecret(request.headers[SUBGRAPH_SECRET_HEADER], secret)) {
        await reply.status(401).send({ errors: [{ message: "This subgraph answers its routers only.", extensions: { code: "subgraph_secret_required", status: 401 } }] });
      }
    });
  }
  const server = new ApolloServer<SubgraphContextBase>({
    // Operations run compiled (lib/compiled-execution.ts); Apollo Server parses, validates and formats as ever.
    gateway: compiledExecution(buildSubgraphSchema({ typeDefs: definition.typeDefs, resolvers: definition.resolvers as GraphQLResolverMap<unknown> })),
    plugins: [
      // No @cacheControl hints here: the cache-control plugin would only wrap every resolver (~15 % of a REST read's CPU).
      fastifyApolloDrainPlugin(app), ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled(),
      errorLogPlugin(({ request }) => app.log.child({ requestId: request.http?.headers.get(REQUEST_ID_HEADER) })),
      ...(options.onMutation ? [mutationPlugin(options.onMutation)] : []),
    ],
    logger: app.log,
    // Shutdown is the process's own (lib/shutdown.ts): Apollo's handler would re-raise the signal and exit 143.
    stopOnTerminationSignals: false,
    // Subgraphs are reached by the router only; the router runs its own CSRF prevention.
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
  });
  await server.start();
  await app.register(fastifyApollo(server), {
    path: "/graphql",
    context: async (request) => {
      const header = request.headers[IDENTITY_HEADER];
      let identity: Identity;
      if (header) {
        // Our router's signed identity: the fast path (forwarded credentials are then ignored).
        try {
          identity = await verifyIdentity(Array.isArray(header) ? header[0] : header, config.secretKey);
        } catch {
          // A forged or expired header is the caller's fault: 401, said with the HTTP status too.
          throw toGraphQLError(new DomainError("invalid_identity", "The identity header is not valid.", 401), { httpStatus: true });
        }
      } else {
        // Another router forwarded the caller's own credentials: check them as ours would.
        try {
          identity = await authenticate({ ...readCredentials(request.headers), ip: request.ip },
            { content: { url: subgraphUrl(config, "content"), secret: config.subgraphSecret }, gateway: { url: subgraphUrl(config, "gateway"), secret: config.subgraphSecret } },
            config.secretKey, request.id);
        } catch (error) {
          throw error instanceof DomainError ? toGraphQLError(error) : error;
        }
      }
      return definition.context(await db, identity, config);
    },
  });
  app.get("/health", async () => ({ status: "ok", subgraph: definition.name }));
  const address = await app.listen({ port, host: config.subgraphHost });
  const url = `${address.replace("0.0.0.0", "127.0.0.1")}/graphql`;
  registerSubgraphUrl(config, definition.name, url);
  let serving = true;
  const local: LocalSubgraph = {
    get serving() { return serving; },
    async execute(request, identity, requestId) {
      const started = performance.now();
      // The request id travels as on HTTP, for the error log's line.
      const headers = new HeaderMap(requestId ? [[REQUEST_ID_HEADER, requestId]] : []);
      const response = await server.executeOperation(
        { ...request, http: { method: "POST", headers, search: "", body: undefined } },
        { contextValue: definition.context(await db, identity, config) },
      );
      // The line an HTTP request would have logged, so one request id still finds every subgraph it reached.
      app.log.info({ requestId, url: "/graphql", inProcess: true, durationMs: Math.round((performance.now() - started) * 10) / 10 }, "request");
      if (response.body.kind !== "single") throw new Error("Subgraphs answer with a single result");
      return response.body.singleResult;
    },
  };
  return {
    name: definition.name,
    url,
    local,
    stop: async () => { serving = false; await app.close(); },
  };
}
