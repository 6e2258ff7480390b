// The collection and item routes of a declared resource: each binds one typed operation, whose
// variables and result are checked against the declaration (CollectionVariables, GraphItem), and
// gets its query parsing, response shaping and OpenAPI operation from the declaration.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { INT32_MAX } from "../../../lib/gateway/collection-rules.ts";
import { collectionResult, itemResult } from "./formats.ts";
import { collectionOperation, itemOperation } from "./openapi.ts";
import { GatewayProblem } from "./problems.ts";
import { parseCollectionQuery } from "./query.ts";
import type { CollectionVariables, GraphItem, IdOf, Properties, Resource } from "./resource.ts";
import { route, type GatewayRoute } from "./route.ts";

export interface CollectionBinding<P extends Properties, Data, Variables> {
  operation: TypedDocumentNode<Data, Variables>;
  /** The operation's variables from the parsed query (usually the query itself). */
  variables: (query: CollectionVariables<P>) => Variables;
  /** The page in the operation's answer. */
  page: (data: Data) => { items: readonly GraphItem<P>[]; totalItems: number; page: number; itemsPerPage: number };
}

export interface ItemBinding<P extends Properties, Data, Variables> {
  operation: TypedDocumentNode<Data, Variables>;
  variables: (id: IdOf<P>) => Variables;
  /** The item in the operation's answer; null answers 404. */
  item: (data: Data) => GraphItem<P> | null;
}

/** Declared filters the operation's filter input does not take (never when every one fits). */
type MissingFilters<P extends Properties, Variables> =
  Variables extends { filter?: infer F } ? Exclude<keyof CollectionVariables<P>["filter"], keyof NonNullable<F>> : never;
/** Names, in the type error, the declared filters the graph lost (a renamed filter field). */
type FiltersFit<P extends Properties, Variables> = [MissingFilters<P, Variables>] extends [never] ? unknown : { missingFilters: MissingFilters<P, Variables> };

const notFound = () => new GatewayProblem(404, "Not Found");

/** GET <path>: the collection, filtered, sorted and paged as the declaration allows. */
export function collectionRoute<P extends Properties, Data, Variables>(
  resource: Resource<P>, binding: CollectionBinding<P, Data, Variables> & FiltersFit<P, Variables>,
): GatewayRoute {
  return route(resource.path ?? "", [{
    methods: ["GET"], auth: true, negotiate: true, resource, openapi: collectionOperation(resource),
    handle: async (request, run) => {
      const { variables, filtered } = parseCollectionQuery(resource, request.query);
      const data = await run(binding.operation, binding.variables(variables));
      return collectionResult(resource, binding.page(data), request, filtered);
    },
  }]);
}

/** GET <path>/{id}: one item at its IRI; 404 when the graph has none. */
export function itemRoute<P extends Properties, Data, Variables>(resource: Resource<P>, binding: ItemBinding<P, Data, Variables>): GatewayRoute {
  const integerId = resource.properties.id?.type === "integer";
  return route(`${resource.path ?? ""}/{id}`, [{
    methods: ["GET"], auth: true, negotiate: true, resource, openapi: itemOperation(resource),
    handle: async (request, run) => {
      const raw = request.pathParams.id;
      if (integerId && Number(raw) > INT32_MAX) throw notFound();
      // The route's pattern admits only what the id's declared type allows (digits for integers).
      const id = (integerId ? Number(raw) : raw) as IdOf<P>;
      const item = binding.item(await run(binding.operation, binding.variables(id)));
      if (!item) throw notFound();
      return itemResult(resource, item, request.format);
    },
  }], { id: integerId ? "\\d+" : "[^/]+" });
}
