// The collection and item routes of a declared resource, as WordPress's controllers register
// them: GET/POST on the collection, GET/POST-PUT-PATCH/DELETE on the item. Each endpoint is
// one typed operation; the kit adds what every controller repeats: the arguments from the item
// schema, paging headers, `Location`, edit-context checks and `Allow`, asked of the graph.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import qs from "qs";
import { wpError } from "../errors.ts";
import type { DocumentNode } from "graphql";
import {
  route, type ArgSchema, type GraphAllow, type GraphEndpoint, type OperationData, type RestRequest, type RestResult, type SiteRoute, type SiteUrls,
} from "../route.ts";
import { contextArg, forceArg, type Args } from "./args.ts";
import { itemSchema, present, writeArgs, writeInput, type Context, type Resource } from "./resource.ts";
import { trackRestFields } from "./rest-fields.ts";

export const ID = "(?P<id>[\\d]+)";

/** A page of nodes as every list field of the graph answers it. */
export interface Connection<Node> { nodes: Node[]; totalCount: number; totalPages: number }

/** What a node may tell of the caller's rights on it (narrows the item route's `Allow`). */
export interface NodeRights { viewerCan: { edit: boolean; delete: boolean } }

export const contextOf = (request: RestRequest): Context => (request.params.context ?? "view") as Context;

/** Sorry, not allowed: 401 for a visitor, 403 for a signed-in user (rest_authorization_required_code). */
export const forbidden = (request: RestRequest, code: string, message: string): RestResult =>
  wpError(code, message, request.identity.site ? 403 : 401);

/** The Link header of a collection page: the same query with `page` replaced (prev/next). */
export function pageLinks(request: RestRequest, collectionPath: string, page: number, totalPages: number): string | undefined {
  const links: string[] = [];
  const base = request.urls.rest(collectionPath);
  const href = (p: number) => `${base}?${qs.stringify({ ...request.query, page: p })}`;
  if (page > 1) links.push(`<${href(Math.min(page - 1, Math.max(totalPages, 1)) || 0)}>; rel="prev"`);
  if (totalPages > page) links.push(`<${href(page + 1)}>; rel="next"`);
  return links.length ? links.join(", ") : undefined;
}

/** A collection page: the items, X-WP-Total, X-WP-TotalPages and the prev/next Link (counted from `current`). */
export function collectionResult(
  request: RestRequest, collectionPath: string, page: { totalCount: number; totalPages: number }, body: unknown[], current: number = request.params.page ?? 1,
): RestResult {
  const link = pageLinks(request, collectionPath, current, page.totalPages);
  return { body, headers: { "X-WP-Total": String(page.totalCount), "X-WP-TotalPages": String(page.totalPages), ...(link ? { Link: link } : {}) } };
}

/** `Allow` of one item, from what the graph says the caller may do with it. */
export const itemAllow = (node: NodeRights): string =>
  ["GET", ...(node.viewerCan.edit ? ["POST", "PUT", "PATCH"] : []), ...(node.viewerCan.delete ? ["DELETE"] : [])].join(", ");

/**
 * One operation of a resource: its document, variables from the request, and where its result
 * is in the answer. Built by `op`, which checks all three against the typed document.
 */
export interface Op<Out> {
  document: DocumentNode;
  variables: (request: RestRequest) => Record<string, unknown>;
  pick: (data: OperationData) => Out;
}

/** Ties a typed document to its variables and result; the dispatcher hands `pick` this document's data. */
export const op = <Data, Variables, Out>(
  document: TypedDocumentNode<Data, Variables>, variables: (request: RestRequest) => Variables, pick: (data: Data) => Out,
): Op<Out> => ({
  document: document as DocumentNode,
  variables: (request) => variables(request) as Record<string, unknown>,
  pick: (data) => pick(data as Data),
});

export type EndpointOptions = Pick<GraphEndpoint, "methods" | "args" | "allowed" | "allowBatch">;

/** An endpoint running one operation; `respond` gets the operation's picked result. */
export const opEndpoint = <Out>(
  e: EndpointOptions, operation: Op<Out>, respond: (out: Out, request: RestRequest) => RestResult | Promise<RestResult>,
): GraphEndpoint => ({
  ...e, operation: operation.document, variables: operation.variables,
  respond: (data, request) => respond(operation.pick(data), request),
});

