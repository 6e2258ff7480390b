// WordPress's REST server, over the route table: match the route, validate and coerce the
// arguments from the endpoint's schema, run the endpoint's one GraphQL operation with the
// caller's identity, and turn the result into a REST response. Used for HTTP requests, batch
// items and `_embed` look-ups alike.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { Kind, type DocumentNode, type FormattedExecutionResult, type OperationDefinitionNode } from "graphql";
import type { Execute, RouterContext } from "../../graph.ts";
import { RouteTable, type Method } from "../table.ts";
import { fromGraphQLError, noRoute, wpError } from "./errors.ts";
import { isLocal, type GraphEndpoint, type RestRequest, type RestResult, type SiteEndpoint, type SiteRoute, type SiteUrls } from "./route.ts";
import { processArgs } from "./validation.ts";
import { readWithoutRegisteredFields } from "./kit/rest-fields.ts";
import { aliasOf, mergeOperations } from "./merge-operations.ts";
import type { UploadedFile } from "./multipart.ts";

export interface SiteRequest {
  method: string;
  /** Route path, e.g. "/core/v2/posts/5" ("/" for the index). */
  path: string;
  query: Record<string, unknown>;
  /** Parsed JSON body (JSON content types only). */
  json?: Record<string, unknown>;
  /** Form fields (urlencoded or multipart), or batch item bodies. */
  body?: Record<string, unknown>;
  /** Set when a JSON body did not parse. */
  jsonError?: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody?: Buffer;
  /** Files of a multipart body. */
  files?: Record<string, UploadedFile>;
}

/** The root field name of a single-field operation (its data arrives under it). */
function rootFieldOf(document: DocumentNode): string {
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const field = op.selectionSet.selections[0];
  if (field.kind !== Kind.FIELD) throw new Error("An endpoint's operation must select one root field");
  return (field.alias ?? field.name).value;
}

export const rootField = (endpoint: GraphEndpoint): string => rootFieldOf(endpoint.operation);

const operationKind = (document: DocumentNode) =>
  document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)?.operation;

export interface Prepared {
  route: SiteRoute;
  endpoint: SiteEndpoint;
  request: RestRequest;
  /** The route's named path parameters, as matched (probes of the route read them). */
  pathParams: Record<string, string>;
}

/** A probe as this request asks it: its document, the variables its path gives it, and its cache key. */
interface ProbeCall { probe: DocumentNode; variables: Record<string, unknown>; key: string }

const probeIds = new WeakMap<DocumentNode, number>();
let probeCount = 0;

/**
 * A probe as asked for one path (an item probe takes the path's ids, as WordPress's permission
 * callbacks read the request); null when there is nothing to ask. One probe with one set of
 * variables is asked once per request.
 */
function probeCall(allowed: SiteEndpoint["allowed"], pathParams: Record<string, string>, context: RouterContext): ProbeCall | null {
  if (!allowed?.probe) return null;
  const variables = allowed.variables ? allowed.variables(pathParams, context.identity) : {};
  if (variables === null) return null;
  let id = probeIds.get(allowed.probe);
  if (id === undefined) probeIds.set(allowed.probe, (id = ++probeCount));
  return { probe: allowed.probe, variables, key: `${id}:${JSON.stringify(variables)}` };
}

export class SiteRest {
  readonly table: RouteTable<SiteEndpoint>;

  constructor(routes: SiteRoute[], readonly execute: Execute, readonly urls: SiteUrls) {
    this.table = new RouteTable(routes, { caseInsensitive: true });
  }

  /** Probe answers of one request, by probe call: each runs at most once per request. */
  private readonly probes = new WeakMap<RouterContext, Map<string, Promise<unknown>>>();

  /** Runs a typed document for the REST layer itself (the index): its data, or null when it failed. */
  async query<Data, Variables extends Record<string, unknown>>(document: TypedDocumentNode<Data, Variables>, variables: Variables, context: RouterContext): Promise<Data | null> {
    const result = await this.execute(document as DocumentNode, variables, context);
    return (result.data as Data | null | undefined) ?? null;
  }

