// Each subgraph's SDL, without its resolvers: what composition, the exported supergraph and
// codegen need. A subgraph's schema is every .graphql file under its folder.
import type { DocumentNode } from "graphql";
import { loadTypeDefs } from "../lib/subgraph.ts";

export type SubgraphName = "content" | "extensions" | "gateway";

const schemaOf = (name: SubgraphName): DocumentNode => loadTypeDefs(new URL(`./${name}/`, import.meta.url));

export const SUBGRAPH_SCHEMAS: { name: SubgraphName; typeDefs: DocumentNode }[] =
  (["content", "extensions", "gateway"] as const).map((name) => ({ name, typeDefs: schemaOf(name) }));

export const typeDefsOf = (name: SubgraphName): DocumentNode => SUBGRAPH_SCHEMAS.find((s) => s.name === name)!.typeDefs;
