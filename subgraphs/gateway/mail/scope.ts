// Whose mail a caller may see (email-gateway-api.md §2): an administrator every message, a domain
// administrator the messages that involve its domains, a user the messages it sent or received.
// Outside the scope a message does not exist for the caller (404, never 403).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { normaliseAddress } from "../../../lib/gateway/addresses.ts";
import { ADMIN_ROLE, DOMAIN_ADMIN_ROLE, grants } from "../../../lib/gateway/roles.ts";
import type { GatewayIdentity } from "../../../lib/identity.ts";
import { OTP_ENROLLMENT_ROLE } from "../auth/sessions.ts";
import type { GatewayContext } from "../context.ts";

export type MailScope =
  | { kind: "all"; user: GatewayIdentity }
  | { kind: "domains"; user: GatewayIdentity; domains: string[] }
  | { kind: "addresses"; user: GatewayIdentity; addresses: string[] };

/** The signed-in gateway user's scope (401 without a token). */
export async function mailScope(ctx: Pick<GatewayContext, "db" | "identity">): Promise<MailScope> {
  const user = ctx.identity.gateway;
  if (!user) return fail("gateway_token_required");
  // A session that must first set up its mandatory OTP may do only that: no mail, not even its own.
  if (user.roles.includes(OTP_ENROLLMENT_ROLE)) return fail("gateway_forbidden");
  if (user.roles.includes(ADMIN_ROLE)) return { kind: "all", user };
  const row = await ctx.db.prisma.gatewayUser.findUnique({ where: { id: user.userId }, select: { email: true, domains: true, username: true } });
  if (user.roles.includes(DOMAIN_ADMIN_ROLE)) return { kind: "domains", user, domains: (row?.domains ?? []).map(normaliseAddress) };
  const addresses = [row?.email, row?.username].filter((a): a is string => !!a && a.includes("@")).map(normaliseAddress);
  return { kind: "addresses", user, addresses: [...new Set(addresses)] };
}

/** Administrators and domain administrators (release, scan-analysis removal, §1.14). */
export function requireMailAdmin(scope: MailScope): void {
  if (!grants("mailAdmin", scope.user)) fail("gateway_forbidden");
}

/** Administrators only (ingest, purge). */
export function requireAdministrator(scope: MailScope): void {
  if (!grants("admin", scope.user)) fail("gateway_forbidden");
}

/** The scope as a `where` on messages (undefined for everything). */
export function scopeWhere(scope: MailScope): Prisma.GatewayMessageWhereInput | undefined {
  switch (scope.kind) {
    case "all": return undefined;
    case "domains": return { addresses: { some: { domain: { in: scope.domains } } } };
    case "addresses": return { addresses: { some: { address: { in: scope.addresses } } } };
  }
}

/**
 * Whether the envelope is shown, or the From header instead (§1.11: "message lists for
 * non-administrators show the From header"): administrators and domain administrators see the
 * envelope, users do not.
 */
export const showsEnvelope = (scope: MailScope): boolean => scope.kind !== "addresses";
