// Content subgraph: core/v2 content (posts of every type, terms, users, site options).
import { loadTypeDefs, type SubgraphContextBase, type SubgraphDefinition } from "../../lib/subgraph.ts";

export type ContentContext = SubgraphContextBase;

export const contentSubgraph: SubgraphDefinition<ContentContext> = {
  name: "content",
  typeDefs: loadTypeDefs(new URL("./schema.graphql", import.meta.url)),
  resolvers: { Query: { authenticateApplicationPassword: () => null } },
  context: (_db, identity) => ({ identity }),
};
