// Content subgraph: core/v2 content (posts of every type, terms, users, site options).
import { loadTypeDefs, type SubgraphDefinition } from "../../lib/subgraph.ts";
import { createContentContext, type ContentContext } from "./context.ts";
import { installSite } from "./install.ts";
import { resolvers } from "./resolvers.ts";

export type { ContentContext };

export const contentSubgraph: SubgraphDefinition<ContentContext> = {
  name: "content",
  // Media uploads arrive as base64 in a mutation: room for the router's 64 MB body, plus a third.
  maxRequestBytes: 96 * 1024 * 1024,
  typeDefs: loadTypeDefs(new URL("./", import.meta.url)),
  resolvers: resolvers as SubgraphDefinition<ContentContext>["resolvers"],
  context: createContentContext,
  install: installSite,
};
