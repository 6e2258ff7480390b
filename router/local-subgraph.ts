// A subgraph running in the router's own process, called directly: the gateway hands it the
// operation and the caller's identity as they are, with no HTTP, no JSON and no signed header in
// between (lib/subgraph.ts runs it through the subgraph's own Apollo Server). Once the subgraph
// has stopped, or for subgraphs in other processes, the HTTP source does the work.
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import type { LocalSubgraph } from "../lib/local-subgraph.ts";
import type { RouterContext } from "./graph.ts";
import type { RouterMetrics } from "./observability/metrics.ts";

type GatewayGraphQLResponse = Awaited<ReturnType<GraphQLDataSource["process"]>>;

export class LocalSubgraphSource implements GraphQLDataSource<RouterContext> {
  constructor(
    private readonly subgraph: string,
    private readonly local: LocalSubgraph,
    private readonly remote: GraphQLDataSource<RouterContext>,
    private readonly metrics?: RouterMetrics,
  ) {}

  process(options: GraphQLDataSourceProcessOptions<RouterContext>): Promise<GatewayGraphQLResponse> {
    if (!this.local.serving) return this.remote.process(options);
    const { request, context } = options;
    if (!request.query) throw new Error("Missing query");
    const run = () => this.local.execute(
      { query: request.query!, variables: request.variables, operationName: request.operationName },
      context.identity, context.requestId,
    ) as Promise<GatewayGraphQLResponse>;
    // Measured as a fetch, like the HTTP source, so the subgraph metrics mean the same either way.
    return this.metrics ? this.metrics.observeFetch(this.subgraph, run, (r) => (r.errors?.length ? "errors" : "ok")) : run();
  }
}
