// Domain errors carry a stable machine code and an HTTP status. Subgraphs throw them with
// `extensions.status` (not `extensions.http`, which Apollo Server would turn into the subgraph's
// own HTTP status and so break the gateway's fetch); the router shows clients both
// `extensions.status` and `extensions.http.status`, and the REST layers turn them back into
// each system's own error body.
import { GraphQLError } from "graphql";

export interface ErrorDetails {
  /** Extra members for the REST error body (WordPress `data`, gateway violations…). */
  data?: Record<string, unknown>;
  /** Further errors reported together with this one (WordPress `additional_errors`). */
  additional?: { code: string; message: string; status: number; data?: Record<string, unknown> }[];
}

export class DomainError extends GraphQLError {
  constructor(code: string, message: string, status: number, details: ErrorDetails = {}) {
    super(message, {
      extensions: { code, status, ...(details.data ? { data: details.data } : {}), ...(details.additional ? { additional: details.additional } : {}) },
    });
  }
}

/** The HTTP status an error's extensions carry, if any. */
export function errorStatus(extensions: Record<string, unknown> | undefined): number | undefined {
  const status = extensions?.status ?? (extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

export const fail = (code: string, message: string, status: number, details?: ErrorDetails): never => {
  throw new DomainError(code, message, status, details);
};
