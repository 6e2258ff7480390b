// WordPress's register_rest_field for the site kit: a namespace adds a field to another
// namespace's resource (Polylang adds `lang` and `translations` to posts, pages and terms)
// without touching its routes. A registered field
//   - is read in the same GraphQL request as the object: its `selection` is appended to every
//     fragment on the object's GraphQL type in the resource's operations, so federation fetches it
//     from the subgraph that owns it in the same query plan;
//   - shows in the item schema (OPTIONS, the index) and, being writable, in the create and update
//     arguments;
//   - is written after the object, as WordPress's update_callback runs after the insert: `check`
//     asks the graph first whether the write will be accepted (so a refused value writes nothing),
//     `update` writes it once the object exists, and a create whose field write still fails is
//     undone (the new object is deleted for good) so no half-written object is left.
// A registered collection filter (`registerRestFilter`) narrows a list to the ids another
// subgraph answers, handed to the list as WordPress's `include`: totals and paging stay the list's.
//
// Registrations apply to routes built before and after them (crudRoutes reports its routes here),
// by object type: the resource's `title` ("post", "page", "category", "tag", "nav_menu_item").
import { Kind, parse, visit, type DocumentNode, type GraphQLFormattedError, type InlineFragmentNode, type OperationDefinitionNode, type SelectionNode } from "graphql";
import type { RouterContext } from "../../../graph.ts";
import type { SiteRest } from "../dispatch.ts";
import { errorStatus } from "../../../../lib/errors.ts";
import { fromGraphQLError } from "../errors.ts";
import { aliasOf, mergeOperations } from "../merge-operations.ts";
import type { ArgSchema, GraphEndpoint, ItemSchema, LocalEndpoint, RestRequest, RestResult, SiteRoute } from "../route.ts";
import type { View } from "./resource.ts";

/** One GraphQL operation to run: a typed document (codegen) and its variables. */
export interface OperationCall { document: DocumentNode; variables: Record<string, unknown> }

/** A node as the resource's operation answered it, with the registered fields' selections. */
export type AnsweredNode = Readonly<Record<string, unknown>>;

export interface RestField {
  /** The item-schema member (description, type, context, readonly). */
  schema: ArgSchema;
  /** What the object's read operations also select, on which GraphQL type (e.g. Post: `language { slug }`). */
  selection?: { graphType: string; fields: string };
  /** The value in a response (WordPress's get_callback), from the node. */
  get?: (node: AnsweredNode, view: View) => unknown;
  /**
   * Asked before the object is written, when the field was sent: a query that answers, or fails
   * with the error the write would raise. `objectId` is null on create; null: nothing to ask.
   */
  check?: (value: unknown, objectId: number | null, request: RestRequest) => OperationCall | null;
  /**
   * Writes the value once the object exists (WordPress's update_callback). The root field's
   * answer is merged into the node, so the response shows what was written. `value` is
   * undefined when the field was not sent and `onCreate` runs it anyway. null: nothing to write
   * (e.g. another field's write already covers it).
   */
  update?: (value: unknown, objectId: number, request: RestRequest) => OperationCall | null;
  /** Also run `update` on create when the field was not sent (e.g. Polylang's default language). */
  onCreate?: boolean;
  /**
   * The field's values for many objects in one operation: used instead of `selection` when one
   * request reads several lists (`_embed`), as a selection would cost a fetch per list. Fields
   * sharing one `bulk` function are loaded once.
   */
  bulk?: (objectIds: readonly number[]) => OperationCall & { pick: (data: Record<string, unknown>) => ReadonlyMap<number, Record<string, unknown>> };
}

export interface RestFilter {
  /** The collection argument. */
  arg: ArgSchema;
  /** The ids the list is narrowed to, for the sent value (an operation and where its answer is). */
  ids: (value: unknown, request: RestRequest) => OperationCall & { pick: (data: Record<string, unknown>) => readonly number[] };
}

/** What crudRoutes reports: the resource's routes, where its operations' nodes are, and how to delete an object. */
export interface CrudParts {
  title: string;
  routes: SiteRoute[];
  /** The node in a create's / update's answer (the kit's Op.pick). */
  pickCreated?: (data: Record<string, unknown>) => unknown;
  pickUpdated?: (data: Record<string, unknown>) => unknown;
  /** The nodes of a list's answer. */
  pickList?: (data: Record<string, unknown>) => readonly unknown[];
  /** The database id of a node (the resource's REST `id`). */
  idOf: (node: unknown) => number;
  /** A permanent deletion of the object (undoes a create whose fields could not be written). */
  remove?: (objectId: number, request: RestRequest) => OperationCall;
}

