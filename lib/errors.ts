// Domain errors carry a stable machine code and an HTTP status. Subgraphs throw them; they
// reach clients as GraphQL errors with `extensions.code` and `extensions.http.status`, and the
// REST layers turn them back into each system's own error body.
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
      extensions: { code, http: { status }, ...(details.data ? { data: details.data } : {}), ...(details.additional ? { additional: details.additional } : {}) },
    });
  }
}

export const fail = (code: string, message: string, status: number, details?: ErrorDetails): never => {
  throw new DomainError(code, message, status, details);
};
