// The route table is the single source of truth: every REST operation must be valid against the
// composed supergraph's public schema, and batchable writes must be mutations (batch/v1 merges them).
import { Kind, validate, type OperationDefinitionNode } from "graphql";
import { describe, expect, test } from "vitest";
import { composeApiSchema } from "../../router/compose.ts";
import { SUBGRAPHS } from "../../router/system.ts";
import { siteRoutes } from "../../router/rest/site/namespaces/index.ts";
import { isLocal, type GraphEndpoint } from "../../router/rest/site/route.ts";

const apiSchema = composeApiSchema(SUBGRAPHS.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: "http://unused/graphql" })));

describe("site route table", () => {
  const endpoints = siteRoutes().flatMap((route) => route.endpoints.map((endpoint) => ({ route, endpoint })))
    .flatMap(({ route, endpoint }) => (isLocal(endpoint) ? [] : [{ route, endpoint: endpoint as GraphEndpoint }]));

  test.each(endpoints.map(({ route, endpoint }) => [`${endpoint.methods.join(",")} ${route.pattern}`, endpoint] as const))(
    "%s runs a valid operation of the public graph", (_name, endpoint) => {
      expect(validate(apiSchema, endpoint.operation).map((e) => e.message)).toEqual([]);
      const op = endpoint.operation.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      expect(op.selectionSet.selections).toHaveLength(1);
      if (endpoint.allowBatch && !endpoint.methods.includes("GET")) expect(op.operation).toBe("mutation");
    });

  test("route patterns are unique", () => {
    const patterns = siteRoutes().map((r) => r.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
  });
});
