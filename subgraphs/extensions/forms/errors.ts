// The forms, consent and downloads plugins' own error codes, raised as domain errors with the
// plugins' codes and messages. Ninja Forms raises malformed_request and handler_not_recognized as
// WP_Errors without a status, which WordPress answers 500; here they are what they are, the
// client's mistake (400), since no input may make a 5xx. Kept beside the areas that raise them.
import { DomainError, domainError } from "../../../lib/errors.ts";
import type { Identity } from "../../../lib/identity.ts";

const PLUGIN_ERRORS = {
  malformed_request: [400, "This request is missing data"],
  form_not_found: [404, "Form not found"],
  unauthorized_form_access: [403, "You do not have access to this form"],
  invalid_token: [401, "Invalid or expired token"],
  invalid_form_id: [400, "Valid form ID is required"],
  rate_limit_exceeded: [429, "Too many requests. Please try again later."],
  submission_not_found: [404, "Submission not found"],
  handler_not_recognized: [400, "Submission handler not recognized."],
  rest_invalid_portalid: [400, "Invalid Portal or Object ID"],
  unauthorized: [401, "401 Unauthorized!"],
  invalid_signature: [401, "Invalid signature."],
  action_not_allowed: [204, "No Content!"],
  rest_invalid_date: [400, "Invalid date."],
  invalid_value: [400, "Invalid value."],
  cookieyes_rest_cannot_create: [401, "Sorry, you are not allowed to create resources."],
} as const satisfies Record<string, readonly [number, string]>;

export type PluginErrorCode = keyof typeof PLUGIN_ERRORS;

export function pluginError(code: PluginErrorCode, options: { message?: string; status?: number; data?: Record<string, unknown> } = {}): never {
  const [status, message] = PLUGIN_ERRORS[code];
  throw new DomainError(code, options.message ?? message, options.status ?? status, options.data ? { data: options.data } : {});
}

/** WordPress's refusal of a permission callback: rest_forbidden, 401 anonymous / 403 signed in. */
export function forbidden(identity: Identity): never {
  throw domainError("rest_forbidden", { signedIn: identity.site !== undefined });
}
