// Who may manage languages. Polylang maps its `manage_languages` to WordPress's `manage_options`;
// a refusal is 401 for an anonymous caller and 403 for a signed-in one (rest_authorization_required_code).
import { can } from "../../../lib/capabilities.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { fail } from "../../../lib/errors.ts";
import type { Identity } from "../../../lib/identity.ts";
import type { ExtensionsContext } from "../context.ts";

export const canManageLanguages = (identity: Identity): boolean => can(identity.site?.roles, "manage_options", identity.site?.scope);

/** The refusals, with Polylang's own codes and messages. */
const REFUSALS = {
  create: ["rest_cannot_create", "Sorry, you are not allowed to create a language."],
  update: ["rest_cannot_update", "Sorry, you are not allowed to edit this language."],
  delete: ["rest_cannot_delete", "Sorry, you are not allowed to delete this language."],
  editContext: ["rest_forbidden_context", "Sorry, you are not allowed to edit languages."],
  settings: ["rest_forbidden_context", "Sorry, you are not allowed to edit options."],
} as const satisfies Record<string, readonly [ErrorCode, string]>;

export function requireManageLanguages(ctx: ExtensionsContext, action: keyof typeof REFUSALS): void {
  if (canManageLanguages(ctx.identity)) return;
  const [code, message] = REFUSALS[action];
  fail(code, { message, signedIn: ctx.identity.site !== undefined });
}