const fields = new Map<string, Map<string, RestField>>();
const filters = new Map<string, Map<string, RestFilter>>();
const tracked = new Map<string, CrudParts[]>();

const titlesOf = (objectTypes: string | readonly string[]) => (typeof objectTypes === "string" ? [objectTypes] : objectTypes);

/** WordPress's register_rest_field: `name` on every object type named. */
export function registerRestField(objectTypes: string | readonly string[], name: string, field: RestField): void {
  for (const title of titlesOf(objectTypes)) {
    fields.set(title, new Map(fields.get(title)).set(name, field));
    for (const parts of tracked.get(title) ?? []) extend(parts);
  }
}

/** A collection argument of every object type named that narrows the list by ids. */
export function registerRestFilter(objectTypes: string | readonly string[], name: string, filter: RestFilter): void {
  for (const title of titlesOf(objectTypes)) {
    filters.set(title, new Map(filters.get(title)).set(name, filter));
    for (const parts of tracked.get(title) ?? []) extend(parts);
  }
}

/** The fields registered on an object type, in registration order. */
export const restFieldsOf = (title: string): ReadonlyMap<string, RestField> => fields.get(title) ?? new Map();

/** Item-schema members of the registered fields (WordPress appends them to the schema's properties). */
export const restFieldSchemas = (title: string): Record<string, ArgSchema> =>
  Object.fromEntries([...restFieldsOf(title)].map(([name, f]) => [name, f.schema]));

/** Called by crudRoutes with what it built; registrations made earlier or later extend it. */
export function trackRestFields(parts: CrudParts): SiteRoute[] {
  tracked.set(parts.title, [...(tracked.get(parts.title) ?? []), parts]);
  extend(parts);
  return parts.routes;
}

// ---- extending the routes ----

type Endpoint = GraphEndpoint & Partial<Pick<LocalEndpoint, "handle">>;

/** Each endpoint's own arguments and document, before any registration. */
const originals = new WeakMap<Endpoint, { args: Record<string, ArgSchema>; operation: DocumentNode }>();

const original = (e: Endpoint) => {
  let o = originals.get(e);
  if (!o) originals.set(e, (o = { args: e.args, operation: e.operation }));
  return o;
};

/** Appends the registered selections to every fragment (named or inline) on their GraphQL types. */
function withSelections(document: DocumentNode, title: string): DocumentNode {
  const byType = new Map<string, SelectionNode[]>();
  for (const f of restFieldsOf(title).values()) {
    if (!f.selection) continue;
    const op = parse(`{ ${f.selection.fields} }`).definitions[0] as OperationDefinitionNode;
    byType.set(f.selection.graphType, [...(byType.get(f.selection.graphType) ?? []), ...op.selectionSet.selections]);
  }
  if (!byType.size) return document;
  const extendSet = <N extends { typeCondition?: { name: { value: string } } | null; selectionSet: { selections: readonly SelectionNode[] } }>(node: N): N => {
    const added = node.typeCondition ? byType.get(node.typeCondition.name.value) : undefined;
    return added ? { ...node, selectionSet: { ...node.selectionSet, selections: [...node.selectionSet.selections, ...added] } } : node;
  };
  return visit(document, {
    FragmentDefinition: (node) => extendSet(node),
    InlineFragment: (node: InlineFragmentNode) => extendSet(node),
  });
}

const isCollection = (route: SiteRoute) => !/\(\?P<id>[^)]*\)$/.test(route.pattern);
const writableArg = (schema: ArgSchema): ArgSchema => {
  const { context: _c, readonly: _r, ...arg } = schema;
  return arg;
};

function extend(parts: CrudParts): void {
  const registered = restFieldsOf(parts.title);
  const listFilters = filters.get(parts.title) ?? new Map<string, RestFilter>();
  const writable = [...registered].filter(([, f]) => f.update && !f.schema.readonly);
  for (const route of parts.routes) {
    if (route.schema) Object.assign(route.schema.properties, restFieldSchemas(parts.title));
    for (const endpoint of route.endpoints as Endpoint[]) {
      if (!("operation" in endpoint) || !endpoint.operation) continue;
      const base = original(endpoint);
      endpoint.operation = withSelections(base.operation, parts.title);
      const collection = isCollection(route);
      if (collection && endpoint.methods.includes("GET") && listFilters.size) {
        endpoint.args = { ...base.args, ...Object.fromEntries([...listFilters].map(([name, f]) => [name, f.arg])) };
        endpoint.handle = (request, context, site) => enqueueList(context, site, { endpoint, parts, filters: listFilters, request });
      }
      const mode = collection && endpoint.methods.includes("POST") ? "create" : !collection && endpoint.methods.includes("PATCH") ? "update" : undefined;
      const pick = mode === "create" ? parts.pickCreated : parts.pickUpdated;
      if (mode && pick && writable.length) {
        endpoint.args = { ...base.args, ...Object.fromEntries(writable.map(([name, f]) => [name, writableArg(f.schema)])) };
        endpoint.handle = (request, context, site) => enqueueWrite(context, site, { endpoint, parts, writable, mode, pick, request });
      }
    }
  }
}

