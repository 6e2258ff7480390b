// The typed seam between /api/v2 and the graph: a RunOperation over the router's executor for
// one request's caller. An endpoint hands it a typed document and that document's variables, and
// gets the document's result type back; GraphQL errors become the gateway's problems.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { Execute, RouterContext } from "../../graph.ts";
import { problemFromGraphQL } from "./problems.ts";
import type { RunOperation } from "./route.ts";

export function operationRunner(execute: Execute, context: RouterContext): RunOperation {
  return async function run<Data, Variables>(operation: TypedDocumentNode<Data, Variables>, variables: Variables): Promise<Data> {
    // Generated variables types are plain objects; the executor takes them as JSON.
    const result = await execute(operation, variables as Record<string, unknown>, context);
    if (result.errors?.length) throw problemFromGraphQL(result.errors[0]);
    // The one conversion from the wire's JSON: an answer without errors has the shape of the document it answers.
    return result.data as Data;
  };
}