  /** The probe answers of this request, by call key (each call is asked at most once per request). */
  private asked(context: RouterContext): Map<string, Promise<unknown>> {
    const asked = this.probes.get(context) ?? new Map<string, Promise<unknown>>();
    this.probes.set(context, asked);
    return asked;
  }

  /** The probe calls of a route's endpoints, for this path, that this request has not asked yet. */
  private unasked(route: SiteRoute, pathParams: Record<string, string>, context: RouterContext): ProbeCall[] {
    const asked = this.asked(context);
    const calls = new Map<string, ProbeCall>();
    for (const e of route.endpoints) {
      const call = probeCall(e.allowed, pathParams, context);
      if (call && !asked.has(call.key)) calls.set(call.key, call);
    }
    return [...calls.values()];
  }

  /** Files the probes' answers, which arrive under aliases r{first}, r{first+1}… of `answer`. */
  private record(calls: ProbeCall[], answer: Promise<FormattedExecutionResult>, first: number, context: RouterContext): void {
    const asked = this.asked(context);
    calls.forEach((call, i) => asked.set(call.key, answer.then((result) => {
      const data = result.data as Record<string, unknown> | null | undefined;
      const value = data?.[aliasOf(first + i)];
      // A probe that could not be answered (e.g. an item the caller may not read) allows nothing.
      return value !== undefined && value !== null ? { [rootFieldOf(call.probe)]: value } : null;
    })));
  }

  /** Asks probe calls not yet asked, together as one query. */
  private ask(calls: ProbeCall[], context: RouterContext): Map<string, Promise<unknown>> {
    const asked = this.asked(context);
    const fresh = [...new Map(calls.map((c) => [c.key, c])).values()].filter((c) => !asked.has(c.key));
    if (fresh.length) {
      const merged = mergeOperations(fresh.map((c) => ({ operation: c.probe, variables: c.variables })), "query");
      this.record(fresh, this.execute(merged.document, merged.variables, context), 0, context);
    }
    return asked;
  }

  /** Whether the graph lets the caller do what `allowed` guards, on the path matched with `pathParams`. */
  async may(allowed: SiteEndpoint["allowed"], context: RouterContext, pathParams: Record<string, string> = {}): Promise<boolean> {
    if (!allowed) return true;
    if (!allowed.probe) return allowed.check(undefined);
    const call = probeCall(allowed, pathParams, context);
    if (!call) return false;
    const data = await this.ask([call], context).get(call.key);
    return data !== null && allowed.check(data);
  }

  /** Methods of a route the caller may use on this path (the `Allow` header), as the graph answers them. */
  async allow(route: SiteRoute, context: RouterContext, pathParams: Record<string, string> = {}): Promise<string> {
    this.ask(this.unasked(route, pathParams, context), context);
    const permitted = await Promise.all(route.endpoints.map((e) => this.may(e.allowed, context, pathParams)));
    return [...new Set(route.endpoints.filter((_e, i) => permitted[i]).flatMap((e) => e.methods))].join(", ");
  }

  /** Matches and validates a request; returns a ready request or the error response. */
  prepare(input: SiteRequest, context: RouterContext): Prepared | { error: RestResult; route?: SiteRoute; pathParams?: Record<string, string> } {
    const method = (input.method === "HEAD" ? "GET" : input.method) as Method;
    const path = input.path.length > 1 ? input.path.replace(/\/+$/, "") : input.path;
    const match = this.table.match(path, method);
    if (!match?.endpoint) return { error: noRoute() };
    if (input.jsonError !== undefined) {
      return { route: match.route, pathParams: match.pathParams, error: wpError("rest_invalid_json", "Invalid JSON body passed.", 400, { json_error_code: 4, json_error_message: input.jsonError }) };
    }
    const result = processArgs(match.endpoint.args, { json: input.json, body: input.body, query: input.query, url: match.pathParams }, { method, identity: context.identity });
    if (!result.ok) return { route: match.route, pathParams: match.pathParams, error: { status: result.error.data.status, body: result.error } };
    return {
      route: match.route,
      pathParams: match.pathParams,
      endpoint: match.endpoint,
      request: {
        method, path, params: result.params, sent: result.sent, query: input.query, headers: input.headers,
        identity: context.identity, rawBody: input.rawBody, files: input.files, urls: this.urls,
        may: (allowed) => this.may(allowed, context, match.pathParams),
      },
    };
  }

