// One endpoint of the email gateway's /api/v2 route table: the route's auth and body rules, its
// OpenAPI operation, and how it serves a request (mostly: one typed GraphQL operation, run through
// `run`, whose result becomes a response in the format the client negotiated).
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { EndpointBase, Method, Route } from "../table.ts";
import type { OpenApiOperation } from "./openapi.ts";
import type { GatewayAccess } from "../../../lib/gateway/roles.ts";
import type { AnyResource } from "./resource.ts";

export const API_BASE = "/api/v2";

/** Response formats of API Platform, by Accept: JSON-LD/Hydra, HAL, plain JSON (bare arrays for lists). */
export type Format = "jsonld" | "hal" | "json";

export interface GatewayRequest {
  method: Method;
  /** Path as requested, e.g. "/api/v2/licensing/accounted-email". */
  path: string;
  pathParams: Record<string, string>;
  /** The query string, in the order sent (links repeat it). */
  query: URLSearchParams;
  /** Parsed JSON body, for endpoints that take one. */
  body: unknown;
  format: Format;
}

export interface GatewayResult { status?: number; body: unknown; headers?: Record<string, string> }

/** Runs one typed operation as the caller; GraphQL errors come back as thrown GatewayProblems. */
export type RunOperation = <Data, Variables>(operation: TypedDocumentNode<Data, Variables>, variables: Variables) => Promise<Data>;

export interface GatewayEndpoint extends EndpointBase {
  /** Requires X-ESG-Auth-Token (everything but login and the documentation). */
  auth: boolean;
  /**
   * Who may call it beyond being signed in (API Platform's `security`): checked before the query
   * or body is read, so a caller who may not call it is refused (403) and never learns the
   * validation rules. The subgraph checks again with the same rule; `selfOrAdmin` asks about
   * the user the `{id}` path parameter names.
   */
  access?: GatewayAccess;
  /** Takes a JSON request body. */
  body?: boolean;
  /** Answers in the format Accept picks (406 when none fits); otherwise always plain JSON. */
  negotiate?: boolean;
  /** The resource it serves, whose schemas the OpenAPI document carries. */
  resource?: AnyResource;
  /** Its OpenAPI Operation Object, derived from the same declaration. */
  openapi: OpenApiOperation;
  /** Serves a request; throws a GatewayProblem (or a DomainError) for bad input or a missing item. */
  handle(request: GatewayRequest, run: RunOperation): Promise<GatewayResult>;
}

export interface GatewayRoute extends Route<GatewayEndpoint> {
  /** OpenAPI path template under API_BASE, e.g. "/licensing/accounted-email/{id}". */
  path: string;
}

/**
 * A route under /api/v2 from a path template: each `{name}` matches what `params` gives it
 * (default one segment), compiled to the route table's regex form.
 */
export function route(path: string, endpoints: GatewayEndpoint[], params: Record<string, string> = {}): GatewayRoute {
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, name: string) => `(?P<${name}>${params[name] ?? "[^/]+"})`);
  return { namespace: "api/v2", pattern: `${API_BASE}${pattern}`, path, endpoints };
}

/** The routes with every endpoint restricted to `access` (an area whose operations all share one rule). */
export function restrictedTo(access: GatewayAccess, routes: GatewayRoute[]): GatewayRoute[] {
  return routes.map((r) => ({ ...r, endpoints: r.endpoints.map((e) => ({ access, ...e })) }));
}
