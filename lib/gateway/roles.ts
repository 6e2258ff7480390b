// The email gateway's user roles, as stored in GatewayUser.roles (GraphQL spells domain-admin as
// domain_admin): the one list the subgraph's checks, the REST declarations and the tests read.

/** Strongest first: a user's shown role is the first of these it holds. */
export const GATEWAY_ROLES = ["admin", "domain-admin", "user", "api"] as const;
export type GatewayRole = (typeof GATEWAY_ROLES)[number];

/** Sees and does everything. */
export const ADMIN_ROLE = "admin" satisfies GatewayRole;
/** Sees the mail of its domains (GatewayUser.domains). */
export const DOMAIN_ADMIN_ROLE = "domain-admin" satisfies GatewayRole;
/** No permissions of its own: acts as another user through X-Switch-User. */
export const API_ROLE = "api" satisfies GatewayRole;
