// One endpoint of the site (WordPress-style) route table. Everything about a route is here:
// its argument schema (validation, coercion and the index are derived from it), whether it may
// be batched, the one GraphQL operation it maps to, and how the result becomes a REST response.
import type { DocumentNode } from "graphql";
import type { EndpointBase, Method, Route } from "../table.ts";
import type { Identity } from "../../../lib/identity.ts";
import type { RouterContext } from "../../graph.ts";
import type { SiteRest } from "./dispatch.ts";
import type { UploadedFile } from "./multipart.ts";

/**
 * Arguments after validation: every value was checked and coerced against the route's own
 * argument schema, so the arguments every WordPress collection and item route shares are typed
 * as their schemas make them; a route's own arguments are `unknown` until it reads them.
 */
export interface ValidatedParams {
  readonly [name: string]: unknown;
  readonly context?: "view" | "embed" | "edit";
  readonly page?: number;
  readonly per_page?: number;
  readonly offset?: number;
  readonly search?: string;
  readonly order?: "asc" | "desc";
  readonly orderby?: string;
  /** An item route's id (a string only where a route leaves its path id undeclared). */
  readonly id?: number;
  readonly parent?: number;
  readonly force?: boolean;
  readonly include?: number[];
  readonly exclude?: number[];
}

/** An operation's `data` as it arrives; `op` (kit/crud.ts) reads it as the typed document's result. */
export type OperationData = Record<string, unknown>;

export type JsonType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "null";

/** An argument schema: the subset of JSON Schema (draft 4) that WordPress's REST server applies. */
export interface ArgSchema {
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  format?: "date-time" | "uri" | "email" | "ip" | "uuid" | "hex-color" | "text-field" | "textarea-field";
  enum?: readonly unknown[];
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  additionalProperties?: boolean | ArgSchema;
  patternProperties?: Record<string, ArgSchema>;
  minProperties?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  oneOf?: ArgSchema[];
  anyOf?: ArgSchema[];
  default?: unknown;
  /** true/false for an argument; a list of property names inside an object schema (JSON Schema draft 4). */
  required?: boolean | readonly string[];
  /** Contexts a field appears in (kept in nested schemas, as WordPress does in the index). */
  context?: string[];
  readonly?: boolean;
  /**
   * WordPress `validate_callback`: runs in the validate phase (before sanitizing). Return an
   * error to reject the value (reported as rest_invalid_param), or nothing to accept it.
   */
  validate?: (value: unknown, request: ArgCheckRequest, name: string) => ArgError | void;
  /** WordPress `sanitize_callback` after schema sanitizing; may reject with an error. */
  sanitize?: (value: unknown, request: ArgCheckRequest, name: string) => unknown | ArgError;
  /** Turns off schema validation and sanitizing (WordPress does this for title/content/excerpt). */
  skipValidation?: boolean;
}

/** An inner validation error, as reported in `data.params` / `data.details` of rest_invalid_param. */
export interface ArgError { code: string; message: string; data?: Record<string, unknown> | null }

export interface ArgCheckRequest { method: Method; identity: Identity; params: Record<string, unknown> }

/** What an endpoint's functions see: the validated, coerced arguments and the caller. */
export interface RestRequest {
  method: Method;
  /** The route path that was requested, e.g. "/core/v2/posts/5". */
  path: string;
  /** Validated and sanitized arguments (defaults applied), by their REST names. */
  params: ValidatedParams;
  /** Which params were actually sent (not defaults). */
  sent: ReadonlySet<string>;
  /** Raw query string parameters (for the Link header, which repeats them). */
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  identity: Identity;
  /** Raw request body, for endpoints that take files. */
  rawBody?: Buffer;
  /** Files of a multipart/form-data body, by field name (WordPress's get_file_params). */
  files?: Record<string, UploadedFile>;
  /** Absolute URL helpers bound to the site's address and REST root. */
  urls: SiteUrls;
  /** Whether the graph lets the caller do what `allowed` guards (probes asked once per request). */
  may(allowed: EndpointCommon["allowed"]): Promise<boolean>;
}

