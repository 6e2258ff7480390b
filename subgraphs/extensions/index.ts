// Extensions subgraph: the site's extension namespaces (languages, SEO, redirects, forms…).
import { loadTypeDefs, type SubgraphContextBase, type SubgraphDefinition } from "../../lib/subgraph.ts";

export type ExtensionsContext = SubgraphContextBase;

export const extensionsSubgraph: SubgraphDefinition<ExtensionsContext> = {
  name: "extensions",
  typeDefs: loadTypeDefs(new URL("./schema.graphql", import.meta.url)),
  resolvers: { Query: { languages: () => [] } },
  context: (_db, identity) => ({ identity }),
};
