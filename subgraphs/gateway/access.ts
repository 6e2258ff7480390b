// Who may call what in the email gateway subgraph. The router authenticates; these checks
// run on the verified identity it signed.
import type { GatewayIdentity, Identity } from "../../lib/identity.ts";
import { fail } from "../../lib/errors.ts";
import { grants } from "../../lib/gateway/roles.ts";

/** Token checks are for the router only: anyone else could use them to probe tokens. */
export function requireRouter(identity: Identity): void {
  if (!identity.router) fail("gateway_router_only");
}

/** Licensing data and configuration are for gateway administrators. */
export function requireGatewayAdmin(identity: Identity): GatewayIdentity {
  const user = identity.gateway;
  if (!user) return fail("gateway_token_required");
  if (!grants("admin", user)) return fail("gateway_forbidden");
  return user;
}

/** Any signed-in gateway user (a session that must first set up OTP included). */
export function requireGatewayUser(identity: Identity): GatewayIdentity {
  return identity.gateway ?? fail("gateway_token_required");
}

/** An administrator, or the user `userId` themselves. */
export function requireSelfOrAdmin(identity: Identity, userId: number): GatewayIdentity {
  const user = requireGatewayUser(identity);
  if (!grants("selfOrAdmin", user, userId)) return fail("gateway_forbidden");
  return user;
}