export interface SiteUrls {
  /** http://site/wp-json */
  restBase: string;
  /** http://site/wp-json/core/v2/posts… */
  rest(path: string): string;
  /** The site's home address (no trailing slash). */
  home: string;
}

export interface RestResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * A body sent as it is instead of JSON (oEmbed's XML, an export's zip), as WordPress's
   * rest_pre_serve_request filters serve; `_envelope`, `_fields` and `_jsonp` still get `body`.
   */
  raw?: { contentType: string; data: string | Buffer };
}

/**
 * Whether the caller passes an endpoint's permission check, for the `Allow` header only (the
 * subgraph enforces permissions itself): the answer of a query of the graph (`probe`), read by
 * `check`. Built with `allowedBy` (kit/operation.ts).
 */
export interface GraphAllow {
  probe?: DocumentNode;
  /**
   * The probe's variables from the matched path (an item probe takes the item's id, as WordPress's
   * permission callbacks read the request); null when nothing can be asked (allows nothing).
   */
  variables?: (pathParams: Readonly<Record<string, string>>, identity: Identity) => Record<string, unknown> | null;
  check(data: unknown): boolean;
}

interface EndpointCommon extends EndpointBase {
  args: Record<string, ArgSchema>;
  /** Endpoint may be addressed by batch/v1 (`allow_batch: {v1: true}` in the index). */
  allowBatch?: boolean;
  /** Who may use the endpoint, as the graph answers it; omitted means "anyone". */
  allowed?: GraphAllow;
}

/** An endpoint that is one operation of the graph (nearly all of them). */
export interface GraphEndpoint extends EndpointCommon {
  /** The single GraphQL operation this endpoint maps to (one root field). */
  operation: DocumentNode;
  /** GraphQL variables from the validated request. */
  variables?: (request: RestRequest) => Record<string, unknown>;
  /** REST response from the operation's data (the root field's value is `data[field]`). */
  respond: (data: OperationData, request: RestRequest) => RestResult | Promise<RestResult>;
}

/** An endpoint the REST layer answers itself because it composes other routes (the index, batch). */
export interface LocalEndpoint extends EndpointCommon {
  handle(request: RestRequest, context: RouterContext, site: SiteRest): Promise<RestResult>;
}

export type SiteEndpoint = GraphEndpoint | LocalEndpoint;

export const isLocal = (e: SiteEndpoint): e is LocalEndpoint => "handle" in e;

/** WordPress's item schema of a route (its `schema` member): OPTIONS, `?context=help` and OpenAPI show it. */
export interface ItemSchema {
  $schema: "http://json-schema.org/draft-04/schema#";
  title: string;
  type: "object";
  properties: Record<string, ArgSchema>;
}

export interface SiteRoute extends Route<SiteEndpoint> {
  /** The resource the route serves, as WordPress's `get_public_item_schema` gives it. */
  schema?: ItemSchema;
  /**
   * The route's own way of serving what it answered, success or error (WordPress's
   * rest_pre_serve_request filter, e.g. oEmbed's XML); `query` is the request's query string.
   */
  serve?: (result: RestResult, query: Record<string, unknown>) => RestResult;
}

/** Declares a site route; `namespace` is prefixed to `path` to form the pattern. */
export function route(namespace: string, path: string, endpoints: SiteEndpoint[], schema?: ItemSchema): SiteRoute {
  return { namespace, pattern: `/${namespace}${path}`, endpoints, ...(schema ? { schema } : {}) };
}

export const READABLE: Method[] = ["GET"];
export const CREATABLE: Method[] = ["POST"];
export const EDITABLE: Method[] = ["POST", "PUT", "PATCH"];
export const DELETABLE: Method[] = ["DELETE"];
