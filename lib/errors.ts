// Domain errors are plain errors carrying a stable machine code and an HTTP status. At the GraphQL
// edge graphql-js copies an error's `extensions` into the response (as `extensions.code` and
// `extensions.status`; not `extensions.http`, which Apollo Server would turn into the subgraph's
// own HTTP status and so break the gateway's fetch); the router shows clients both
// `extensions.status` and `extensions.http.status`, and each REST dialect turns them into its own
// error body.
import { GraphQLError } from "graphql";
import { DENIED, ERROR_CODES, type ErrorCode } from "./error-codes.ts";

export interface ErrorDetails {
  /** Extra members for the REST error body (WordPress `data`, gateway violations…). */
  data?: Record<string, unknown>;
  /** Further errors reported together with this one (WordPress `additional_errors`). */
  additional?: { code: string; message: string; status: number; data?: Record<string, unknown> }[];
}

export interface DomainErrorExtensions {
  [key: string]: unknown;
  code: string;
  status: number;
  data?: Record<string, unknown>;
  additional?: ErrorDetails["additional"];
}

export class DomainError extends Error {
  /** What GraphQL shows as the error's `extensions` (graphql-js copies them from the original error). */
  readonly extensions: DomainErrorExtensions;

  constructor(code: string, message: string, status: number, details: ErrorDetails = {}) {
    super(message);
    this.name = "DomainError";
    this.extensions = { code, status, ...(details.data ? { data: details.data } : {}), ...(details.additional ? { additional: details.additional } : {}) };
  }
}

/**
 * A domain error as a GraphQL error, for the places outside resolvers (request context) that need
 * one. `httpStatus` makes it the HTTP status of the response: right at the router, the clients'
 * edge; never at a subgraph, whose own HTTP status would break the gateway's fetch.
 */
export const toGraphQLError = (error: DomainError, options: { httpStatus?: boolean } = {}): GraphQLError =>
  new GraphQLError(error.message, {
    extensions: {
      ...error.extensions,
      ...(options.httpStatus ? { http: { status: error.extensions.status, headers: new Map(Object.entries(retryAfterHeaders(error.extensions))) } } : {}),
    },
    originalError: error,
  });

/** `Retry-After` for an error that says when to try again (`data.retryAfter`, seconds), for every edge. */
export function retryAfterHeaders(extensions: Record<string, unknown> | undefined): Record<string, string> {
  const seconds = (extensions?.data as { retryAfter?: unknown } | undefined)?.retryAfter;
  return typeof seconds === "number" ? { "Retry-After": String(seconds) } : {};
}

/** The HTTP status an error's extensions carry, if any. */
export function errorStatus(extensions: Record<string, unknown> | undefined): number | undefined {
  const status = extensions?.status ?? (extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

export interface FailOptions extends ErrorDetails {
  /** Where WordPress words this code differently by context. */
  message?: string;
  /** Where WordPress answers this code with another status in one place. */
  status?: number;
  /** For refusals (registered as DENIED): 403 when signed in, 401 when anonymous. */
  signedIn?: boolean;
}

/** The registered error `code` (lib/error-codes.ts), with its status and default message. */
export function domainError(code: ErrorCode, options: FailOptions = {}): DomainError {
  const spec = ERROR_CODES[code];
  const status = options.status ?? (spec.status === DENIED ? (options.signedIn ? 403 : 401) : spec.status);
  return new DomainError(code, options.message ?? spec.message, status, options);
}

/** Throws the registered error `code`; the registry supplies status and message. */
export function fail(code: ErrorCode, options?: FailOptions): never {
  throw domainError(code, options);
}

/**
 * An argument outside its bounds, shaped as WordPress's rest_invalid_param (`params` and `details`
 * keyed by the argument's name), for callers that skip the REST argument validation.
 */
export function invalidParam(param: string, reason: string, innerCode: ErrorCode = "rest_out_of_bounds"): DomainError {
  return domainError("rest_invalid_param", {
    message: `Invalid parameter(s): ${param}`,
    data: { params: { [param]: reason }, details: { [param]: { code: innerCode, message: reason, data: { status: 400 } } } },
  });
}
