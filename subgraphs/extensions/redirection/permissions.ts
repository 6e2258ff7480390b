// Who may use redirection/v1. Every capability of the plugin (redirection_cap_*) resolves to
// WordPress's manage_options by default; a refusal is the REST server's rest_forbidden (401 for
// a visitor, 403 when signed in), as the plugin's permission callbacks only return false.
import { can } from "../../../lib/capabilities.ts";
import { fail } from "../../../lib/errors.ts";
import type { Identity } from "../../../lib/identity.ts";
import type { ExtensionsContext } from "../context.ts";

/** The plugin's capability names; all are manage_options here (the plugin's default filter). */
export type RedirectionCapability = "manage" | "add" | "delete";

export const canManageRedirection = (identity: Identity): boolean => can(identity.site?.roles, "manage_options", identity.site?.scope);

export function requireRedirection(ctx: ExtensionsContext, _capability: RedirectionCapability = "manage"): void {
  if (canManageRedirection(ctx.identity)) return;
  fail("rest_forbidden", { signedIn: ctx.identity.site !== undefined });
}
