// The supergraph: @apollo/gateway over the composed subgraphs, inside Apollo Server. Both
// /graphql and the REST layers execute through it, so every subgraph sees the same identity:
// handed over as it is to a subgraph in this process, as a signed header to one elsewhere.
import { ApolloServer, type ApolloServerPlugin, type GraphQLResponse } from "@apollo/server";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { ApolloGateway, RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { GraphQLError, print, type DocumentNode } from "graphql";
import type { FastifyBaseLogger } from "fastify";
import { IDENTITY_HEADER, signIdentity, type Identity } from "../lib/identity.ts";
import { errorStatus } from "../lib/errors.ts";
import { errorLogPlugin, REQUEST_ID_HEADER } from "../lib/logging.ts";
import { subgraphSecretHeaders } from "../lib/subgraph-secret.ts";
import type { FormattedExecutionResult } from "graphql";
import type { RouterMetrics } from "./observability/metrics.ts";
import { publicError } from "./observability/public-errors.ts";
import { queryLimits } from "./query-limits.ts";
import { textInputGuard } from "./text-input-guard.ts";
import type { QueryLimits } from "../lib/config.ts";
import type { LocalSubgraph } from "../lib/local-subgraph.ts";
import { LocalSubgraphSource } from "./local-subgraph.ts";
import pLimit from "p-limit";

export interface RouterContext {
  identity: Identity;
  /** The identity signed for subgraphs in other processes (signed tokens are reused: lib/identity.ts). */
  identityToken(): Promise<string>;
  /** The HTTP request's id and logger, when the operation comes from one (sent on to subgraphs). */
  requestId?: string;
  log?: FastifyBaseLogger;
  /** The operation is a GraphQL client's document (POST /graphql), not one the REST layers built. */
  graphqlClient?: boolean;
  /** Whether an operation of the request failed on the server side (router/read-cache.ts keeps no such answer). */
  failures?: { server: boolean };
  /** True once the HTTP request's client has closed its connection: no one will read the answer. */
  abandoned?(): boolean;
}

export function routerContext(identity: Identity, secretKey: Buffer): RouterContext {
  return { identity, identityToken: () => signIdentity(identity, secretKey) };
}

/** A subgraph in another process, fetched over HTTP: identity and request id on every fetch, each fetch measured. */
class RemoteSubgraphSource extends RemoteGraphQLDataSource<RouterContext> {
  constructor(private readonly subgraph: string, url: string, private readonly metrics?: RouterMetrics, private readonly secret?: string) {
    super({ url });
  }

  override async willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RouterContext>): Promise<void> {
    for (const [name, value] of Object.entries(subgraphSecretHeaders(this.secret))) request.http?.headers.set(name, value);
    if (context.identityToken) request.http?.headers.set(IDENTITY_HEADER, await context.identityToken());
    if (context.requestId) request.http?.headers.set(REQUEST_ID_HEADER, context.requestId);
  }

  override process(options: GraphQLDataSourceProcessOptions<RouterContext>): ReturnType<RemoteGraphQLDataSource["process"]> {
    if (!this.metrics) return super.process(options);
    return this.metrics.observeFetch(this.subgraph, () => super.process(options), (r) => (r.errors?.length ? "errors" : "ok"));
  }
}

/** What the graph reports to (metrics, log), sends to subgraphs (their secret) and enforces on clients. */
export interface GraphOptions {
  metrics?: RouterMetrics; log?: FastifyBaseLogger; subgraphSecret?: string; queryLimits?: QueryLimits;
  /** Subgraphs running in this process, called in-process (router/local-subgraph.ts); the others over HTTP. */
  localSubgraphs?: Partial<Record<string, LocalSubgraph>>;
  /** More plugins of the server (the read cache's invalidation). */
  plugins?: ApolloServerPlugin<RouterContext>[];
  /** Anonymous queries executing at once, the others waiting in order (`admitted`); 0: no limit; absent: `defaultQueryConcurrency`. */
  queryConcurrency?: number;
}

/**
 * Where the subgraphs run in the router's process, one thread executes every query and a second the
 * database: more than 4 at once only interleave (bench/README.md "Admission"). A router in front of
 * subgraphs elsewhere mostly waits for them, and a limit would only cap how many it waits for.
 */
const defaultQueryConcurrency = (local: GraphOptions["localSubgraphs"]) => (Object.values(local ?? {}).some(Boolean) ? 4 : 0);

const anonymous = ({ identity }: RouterContext) => !identity.site && !identity.gateway && !identity.router;

