// Every error code the email gateway raises, with its HTTP status and default message (the site's
// are lib/error-codes.ts). GraphQL shows them as `extensions.code`/`extensions.status`; /api/v2
// turns them into its Hydra/RFC 7807 body by status, with the message as `detail`.
import { DomainError, type ErrorDetails } from "../errors.ts";

export const GATEWAY_ERROR_CODES = {
  gateway_token_required: { status: 401, message: "An auth token is required (X-ESG-Auth-Token)." },
  gateway_token_invalid: { status: 401, message: "The auth token is not valid." },
  // Lowercase "token" and "expired": existing ESG clients sign in again on exactly that wording.
  gateway_token_expired: { status: 401, message: "The auth token has expired." },
  gateway_invalid_credentials: { status: 401, message: "Invalid credentials." },
  gateway_forbidden: { status: 403, message: "Access Denied." },
  gateway_router_only: { status: 403, message: "Only the router may check gateway tokens." },
  /** Filters, values, directions or a body broke the rules; `extensions.data.violations` lists each. */
  constraint_violation: { status: 422, message: "The input violates the constraints." },
  /** Paging outside its bounds (Apollo's code for bad arguments, so GraphQL clients recognise it). */
  BAD_USER_INPUT: { status: 400, message: "Invalid input." },
  invalid_datetime: { status: 400, message: "A DateTime must be RFC 3339 with an offset, or YYYY-MM-DD." },
} as const satisfies Record<string, { status: number; message: string }>;

export type GatewayErrorCode = keyof typeof GATEWAY_ERROR_CODES;

/** The registered gateway error `code`; `message` only where the case words it more precisely. */
export function gatewayError(code: GatewayErrorCode, message?: string, details?: ErrorDetails): DomainError {
  const spec = GATEWAY_ERROR_CODES[code];
  return new DomainError(code, message ?? spec.message, spec.status, details);
}

export function gatewayFail(code: GatewayErrorCode, message?: string, details?: ErrorDetails): never {
  throw gatewayError(code, message, details);
}
