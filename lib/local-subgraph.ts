// The in-process way into a subgraph, for a router running in the same process: lib/subgraph.ts
// provides it, router/local-subgraph.ts calls it. Types only, so the router's REST layers that
// name the router's context never reach the database module through them.
import type { FormattedExecutionResult } from "graphql";
import type { Identity } from "./identity.ts";

/** One operation as a router asks it. */
export interface SubgraphRequest { query: string; variables?: Record<string, unknown>; operationName?: string }

export interface LocalSubgraph {
  /** Runs an operation for a caller the router has already identified. */
  execute(request: SubgraphRequest, identity: Identity, requestId?: string): Promise<FormattedExecutionResult>;
  /** False once stopped: from then on the subgraph is reached at its URL, like any other. */
  readonly serving: boolean;
}