export interface CrudSpec<Node> {
  namespace: string;
  /** Collection path under the namespace, e.g. "/posts"; the item route is `${path}/{id}`. */
  path: string;
  resource: Resource<Node>;
  /** Every endpoint may be batched (allow_batch v1). */
  batch?: boolean;
  /** Item route id argument (WordPress's description varies by controller). */
  idArg?: ArgSchema;
  /**
   * Who may use each endpoint, as the graph answers; `editContext` guards `context=edit` on the
   * collection, and on an item whose node does not tell the caller's rights (`viewerCan`).
   */
  allow?: { list?: GraphAllow; create?: GraphAllow; read?: GraphAllow; update?: GraphAllow; delete?: GraphAllow; editContext?: GraphAllow };
  /**
   * A read rule REST keeps where the graph is more open (menus located for a theme are public over
   * GraphQL, not over REST): list and read answer this refusal unless the caller passes `allow`.
   */
  readGuard?: { allow: GraphAllow; code: string; message: string };
  /** Messages of the edit-context refusals (WordPress's wording differs by controller). */
  editContextMessages?: { list: string; item: string };
  /** `page`: the page the Link header counts from, when not the `page` argument (users derive it from `offset`). */
  list?: { args: Args; op: Op<Connection<Node>>; visible?: (node: Node, context: Context) => boolean; page?: (request: RestRequest) => number };
  /** `headers` adds to `Location` (e.g. WordPress's X-WP-Upload-Attachment-ID). */
  create?: { op: Op<Node>; args?: Args; context?: Context; headers?: (node: Node) => Record<string, string> };
  /** `refuse`: a refusal the answered node calls for (e.g. private fields withheld in edit context), before the edit-context check. */
  read?: { op: Op<Node>; args?: Args; headers?: (node: Node) => Record<string, string>; refuse?: (node: Node, request: RestRequest) => RestResult | undefined };
  update?: { op: Op<Node>; args?: Args; context?: Context };
  /** `deleted` false means the node went to the trash (it is answered as it now is). */
  delete?: { op: Op<{ deleted: boolean; node: Node }>; force: string; context?: Context; args?: Args };
}

