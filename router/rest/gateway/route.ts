// One endpoint of the email gateway's /api/v2 route table: the route's auth and body rules, the
// one GraphQL operation it maps to, how the request becomes variables and how the result
// becomes a response in the format the client negotiated.
import type { DocumentNode } from "graphql";
import type { EndpointBase, Method, Route } from "../table.ts";

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

export interface GatewayEndpoint extends EndpointBase {
  /** Requires X-ESG-Auth-Token (everything but login). */
  auth: boolean;
  /** Takes a JSON request body. */
  body?: boolean;
  /** Answers in the format Accept picks (406 when none fits); otherwise always plain JSON. */
  negotiate?: boolean;
  /** The single GraphQL operation this endpoint maps to (one root field). */
  operation: DocumentNode;
  /** GraphQL variables; throws a GatewayProblem for bad input. */
  variables(request: GatewayRequest): Record<string, unknown>;
  /** REST response from the operation's data; throws a GatewayProblem (e.g. 404). */
  respond(data: Record<string, unknown>, request: GatewayRequest): GatewayResult;
}

export type GatewayRoute = Route<GatewayEndpoint>;

/** Declares a route under /api/v2; `path` is a pattern in the route table's regex form. */
export function route(path: string, endpoints: GatewayEndpoint[]): GatewayRoute {
  return { namespace: "api/v2", pattern: `${API_BASE}${path}`, endpoints };
}
