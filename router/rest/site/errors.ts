// WordPress REST error bodies: `{code, message, data:{status,…}}` (+ `additional_errors`),
// built from our own checks or from GraphQL errors (by their extensions.code).
import type { GraphQLFormattedError } from "graphql";
import type { RestResult } from "./route.ts";
import { errorStatus, retryAfterHeaders } from "../../../lib/errors.ts";

export interface WpErrorBody {
  code: string;
  message: string;
  data: ({ status: number } & Record<string, unknown>) | null;
  additional_errors?: { code: string; message: string; data: Record<string, unknown> | null }[];
}

export const wpError = (code: string, message: string, status: number, data: Record<string, unknown> = {}): RestResult => ({
  status, body: { code, message, data: { status, ...data } } satisfies WpErrorBody,
});

export const noRoute = (): RestResult => wpError("rest_no_route", "No route was found matching the URL and request method.", 404);

interface ErrorExtensions {
  code?: string;
  data?: Record<string, unknown>;
  additional?: { code: string; message: string; status: number; data?: Record<string, unknown> }[];
}

/**
 * A GraphQL error as WordPress would have answered it. An error that names a `param` happened
 * while WordPress would still be sanitizing arguments, so it is wrapped in rest_invalid_param
 * (status 400, the inner status kept only in `details`), exactly as WordPress reports it.
 */
export function fromGraphQLError(error: GraphQLFormattedError): RestResult {
  const ext = (error.extensions ?? {}) as ErrorExtensions;
  const status = errorStatus(error.extensions) ?? (ext.code === "GRAPHQL_VALIDATION_FAILED" || ext.code === "BAD_USER_INPUT" ? 400 : 500);
  const code = ext.code && ext.code !== "INTERNAL_SERVER_ERROR" ? ext.code : "rest_internal_error";
  const { param, ...data } = ext.data ?? {};
  if (typeof param === "string") {
    return wpError("rest_invalid_param", `Invalid parameter(s): ${param}`, 400, {
      params: { [param]: error.message },
      details: { [param]: { code, message: error.message, data: { status } } },
    });
  }
  const message = status >= 500 && errorStatus(error.extensions) === undefined ? "An internal error occurred." : error.message;
  const body: WpErrorBody = { code, message, data: { status, ...data } };
  if (ext.additional?.length) {
    body.additional_errors = ext.additional.map((a) => ({ code: a.code, message: a.message, data: { status: a.status, ...a.data } }));
  }
  const headers = retryAfterHeaders(error.extensions);
  return { status, body, ...(Object.keys(headers).length ? { headers } : {}) };
}