/** The routes of a declared resource: collection and item, each endpoint one typed operation. */
export function crudRoutes<Node>(spec: CrudSpec<Node>): SiteRoute[] {
  const { resource, namespace } = spec;
  const schema = itemSchema(resource);
  const batch = spec.batch ?? false;
  const allow = spec.allow ?? {};
  const itemPath = (node: Node) => `/${namespace}${spec.path}/${(node as { id: string | number }).id}`;
  const nodeRights = (node: Node): NodeRights | undefined => ((node as Partial<NodeRights>).viewerCan ? node as NodeRights : undefined);
  const messages = spec.editContextMessages ?? {
    list: "Sorry, you are not allowed to edit posts in this post type.", item: "Sorry, you are not allowed to edit this post.",
  };
  const shape = (node: Node, request: RestRequest, context: Context, links = true) =>
    present(resource, node, { context, urls: request.urls }, { links });
  const itemResult = (node: Node, request: RestRequest, context: Context, headers: Record<string, string> = {}): RestResult => {
    const rights = nodeRights(node);
    return { body: shape(node, request, context), headers: { ...(rights ? { Allow: itemAllow(rights) } : {}), ...headers } };
  };

  const endpoint = <Out>(e: EndpointOptions, operation: Op<Out>, respond: (out: Out, request: RestRequest) => RestResult | Promise<RestResult>) =>
    opEndpoint({ ...e, allowBatch: batch }, operation, respond);

  const collection: GraphEndpoint[] = [];
  if (spec.list) {
    const list = spec.list;
    collection.push(endpoint({ methods: ["GET"], args: list.args, allowed: allow.list }, list.op, async (page, request) => {
      if (spec.readGuard && !(await request.may(spec.readGuard.allow))) return forbidden(request, spec.readGuard.code, spec.readGuard.message);
      const context = contextOf(request);
      if (context === "edit" && !(await request.may(allow.editContext))) return forbidden(request, "rest_forbidden_context", messages.list);
      const nodes = list.visible ? page.nodes.filter((n) => list.visible!(n, context)) : page.nodes;
      return collectionResult(request, `/${namespace}${spec.path}`, page, nodes.map((n) => shape(n, request, context)), list.page?.(request));
    }));
  }
  if (spec.create) {
    const create = spec.create;
    collection.push(endpoint({ methods: ["POST"], args: create.args ?? writeArgs(resource, "create"), allowed: allow.create }, create.op, (node, request) =>
      // The collection route answered, so its Allow stands (not the new item's).
      ({ status: 201, body: shape(node, request, create.context ?? "edit"), headers: { Location: request.urls.rest(itemPath(node)), ...create.headers?.(node) } })));
  }

  const id = spec.idArg ?? { description: "Unique identifier for the object.", type: "integer" };
  const item: GraphEndpoint[] = [];
  if (spec.read) {
    const read = spec.read;
    item.push(endpoint({ methods: ["GET"], args: read.args ?? { id, context: contextArg() }, allowed: allow.read }, read.op, async (node, request) => {
      const refused = read.refuse?.(node, request);
      if (refused) return refused;
      if (spec.readGuard && !(await request.may(spec.readGuard.allow))) return forbidden(request, spec.readGuard.code, spec.readGuard.message);
      const context = contextOf(request);
      const rights = nodeRights(node);
      // A node that tells the caller's rights on it decides; otherwise the collection's edit-context rule does.
      if (context === "edit" && !(rights ? rights.viewerCan.edit : await request.may(allow.editContext))) {
        return forbidden(request, "rest_forbidden_context", messages.item);
      }
      return itemResult(node, request, context, read.headers?.(node));
    }));
  }
  if (spec.update) {
    const update = spec.update;
    item.push(endpoint({ methods: ["POST", "PUT", "PATCH"], args: update.args ?? { id, ...writeArgs(resource, "update") }, allowed: allow.update },
      update.op, (node, request) => itemResult(node, request, update.context ?? "edit")));
  }
  if (spec.delete) {
    const del = spec.delete;
    item.push(endpoint({ methods: ["DELETE"], args: del.args ?? { id, force: forceArg(del.force) }, allowed: allow.delete }, del.op, ({ deleted, node }, request) =>
      (deleted ? { body: { deleted: true, previous: shape(node, request, del.context ?? "edit", false) } } : itemResult(node, request, "edit"))));
  }

  // Fields other namespaces register on this object type (register_rest_field) extend these routes.
  return trackRestFields({
    title: resource.title,
    routes: [
      ...(collection.length ? [route(namespace, spec.path, collection, schema)] : []),
      ...(item.length ? [route(namespace, `${spec.path}/${ID}`, item, schema)] : []),
    ],
    pickCreated: spec.create?.op.pick, pickUpdated: spec.update?.op.pick, pickList: spec.list && ((data) => spec.list!.op.pick(data).nodes),
    idOf: (node) => Number(resource.fields.id?.read?.(node as Node, { context: "edit", urls: NO_URLS })),
    remove: spec.delete && ((objectId, request) => ({
      document: spec.delete!.op.document,
      variables: spec.delete!.op.variables({ ...request, method: "DELETE", params: { ...request.params, id: objectId, force: true } }),
    })),
  });
}

/** Ids are read without links: no addresses needed. */
const NO_URLS: SiteUrls = { restBase: "", rest: () => "", home: "" };

/** Variables of an item route whose graph id is an Int: `{id}`, and `{id, force}` for a deletion. */
export const byId = (request: RestRequest) => ({ id: request.params.id as number });
export const removal = (request: RestRequest) => ({ ...byId(request), force: request.params.force as boolean });

/** A delete mutation's `{deleted, previous}` as `delete.op` picks it. */
export const deletion = <Node>(result: { deleted: boolean; previous: Node }) => ({ deleted: result.deleted, node: result.previous });

/** The GraphQL input of a write: the resource's mapped fields the request sent. */
export const inputOf = <Node>(resource: Resource<Node>) => (request: RestRequest) => writeInput(resource, request);
