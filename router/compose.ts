// Composes the supergraph from the subgraphs' own SDL at start-up (no introspection, no network):
// deterministic, and composition errors show at once.
import { composeServices } from "@apollo/composition";
import { createRequire } from "node:module";
import { buildSchema, type DocumentNode, type GraphQLSchema } from "graphql";

/** graphql-js as CommonJS, the copy composition itself loads (its schemas are that copy's objects). */
const commonjsGraphql = createRequire(import.meta.url)("graphql") as typeof import("graphql");

export interface SubgraphSource { name: string; url: string; typeDefs: DocumentNode }

function compose(subgraphs: SubgraphSource[]) {
  const result = composeServices(subgraphs.map(({ name, url, typeDefs }) => ({ name, url, typeDefs })));
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `- ${e.message}`).join("\n")}`);
  }
  return result;
}

export const composeSupergraph = (subgraphs: SubgraphSource[]): string => compose(subgraphs).supergraphSdl;

/** The graph clients see (no @inaccessible fields), for checking documents against it. Rebuilt from
 * its SDL so it belongs to this module's copy of graphql-js (composition may load another). */
export const composeApiSchema = (subgraphs: SubgraphSource[]): GraphQLSchema =>
  buildSchema(commonjsGraphql.printSchema(compose(subgraphs).schema.toAPISchema().toGraphQLJSSchema()));
