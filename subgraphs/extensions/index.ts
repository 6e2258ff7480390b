// Extensions subgraph: the site's extension namespaces. First slice: lang/v1 (Polylang-compatible
// languages and language settings).
import { loadTypeDefs, type SubgraphDefinition } from "../../lib/subgraph.ts";
import { createExtensionsContext, type ExtensionsContext } from "./context.ts";
import { installExtensions } from "./install.ts";
import { resolvers } from "./resolvers.ts";

export type { ExtensionsContext };

export const extensionsSubgraph: SubgraphDefinition<ExtensionsContext> = {
  name: "extensions",
  typeDefs: loadTypeDefs(new URL("./", import.meta.url)),
  resolvers,
  context: createExtensionsContext,
  install: installExtensions,
};
