// Email gateway subgraph: the email security gateway's management API (release 5.3).
import { loadTypeDefs, type SubgraphContextBase, type SubgraphDefinition } from "../../lib/subgraph.ts";

export type GatewayContext = SubgraphContextBase;

export const gatewaySubgraph: SubgraphDefinition<GatewayContext> = {
  name: "gateway",
  typeDefs: loadTypeDefs(new URL("./schema.graphql", import.meta.url)),
  resolvers: { Query: { authenticateGatewayToken: () => null } },
  context: (_db, identity) => ({ identity }),
};
