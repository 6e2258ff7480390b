// Composes the supergraph from the subgraphs' own SDL at start-up (no introspection, no network):
// deterministic, and composition errors show at once.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { composeServices } from "@apollo/composition";
import { createRequire } from "node:module";
import { buildSchema, print, type DocumentNode, type GraphQLSchema } from "graphql";
import { graphqlCommonJs } from "../lib/graphql-commonjs.ts";

export interface SubgraphSource { name: string; url: string; typeDefs: DocumentNode }

function compose(subgraphs: SubgraphSource[]) {
  const result = composeServices(subgraphs.map(({ name, url, typeDefs }) => ({ name, url, typeDefs })));
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `- ${e.message}`).join("\n")}`);
  }
  return result;
}

/**
 * Composition is the largest part of a cold start (~1 s of CPU, mostly its satisfiability check)
 * and its result depends only on the subgraphs' SDL and the composition library, so it is kept on
 * disk under that key. Subgraph URLs change from run to run (ephemeral ports): the cached
 * supergraph holds placeholders, replaced on every start.
 */
const CACHE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "node_modules", ".cache", "esg-supergraph");
const placeholder = (name: string) => `urn:esg-subgraph:${name}`;
const compositionBuild = (() => {
  try {
    return String(fs.statSync(createRequire(import.meta.url).resolve("@apollo/composition")).mtimeMs);
  } catch {
    return "";
  }
})();

export function composeSupergraph(subgraphs: SubgraphSource[]): string {
  const key = crypto.createHash("sha256").update(compositionBuild)
    .update(JSON.stringify(subgraphs.map((s) => [s.name, print(s.typeDefs)]))).digest("hex").slice(0, 32);
  const file = path.join(CACHE_DIR, `${key}.graphql`);
  let template: string;
  try {
    template = fs.readFileSync(file, "utf8");
  } catch {
    template = compose(subgraphs.map((s) => ({ ...s, url: placeholder(s.name) }))).supergraphSdl;
    try {
      // Written whole under a temporary name, then renamed: a concurrent start reads all or nothing.
      fs.mkdirSync(CACHE_DIR, { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, template);
      fs.renameSync(temporary, file);
    } catch {
      // A read-only install composes on every start.
    }
  }
  return subgraphs.reduce((sdl, s) => sdl.replaceAll(JSON.stringify(placeholder(s.name)), JSON.stringify(s.url)), template);
}

/** The graph clients see (no @inaccessible fields), for checking documents against it. Rebuilt from
 * its SDL so it belongs to this module's copy of graphql-js (composition may load another). */
export const composeApiSchema = (subgraphs: SubgraphSource[]): GraphQLSchema =>
  buildSchema(graphqlCommonJs.printSchema(compose(subgraphs).schema.toAPISchema().toGraphQLJSSchema()));
