// Who may manage forms: Ninja Forms' submissions routes and Formidable's settings need
// manage_options (each plugin's capability filter defaults to it).
import { can } from "../../../lib/capabilities.ts";
import type { Identity } from "../../../lib/identity.ts";
import type { ExtensionsContext } from "../context.ts";
import { forbidden } from "./errors.ts";

export const canManageForms = (identity: Identity): boolean => can(identity.site?.roles, "manage_options", identity.site?.scope);

export function requireManageForms(ctx: ExtensionsContext): void {
  if (!canManageForms(ctx.identity)) forbidden(ctx.identity);
}
