// Composes the supergraph from the subgraphs' own SDL at start-up (no introspection, no network):
// deterministic, and composition errors show at once.
import { composeServices } from "@apollo/composition";
import type { DocumentNode } from "graphql";

export interface SubgraphSource { name: string; url: string; typeDefs: DocumentNode }

export function composeSupergraph(subgraphs: SubgraphSource[]): string {
  const result = composeServices(subgraphs.map(({ name, url, typeDefs }) => ({ name, url, typeDefs })));
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `- ${e.message}`).join("\n")}`);
  }
  return result.supergraphSdl;
}
