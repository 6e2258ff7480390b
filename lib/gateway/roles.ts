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

/**
 * Who may call an operation beyond being signed in, like API Platform's `security` on an
 * operation: administrators ("admin"); administrators and domain administrators ("mailAdmin":
 * release, recall, scan-analysis removal, §1.14); the user an operation is about, or an
 * administrator ("selfOrAdmin"). The subgraph's checks and the REST layer (which asks before it
 * reads a body) both decide with `grants`.
 */
export type GatewayAccess = "admin" | "mailAdmin" | "selfOrAdmin";

/** Whether a signed-in user with these roles may call an operation of that access (`subjectId`: the user it is about). */
export function grants(access: GatewayAccess, user: { userId: number; roles: readonly string[] }, subjectId?: number): boolean {
  const admin = user.roles.includes(ADMIN_ROLE);
  switch (access) {
    case "admin": return admin;
    case "mailAdmin": return admin || user.roles.includes(DOMAIN_ADMIN_ROLE);
    case "selfOrAdmin": return admin || user.userId === subjectId;
  }
}
