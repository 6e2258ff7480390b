// A subgraph's operations executed as compiled JavaScript (graphql-jit) instead of graphql-js's
// interpreter, which builds an info object, an argument map and a promise chain for every field
// of every item: a 100-post page resolves ~5,000 fields (issue 12; bench/README.md "Compiled
// subgraph execution"). Apollo Server takes a custom executor through its gateway interface: it
// still parses, validates, runs the plugins and formats the errors, and hands each operation here.
import { createRequire } from "node:module";
import type { DocumentNode, GraphQLInputType, GraphQLSchema, OperationDefinitionNode } from "graphql";
import type { CompiledQuery } from "graphql-jit";
import type { GatewayInterface, GatewayExecutionResult } from "@apollo/server-gateway-interface";
import { LRUCache } from "lru-cache";
import { graphqlCommonJs } from "./graphql-commonjs.ts";

// @apollo/subgraph builds the schema with graphql's CommonJS copy: execute with that copy.
const { execute, getNamedType, GraphQLError, isInputObjectType, isNonNullType, typeFromAST, Kind } = graphqlCommonJs;
// Required (its CommonJS build, on that same copy) at the first compile: its modules
// (fast-json-stringify and ajv among them, ~100, ~50 ms) would otherwise lengthen every start.
let graphqlJit: typeof import("graphql-jit") | undefined;
const jit = () => (graphqlJit ??= createRequire(import.meta.url)("graphql-jit") as typeof import("graphql-jit"));

/**
 * Compiling generates and evaluates JavaScript for the whole operation, so a document is compiled
 * the second time it runs: the documents a router sends again and again (its REST routes' and its
 * clients' usual operations), not a one-off query from the explorer. What graphql-jit cannot
 * compile, or would run differently (`compilable`), runs on graphql-js, as a first run does. A
 * compiled operation holds its generated source and code (~0.15 MB for a post list's, more once
 * optimised): the `COMPILED_KEPT` last used are kept, and one dropped is compiled again when it
 * comes back.
 */
const COMPILED_KEPT = 32;

export function compiledExecution(schema: GraphQLSchema): GatewayInterface {
  const ranOnce = new WeakMap<DocumentNode, Set<string>>();
  const kept = new LRUCache<DocumentNode, Map<string, CompiledQuery | null>>({ max: COMPILED_KEPT });
  const compiled = (document: DocumentNode, operationName: string | undefined): CompiledQuery | null => {
    const key = operationName ?? "";
    const byName = kept.get(document) ?? new Map<string, CompiledQuery | null>();
    const known = byName.get(key);
    if (known !== undefined) return known;
    let names = ranOnce.get(document);
    if (!names) ranOnce.set(document, (names = new Set()));
    if (!names.has(key)) {
      names.add(key);
      return null;
    }
    const query = compilable(schema, document, operationName) ? jit().compileQuery(schema, document, operationName, { disablingCapturingStackErrors: true }) : null;
    const result = query && jit().isCompiledQuery(query) ? query : null;
    kept.set(document, byName.set(key, result));
    return result;
  };
  return {
    async load() {
      return {
        executor: async ({ document, operationName, request, context }) => {
          const name = operationName ?? undefined;
          const query = compiled(document, name);
          const variables = request.variables ?? {};
          if (query) {
            const result = await query.query(undefined, context, variables);
            // Without data, its variables were refused before anything ran: graphql-js says why in its own words.
            if (result.data !== undefined) return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
          }
          return (await execute({ schema, document, operationName: name, variableValues: variables, contextValue: context })) as GatewayExecutionResult;
        },
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: "" });
      return () => undefined;
    },
    async stop() {},
  };
}

/**
 * graphql-jit's errors have no `extensions` unless their cause had some, and Apollo Server's
 * formatting reads `error.extensions.code`: it would answer "Internal server error" in their place.
 */
function asGraphQLError(error: import("graphql").GraphQLError): import("graphql").GraphQLError {
  const graphqlError = new GraphQLError(error.message, { path: error.path, originalError: error.originalError, extensions: error.extensions });
  (graphqlError as { locations?: typeof error.locations }).locations = error.locations;
  return graphqlError;
}

/**
 * graphql-jit 0.8.9 coerces a variable's input object without the default of a required field
 * (`quarantined: Boolean! = false` left out: "was not provided", where graphql-js applies the
 * default). An operation whose variables reach such a field stays on graphql-js.
 */
function compilable(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): boolean {
  const operation = document.definitions.find((d): d is OperationDefinitionNode =>
    d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName));
  const seen = new Set<string>();
  const defaultsARequiredField = (type: GraphQLInputType | undefined): boolean => {
    const named = type && getNamedType(type);
    if (!named || !isInputObjectType(named) || seen.has(named.name)) return false;
    seen.add(named.name);
    return Object.values(named.getFields()).some((f) => (isNonNullType(f.type) && f.defaultValue !== undefined) || defaultsARequiredField(f.type));
  };
  return !!operation && !(operation.variableDefinitions ?? []).some((v) => defaultsARequiredField(typeFromAST(schema, v.type) as GraphQLInputType | undefined));
}
