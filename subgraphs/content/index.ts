// Content subgraph: core/v2 content (posts of every type, terms, users, site options).
import { loadTypeDefs, type SubgraphDefinition } from "../../lib/subgraph.ts";
import { createContentContext, type ContentContext } from "./context.ts";
import { installSite } from "./install.ts";
import { resolvers } from "./resolvers.ts";

export type { ContentContext };

export const contentSubgraph: SubgraphDefinition<ContentContext> = {
  name: "content",
  typeDefs: loadTypeDefs(new URL("./", import.meta.url)),
  resolvers: resolvers as SubgraphDefinition<ContentContext>["resolvers"],
  context: createContentContext,
  install: installSite,
};