/**
 * The gateway with its anonymous queries admitted `limit` at a time, in arrival order (p-limit):
 * what a site serves most, in bursts, as php-fpm's fixed pool of workers admits WordPress's
 * requests. An uncached 100-post page allocates ~20 MB while it runs: 50 interleaved kept ~150 MB
 * alive and each finished only when all had; in order, the heap stays lower and the first to come
 * are answered first. No anonymous query waits on another server (the oEmbed proxy, URL previews
 * and site health need an editor or more), so a place is only ever held by work on this machine.
 * Writes and signed-in callers go straight through; answers from the read cache never get here.
 */
export function admitted(gateway: ApolloGateway, limit: number): Pick<ApolloGateway, "load" | "onSchemaLoadOrUpdate" | "stop"> {
  if (limit <= 0) return gateway;
  const admit = pLimit(limit);
  return {
    load: async (options) => {
      const { schema, executor } = await gateway.load(options);
      return {
        schema,
        executor: (request) => {
          const context = request.context as RouterContext;
          if (request.operation.operation !== "query" || !anonymous(context)) return executor(request);
          // A client that left while its query waited (a timeout, a closed tab) gets nothing from it:
          // its place goes to the next one instead of to work no one reads.
          return admit(async () => (context.abandoned?.() ? clientClosed(context) : executor(request)));
        },
      };
    },
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
    stop: () => gateway.stop(),
  };
}

/** The answer to a query whose client has gone (nginx's 499), never kept by the read cache. */
function clientClosed(context: RouterContext) {
  if (context.failures) context.failures.server = true;
  return { errors: [new GraphQLError("The client closed the request before its query ran.", { extensions: { code: "CLIENT_CLOSED_REQUEST", http: { status: 499 } } })] };
}

export async function createGraph(supergraphSdl: string, options: GraphOptions = {}): Promise<ApolloServer<RouterContext>> {
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) => {
      const remote = new RemoteSubgraphSource(name, url ?? "", options.metrics, options.subgraphSecret);
      const local = options.localSubgraphs?.[name];
      return local ? new LocalSubgraphSource(name, local, remote, options.metrics) : remote;
    },
    ...(options.log ? { logger: options.log } : {}),
  });
  const server = new ApolloServer<RouterContext>({
    gateway: admitted(gateway, options.queryConcurrency ?? defaultQueryConcurrency(options.localSubgraphs)),
    introspection: true,
    // Shutdown is the process's own (lib/shutdown.ts): Apollo's handler would re-raise the signal and exit 143.
    stopOnTerminationSignals: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    plugins: [
      textInputGuard,
      ...(options.queryLimits ? [queryLimits(options.queryLimits)] : []),
      ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      ...(options.plugins ?? []),
      // A failed fetch or a bug is logged with its cause here, before formatError hides it.
      ...(options.log ? [errorLogPlugin<RouterContext>(({ contextValue }) => contextValue.log ?? options.log!)] : []),
    ],
    ...(options.log ? { logger: options.log } : {}),
    // Show each domain error's HTTP status as extensions.http.status too (added after Apollo
    // Server has read `http`, so the GraphQL response itself stays 200 with partial data).
    formatError: (raw) => {
      const formatted = publicError(raw);
      const status = errorStatus(formatted.extensions);
      return status === undefined ? formatted : { ...formatted, extensions: { ...formatted.extensions, http: { status } } };
    },
  });
  await server.start();
  return server;
}

export type Execute = (
  document: DocumentNode | string, variables: Record<string, unknown>, context: RouterContext,
) => Promise<FormattedExecutionResult>;

/**
 * The text of a document, printed once: Apollo Server prints a DocumentNode on every execution
 * to look its validated parse up by hash, and the REST layers run the same documents again and again.
 */
const printed = new WeakMap<DocumentNode, string>();
const textOf = (document: DocumentNode): string => {
  let text = printed.get(document);
  if (text === undefined) printed.set(document, (text = print(document)));
  return text;
};

/** Runs one operation in-process through the gateway (no HTTP hop between router and itself). */
export function executor(server: ApolloServer<RouterContext>): Execute {
  return async (document, variables, context) => {
    const response: GraphQLResponse = await server.executeOperation(
      { query: typeof document === "string" ? document : textOf(document), variables },
      { contextValue: context },
    );
    if (response.body.kind !== "single") throw new Error("Incremental delivery is not used by the REST layer");
    return response.body.singleResult as FormattedExecutionResult;
  };
}