// ---- running an extended endpoint ----

const refusal = (errors: readonly GraphQLFormattedError[]): RestResult | undefined => (errors.length ? fromGraphQLError(errors[0]) : undefined);

/** One list read with registered filters, as the list runner carries it. */
interface PendingList {
  endpoint: Endpoint;
  parts: CrudParts;
  filters: ReadonlyMap<string, RestFilter>;
  request: RestRequest;
  resolve: (result: RestResult) => void;
}

/**
 * The lists of one request (`_embed` asks for several at once) run together: the filters' id
 * queries as ONE document, then every list as ONE document, so embedding lists costs what it
 * cost before filters were registered.
 */
const listGroups = new WeakMap<RouterContext, { site: SiteRest; items: PendingList[] }>();

function enqueueList(context: RouterContext, site: SiteRest, item: Omit<PendingList, "resolve">): Promise<RestResult> {
  let group = listGroups.get(context);
  if (!group) {
    const created = { site, items: [] as PendingList[] };
    listGroups.set(context, created);
    group = created;
    setImmediate(() => {
      listGroups.delete(context);
      runLists({ site, context, items: created.items }).catch((error: unknown) => {
        for (const pending of created.items) pending.resolve(fromGraphQLError({ message: String(error), extensions: { code: "rest_internal_error", status: 500 } }));
      });
    });
  }
  return new Promise((resolve) => group.items.push({ ...item, resolve }));
}

async function runLists(group: { site: SiteRest; context: RouterContext; items: PendingList[] }): Promise<void> {
  const runner: WriteGroup = { site: group.site, context: group.context, items: [] };
  const sentFilters = (item: PendingList) => [...item.filters].filter(([name]) => isSent(item.request, name));

  // 1. The ids every sent filter allows, all asked at once.
  const asks = group.items.flatMap((item) => sentFilters(item).map(([name, filter]) => ({ item, call: filter.ids(item.request.params[name], item.request) })));
  const answers = await runCalls(runner, asks.map((a) => a.call), "query");
  const refused = new Map<PendingList, RestResult>();
  const allowed = new Map<PendingList, Set<number> | undefined>();
  asks.forEach(({ item, call }, i) => {
    const error = refusal(answers[i].errors);
    if (error) { if (!refused.has(item)) refused.set(item, error); return; }
    const ids = call.pick(answers[i].data ?? {});
    const before = allowed.has(item) ? allowed.get(item) : item.request.params.include?.length ? new Set(item.request.params.include) : undefined;
    allowed.set(item, new Set(before ? ids.filter((id) => before.has(id)) : ids));
  });
  for (const [item, error] of refused) item.resolve(error);

  // 2. The lists, narrowed to those ids as WordPress's `include` (0 names nothing: an empty include is no filter).
  const lists = group.items.filter((item) => !refused.has(item)).map((item) => {
    const include = allowed.get(item);
    const request: RestRequest = include ? { ...item.request, params: { ...item.request.params, include: include.size ? [...include] : [0] } } : item.request;
    return { item, request };
  });
  // One list reads its fields in its own operation; several lists load them in one more query instead
  // (a selection would cost one fetch per list: the query planner does not share entity fetches between root fields).
  const bulk = lists.length > 1;
  const results = await runCalls(runner, lists.map(({ item, request }) => ({
    document: bulk ? original(item.endpoint).operation : item.endpoint.operation, variables: item.endpoint.variables?.(request) ?? {},
  })), "query");
  // Degrade, don't fail: lists whose registered fields could not be read are read again without them.
  const retry = bulk ? [] : lists.flatMap((list, i) => (fieldsUnavailable(list.item.endpoint, results[i].errors) ? [i] : []));
  const again = await runCalls(runner, retry.map((i) => ({ document: original(lists[i].item.endpoint).operation, variables: lists[i].item.endpoint.variables?.(lists[i].request) ?? {} })), "query");
  retry.forEach((index, j) => { results[index] = again[j]; });
  if (bulk) await loadInBulk(runner, lists.map(({ item }, i) => ({ parts: item.parts, data: results[i].data })));
  await Promise.all(lists.map(async ({ item, request }, i) => item.resolve(await group.site.shape(item.endpoint, request, results[i].data, results[i].errors))));
}

