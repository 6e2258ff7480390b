// Resolvers of node(id), nodeByUri(uri) and the interfaces they answer, plus the subgraph's
// scalar and enum mappings (scalars.ts).
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import { enumResolvers } from "../scalars.ts";
import { nodeById, nodeByUri, type NodeValue } from "./nodes.ts";

const typename = (value: unknown) => (value as NodeValue).__typename;

export const nodeResolvers: Resolvers = {
  ...(enumResolvers as unknown as Resolvers),
  Query: {
    node: (_, args, ctx) => nodeById(ctx, String(args.id)) as never,
    nodeByUri: (_, args, ctx) => nodeByUri(ctx, args.uri) as never,
  },
  Node: { __resolveType: typename as never },
  UniformResourceIdentifiable: { __resolveType: typename as never },
};