  /** Runs a prepared request's operation and shapes the response. */
  async run(prepared: Prepared, context: RouterContext): Promise<RestResult> {
    const { endpoint, request, route, pathParams } = prepared;
    if (isLocal(endpoint)) return endpoint.handle(request, context, this);
    const variables = endpoint.variables?.(request) ?? {};
    // A query carries its route's permission probes in the same document: one hop answers the
    // request and its Allow. (A mutation's Allow is asked after it ran, as WordPress computes it.)
    const probes = operationKind(endpoint.operation) === "query" ? this.unasked(route, pathParams, context) : [];
    if (!probes.length) {
      let result = await this.execute(endpoint.operation, variables, context);
      result = (await readWithoutRegisteredFields(endpoint, result.errors ?? [], (document) => this.execute(document, variables, context))) ?? result;
      return this.shape(endpoint, request, result.data ?? null, result.errors ?? []);
    }
    const merged = mergeOperations([{ operation: endpoint.operation, variables }, ...probes.map((c) => ({ operation: c.probe, variables: c.variables }))], "query");
    const answer = this.execute(merged.document, merged.variables, context);
    this.record(probes, answer, 1, context);
    const result = await answer;
    const own = aliasOf(0);
    const data = result.data ? { [rootField(endpoint)]: (result.data as Record<string, unknown>)[own] } : null;
    const errors = (result.errors ?? []).filter((e) => !e.path || e.path[0] === own);
    // Registered fields whose subgraph is down: the read again without them (kit/rest-fields.ts).
    const degraded = await readWithoutRegisteredFields(endpoint, errors, (document) => this.execute(document, variables, context));
    if (degraded) return this.shape(endpoint, request, (degraded.data ?? null) as Record<string, unknown> | null, degraded.errors ?? []);
    return this.shape(endpoint, request, data, errors);
  }

  /** Turns one operation's data (or first error) into the endpoint's REST response. */
  async shape(endpoint: GraphEndpoint, request: RestRequest, data: Record<string, unknown> | null, errors: readonly import("graphql").GraphQLFormattedError[]): Promise<RestResult> {
    if (errors.length > 0) return fromGraphQLError(errors[0]);
    const field = rootField(endpoint);
    if (!data || data[field] === undefined) return wpError("rest_internal_error", "The operation returned no result.", 500);
    return endpoint.respond(data, request);
  }

  /**
   * Runs prepared requests together: all their operations as one GraphQL document (queries or
   * mutations; mutation fields run in order), endpoints of the REST layer itself one by one.
   */
  async runTogether(items: Prepared[], context: RouterContext, kind: "query" | "mutation"): Promise<RestResult[]> {
    const graph = items.filter((p): p is Prepared & { endpoint: GraphEndpoint } => !isLocal(p.endpoint));
    const merged = mergeOperations(graph.map((p) => ({ operation: p.endpoint.operation, variables: p.endpoint.variables?.(p.request) ?? {} })), kind);
    const result = graph.length ? merged.unmerge(await this.execute(merged.document, merged.variables, context)) : { data: {}, errors: [] };
    return Promise.all(items.map(async (p) => {
      if (isLocal(p.endpoint)) return this.run(p, context);
      const alias = aliasOf(graph.indexOf(p as Prepared & { endpoint: GraphEndpoint }));
      const errors = (result.errors ?? []).filter((e) => e.path?.[0] === alias);
      const data = result.data ? { [rootField(p.endpoint)]: (result.data as Record<string, unknown>)[alias] } : null;
      return this.shape(p.endpoint, p.request, data, errors);
    }));
  }

  async dispatch(input: SiteRequest, context: RouterContext): Promise<{ result: RestResult; route?: SiteRoute; pathParams?: Record<string, string> }> {
    const prepared = this.prepare(input, context);
    if ("error" in prepared) return { result: prepared.error, route: prepared.route, pathParams: prepared.pathParams };
    return { result: await this.run(prepared, context), route: prepared.route, pathParams: prepared.pathParams };
  }
}