/**
 * Whether a read's failure may be its registered fields' subgraph being unavailable: the read
 * selected registered fields and failed with a server-side error. (Federation reports a down
 * subgraph without a path and nulls the whole node up to the list, as `translations` is non-null,
 * so the error cannot be placed under the fields' selection: the read is asked again without them.)
 */
function fieldsUnavailable(endpoint: Endpoint, errors: readonly GraphQLFormattedError[]): boolean {
  const base = originals.get(endpoint);
  if (!base || base.operation === endpoint.operation || !errors.length) return false;
  const op = endpoint.operation.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return op?.operation === "query" && errors.some((e) => (errorStatus(e.extensions) ?? 500) >= 500);
}

/**
 * Degrade, don't fail (WordPress without the plugin simply has no such fields): a read whose
 * registered fields could not be read (their subgraph is down) is run again with the resource's
 * own operation, and answers without those fields. Undefined when the read is not to be retried.
 */
export async function readWithoutRegisteredFields<R extends { data?: unknown; errors?: readonly GraphQLFormattedError[] }>(
  endpoint: GraphEndpoint, errors: readonly GraphQLFormattedError[], run: (document: DocumentNode) => Promise<R>,
): Promise<R | undefined> {
  if (!fieldsUnavailable(endpoint as Endpoint, errors)) return undefined;
  return run(original(endpoint as Endpoint).operation);
}

/** Fills the registered fields of the nodes of several answers, one query per `bulk` loader for all of them. */
async function loadInBulk(runner: WriteGroup, answers: { parts: CrudParts; data: Record<string, unknown> | null }[]): Promise<void> {
  const byLoader = new Map<NonNullable<RestField["bulk"]>, { node: Record<string, unknown>; id: number }[]>();
  for (const { parts, data } of answers) {
    if (!data || !parts.pickList) continue;
    const nodes = parts.pickList(data).filter((n): n is Record<string, unknown> => !!n && typeof n === "object");
    const loaders = new Set([...restFieldsOf(parts.title).values()].flatMap((f) => (f.bulk ? [f.bulk] : [])));
    for (const bulk of loaders) byLoader.set(bulk, [...(byLoader.get(bulk) ?? []), ...nodes.map((node) => ({ node, id: parts.idOf(node) }))]);
  }
  const jobs = [...byLoader].map(([bulk, nodes]) => ({ nodes, call: bulk([...new Set(nodes.map((n) => n.id))]) }));
  const loaded = await runCalls(runner, jobs.map((j) => j.call), "query");
  jobs.forEach((job, i) => {
    const values = loaded[i].data ? job.call.pick(loaded[i].data!) : new Map<number, Record<string, unknown>>();
    for (const { node, id } of job.nodes) Object.assign(node, values.get(id) ?? {});
  });
}

/** One create or update with registered fields, as the group runner carries it through the phases. */
interface PendingWrite {
  endpoint: Endpoint;
  parts: CrudParts;
  writable: [string, RestField][];
  mode: "create" | "update";
  pick: (data: Record<string, unknown>) => unknown;
  request: RestRequest;
  resolve: (result: RestResult) => void;
  /** Set once the item is answered (refused, or done). */
  answered?: boolean;
  data?: Record<string, unknown> | null;
  node?: Record<string, unknown>;
  objectId?: number;
}

interface WriteGroup { site: SiteRest; context: RouterContext; items: PendingWrite[] }

/**
 * The writes of one request: a batch starts all its items at once, so they are gathered and run
 * in phases, each phase ONE GraphQL document for every item (mutation fields run in order):
 * the checks, the objects, the fields, then the undoing of creates whose fields were refused.
 * A batch of 25 creates with languages costs three requests to the graph, in the batch's order.
 */
const groups = new WeakMap<RouterContext, WriteGroup>();

function enqueueWrite(context: RouterContext, site: SiteRest, item: Omit<PendingWrite, "resolve">): Promise<RestResult> {
  let group = groups.get(context);
  if (!group) {
    const created: WriteGroup = { site, context, items: [] };
    groups.set(context, created);
    group = created;
    setImmediate(() => {
      groups.delete(context);
      runWrites(created).catch((error: unknown) => {
        for (const pending of created.items) if (!pending.answered) pending.resolve(fromGraphQLError({ message: String(error), extensions: { code: "rest_internal_error", status: 500 } }));
      });
    });
  }
  return new Promise((resolve) => group.items.push({ ...item, resolve }));
}

