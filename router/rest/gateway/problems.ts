// The gateway's error body. ESG runs API Platform, whose error shape changed between versions,
// so every error carries both generations' keys: Hydra (`@context`, `@type`, `hydra:title`,
// `hydra:description`) and RFC 7807 (`title`, `detail`, `status`). Validation failures are a
// 422 ConstraintViolationList with `violations[{propertyPath, message}]`.
import type { GraphQLFormattedError } from "graphql";
import { errorStatus, retryAfterHeaders } from "../../../lib/errors.ts";
import { API_BASE } from "./route.ts";

export interface Violation { propertyPath: string; message: string }

export class GatewayProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly violations?: Violation[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

const TITLE = "An error occurred";
const INTERNAL = "Internal Server Error";

export function problemBody(problem: GatewayProblem): Record<string, unknown> {
  const common = { "hydra:title": TITLE, "hydra:description": problem.detail };
  const rfc7807 = { title: TITLE, detail: problem.detail, status: problem.status };
  if (problem.violations) {
    return {
      "@context": `${API_BASE}/contexts/ConstraintViolationList`, "@type": "ConstraintViolationList",
      ...common, violations: problem.violations, ...rfc7807,
    };
  }
  return { "@context": `${API_BASE}/contexts/Error`, "@type": "hydra:Error", ...common, ...rfc7807 };
}

function isViolations(value: unknown): value is Violation[] {
  return Array.isArray(value) && value.every((v) => typeof v?.propertyPath === "string" && typeof v?.message === "string");
}

/** Maps a GraphQL error by the status its extensions carry; anything without one is an internal error, not shown. */
export function problemFromGraphQL(error: GraphQLFormattedError): GatewayProblem {
  const extensions = error.extensions as Record<string, unknown> | undefined;
  const status = errorStatus(extensions);
  if (status === undefined || status < 400 || status >= 500) return new GatewayProblem(500, INTERNAL);
  const violations = (extensions?.data as { violations?: unknown } | undefined)?.violations;
  return new GatewayProblem(status, error.message, isViolations(violations) ? violations : undefined, retryAfterHeaders(extensions));
}

/** Anything thrown while serving a request, as a problem: ours, a DomainError, or Fastify's own 4xx (body too large…). */
export function problemFrom(error: unknown): GatewayProblem {
  if (error instanceof GatewayProblem) return error;
  // Duck-typed: a DomainError may come from another copy of graphql (ESM and CJS builds).
  const extensions = (error as { extensions?: unknown } | null)?.extensions;
  if (error instanceof Error && typeof extensions === "object" && extensions !== null) {
    return problemFromGraphQL({ message: error.message, extensions: extensions as Record<string, unknown> });
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    return new GatewayProblem(statusCode, (error as Error).message);
  }
  return new GatewayProblem(500, INTERNAL);
}