/** Runs operation calls as one document; each call's data and errors, in order. */
async function runCalls(group: WriteGroup, calls: OperationCall[], kind: "query" | "mutation"): Promise<{ data: Record<string, unknown> | null; errors: readonly GraphQLFormattedError[] }[]> {
  if (!calls.length) return [];
  const merged = mergeOperations(calls.map((c) => ({ operation: c.document, variables: c.variables })), kind);
  const result = merged.unmerge(await group.site.execute(merged.document, merged.variables, group.context));
  const data = (result.data ?? null) as Record<string, unknown> | null;
  return calls.map((call, i) => {
    const alias = aliasOf(i);
    const root = rootFieldName(call.document);
    return {
      data: data && data[alias] !== undefined ? { [root]: data[alias] } : null,
      errors: (result.errors ?? []).filter((e) => e.path?.[0] === alias || (!e.path && i === 0)),
    };
  });
}

const rootFieldName = (document: DocumentNode): string => {
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const field = op.selectionSet.selections[0];
  return field.kind === Kind.FIELD ? (field.alias ?? field.name).value : "";
};

const isSent = (request: RestRequest, name: string) => request.sent.has(name) && request.params[name] !== undefined && request.params[name] !== null;
const dueFields = (item: PendingWrite) => item.writable.filter(([name, f]) => isSent(item.request, name) || (item.mode === "create" && f.onCreate));

function answer(item: PendingWrite, result: RestResult): void {
  item.answered = true;
  item.resolve(result);
}

async function runWrites(group: WriteGroup): Promise<void> {
  const open = () => group.items.filter((i) => !i.answered);

  // 1. Would the fields' writes be accepted? A refused value writes nothing at all.
  const checks: { item: PendingWrite; call: OperationCall }[] = [];
  for (const item of group.items) {
    const existing = item.mode === "update" ? Number(item.request.params.id) : null;
    for (const [name, f] of dueFields(item)) {
      const call = f.check && isSent(item.request, name) ? f.check(item.request.params[name], existing, item.request) : null;
      if (call) checks.push({ item, call });
    }
  }
  (await runCalls(group, checks.map((c) => c.call), "query")).forEach(({ errors }, i) => {
    const refused = refusal(errors);
    if (refused && !checks[i].item.answered) answer(checks[i].item, refused);
  });

  // 2. The objects themselves, in the request's order.
  const objects = open();
  // An object whose fields are written next is asked without their selections: their writes answer them
  // (a mutation's follow-up entity fetches are not shared between root fields, so this saves one per item).
  const documentOf = (item: PendingWrite) => (dueFields(item).length ? original(item.endpoint).operation : item.endpoint.operation);
  const written = await runCalls(group, objects.map((item) => ({ document: documentOf(item), variables: item.endpoint.variables?.(item.request) ?? {} })), "mutation");
  for (const [i, { data, errors }] of written.entries()) {
    const item = objects[i];
    const node = data && !errors.length ? item.pick(data) : undefined;
    if (!node || typeof node !== "object") {
      answer(item, await group.site.shape(item.endpoint, item.request, data, errors));
      continue;
    }
    item.data = data;
    item.node = node as Record<string, unknown>;
    item.objectId = item.parts.idOf(node);
  }

  // 3. The fields, each answer merged into its node.
  const writes: { item: PendingWrite; call: OperationCall }[] = [];
  for (const item of open()) {
    for (const [name, f] of dueFields(item)) {
      const call = f.update!(isSent(item.request, name) ? item.request.params[name] : undefined, item.objectId!, item.request);
      if (call) writes.push({ item, call });
    }
  }
  const refusedCreates: { item: PendingWrite; result: RestResult }[] = [];
  (await runCalls(group, writes.map((w) => w.call), "mutation")).forEach(({ data, errors }, i) => {
    const { item } = writes[i];
    if (item.answered || refusedCreates.some((r) => r.item === item)) return;
    const refused = refusal(errors);
    if (refused) {
      // A create is one logical write: it is undone rather than left without its fields.
      if (item.mode === "create" && item.parts.remove) refusedCreates.push({ item, result: refused });
      else answer(item, refused);
      return;
    }
    const value = data ? Object.values(data)[0] : undefined;
    if (value && typeof value === "object") Object.assign(item.node!, value);
  });

  // 4. Undo the creates whose fields were refused.
  await runCalls(group, refusedCreates.map(({ item }) => item.parts.remove!(item.objectId!, item.request)), "mutation");
  for (const { item, result } of refusedCreates) answer(item, result);

  for (const item of open()) {
    item.answered = true;
    item.resolve(await group.site.shape(item.endpoint, item.request, item.data ?? null, []));
  }
}
