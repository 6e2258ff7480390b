// Users of the management interface: roles (administrator, domain administrator, user, and API
// users that act through X-Switch-User), profile (full name, identity provider), and how OTP
// stands for each. Administrators manage users; everyone reads themselves.
import crypto from "node:crypto";
import type { GatewayUser, GatewayUserProfile, Prisma } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { IDENTITY_PROVIDERS } from "../../../lib/gateway/appliance.ts";
import { pageWindow, violationError, type Violation } from "../../../lib/gateway/collection-rules.ts";
import { MAX_ADDRESS_LENGTH } from "../../../lib/gateway/licensing.ts";
import { buildCollectionQuery, type ColumnSpec, type FilterInput, type OrderInput } from "../collection-query.ts";
import type { GatewayContext } from "../context.ts";
import { hashPassword } from "../auth/passwords.ts";
import { appliedOtpPolicy, otpState, type OtpPolicy, type OtpState } from "./otp.ts";

import { GATEWAY_ROLES as ROLES, type GatewayRole as Role } from "../../../lib/gateway/roles.ts";

export { ROLES, type Role };
export const MIN_PASSWORD_LENGTH = 8;
const USERNAME = /^[A-Za-z0-9._@+-]{1,180}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

export interface UserView {
  id: number;
  username: string;
  fullName: string;
  email: string | null;
  role: Role;
  domains: string[];
  identityProvider: string;
  otp: OtpState;
  createdAt: Date;
}

/** The single role shown: the strongest the user holds. */
export const roleOf = (roles: readonly string[]): Role =>
  ROLES.find((r) => roles.includes(r)) ?? "user";

export function userView(user: GatewayUser, profile: GatewayUserProfile | null | undefined, policy: OtpPolicy): UserView {
  return {
    id: user.id, username: user.username, fullName: profile?.fullName ?? "", email: user.email, role: roleOf(user.roles),
    domains: user.domains, identityProvider: profile?.identityProvider ?? "local",
    otp: otpState(profile ? { identityProvider: profile.identityProvider, otpEnabledAt: profile.otpEnabledAt } : null, policy, user.username),
    createdAt: user.createdAt,
  };
}

type Ctx = Pick<GatewayContext, "db">;

async function views(ctx: Ctx, users: GatewayUser[]): Promise<UserView[]> {
  const [profiles, policy] = await Promise.all([
    ctx.db.prisma.gatewayUserProfile.findMany({ where: { userId: { in: users.map((u) => u.id) } } }),
    appliedOtpPolicy(ctx),
  ]);
  const byId = new Map(profiles.map((p) => [p.userId, p]));
  return users.map((u) => userView(u, byId.get(u.id), policy));
}

export async function userById(ctx: Ctx, id: number): Promise<UserView | null> {
  const user = await ctx.db.prisma.gatewayUser.findUnique({ where: { id } });
  return user ? (await views(ctx, [user]))[0] : null;
}

export type UserField = "id" | "username" | "email" | "createdAt";
const COLUMNS: Record<UserField, ColumnSpec<GatewayUser>> = {
  id: { column: "id", type: "integer" },
  username: { column: "username", type: "string" },
  email: { column: "email", type: "string", format: "email" },
  createdAt: { column: "createdAt", type: "datetime" },
};

export interface UserQuery {
  filter?: Partial<Record<UserField, readonly FilterInput[] | null>> | null;
  order?: readonly OrderInput<UserField>[] | null;
  page: number;
  itemsPerPage: number;
}

export async function listUsers(ctx: Ctx, query: UserQuery) {
  const window = pageWindow(query.page, query.itemsPerPage);
  const built = buildCollectionQuery(COLUMNS, query.filter, query.order);
  const where = { AND: built.where } as Prisma.GatewayUserWhereInput;
  const [rows, totalItems] = await Promise.all([
    ctx.db.prisma.gatewayUser.findMany({ where, orderBy: built.orderBy as Prisma.GatewayUserOrderByWithRelationInput[], skip: window.skip, take: window.take }),
    ctx.db.prisma.gatewayUser.count({ where }),
  ]);
  return { items: await views(ctx, rows), totalItems, page: window.page, itemsPerPage: window.itemsPerPage };
}

export interface UserInput {
  username?: string | null;
  password?: string | null;
  fullName?: string | null;
  email?: string | null;
  role?: string | null;
  domains?: readonly string[] | null;
  identityProvider?: string | null;
}

function validate(input: UserInput, creating: boolean): Violation[] {
  const v: Violation[] = [];
  if (creating || input.username != null) {
    if (!input.username || !USERNAME.test(input.username)) v.push({ propertyPath: "username", message: "The username must have 1 to 180 letters, digits or . _ @ + -." });
  }
  if (input.password != null && input.password.length < MIN_PASSWORD_LENGTH) v.push({ propertyPath: "password", message: `The password must have at least ${MIN_PASSWORD_LENGTH} characters.` });
  if (creating && input.identityProvider !== "external" && !input.password) v.push({ propertyPath: "password", message: "A password is required for a local user." });
  if (input.fullName != null && input.fullName.length > 255) v.push({ propertyPath: "fullName", message: "The full name must have at most 255 characters." });
  if (input.email != null && input.email !== "") {
    if (input.email.length > MAX_ADDRESS_LENGTH) v.push({ propertyPath: "email", message: `The address "${input.email.slice(0, 64)}…" is longer than ${MAX_ADDRESS_LENGTH} characters.` });
    else if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.email)) v.push({ propertyPath: "email", message: "This value is not a valid email address." });
  }
  if (input.role != null && !(ROLES as readonly string[]).includes(input.role)) v.push({ propertyPath: "role", message: `The value you selected is not a valid choice; allowed: ${ROLES.join(", ")}.` });
  if (input.identityProvider != null && !(IDENTITY_PROVIDERS as readonly string[]).includes(input.identityProvider)) {
    v.push({ propertyPath: "identityProvider", message: `The value you selected is not a valid choice; allowed: ${IDENTITY_PROVIDERS.join(", ")}.` });
  }
  for (const d of input.domains ?? []) if (!DOMAIN.test(d.toLowerCase())) v.push({ propertyPath: "domains", message: `"${d.slice(0, 64)}" is not a domain name.` });
  return v;
}

export async function createUser(ctx: Ctx, input: UserInput): Promise<UserView> {
  const violations = validate(input, true);
  if (input.username && await ctx.db.prisma.gatewayUser.findUnique({ where: { username: input.username } })) {
    violations.push({ propertyPath: "username", message: "This username is already used." });
  }
  if (violations.length) throw violationError(violations);
  // External identity provider users never sign in with a password here: a random one nobody knows.
  const password = input.password ?? crypto.randomBytes(24).toString("base64url");
  const role = (input.role ?? "user") as Role;
  const user = await ctx.db.prisma.gatewayUser.create({
    data: {
      username: input.username!, passwordHash: await hashPassword(password), roles: [role],
      email: input.email || null, domains: (input.domains ?? []).map((d) => d.toLowerCase()),
    },
  });
  await ctx.db.prisma.gatewayUserProfile.create({ data: { userId: user.id, fullName: input.fullName?.trim() ?? "", identityProvider: input.identityProvider ?? "local" } });
  return (await userById(ctx, user.id))!;
}

export async function updateUser(ctx: Pick<GatewayContext, "db" | "identity">, id: number, input: UserInput): Promise<UserView> {
  const user = await ctx.db.prisma.gatewayUser.findUnique({ where: { id } });
  if (!user) return fail("gateway_not_found");
  const violations = validate(input, false);
  if (input.username && input.username !== user.username && await ctx.db.prisma.gatewayUser.findUnique({ where: { username: input.username } })) {
    violations.push({ propertyPath: "username", message: "This username is already used." });
  }
  // An administrator cannot take away their own administration (someone must be left to undo it).
  if (ctx.identity.gateway?.userId === id && input.role != null && input.role !== "admin" && roleOf(user.roles) === "admin") {
    violations.push({ propertyPath: "role", message: "You cannot remove your own administrator role." });
  }
  if (violations.length) throw violationError(violations);
  await ctx.db.prisma.gatewayUser.update({
    where: { id },
    data: {
      ...(input.username ? { username: input.username } : {}),
      ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
      ...(input.role ? { roles: [input.role] } : {}),
      ...(input.email !== undefined ? { email: input.email || null } : {}),
      ...(input.domains != null ? { domains: input.domains.map((d) => d.toLowerCase()) } : {}),
    },
  });
  if (input.fullName != null || input.identityProvider != null) {
    const data = { ...(input.fullName != null ? { fullName: input.fullName.trim() } : {}), ...(input.identityProvider ? { identityProvider: input.identityProvider } : {}) };
    // Moving a user to an external identity provider turns their OTP off (it is unavailable there).
    const otpOff = input.identityProvider === "external" ? { otpSecret: null, otpEnabledAt: null, otpLastStep: null } : {};
    await ctx.db.prisma.gatewayUserProfile.upsert({ where: { userId: id }, create: { userId: id, ...data }, update: { ...data, ...otpOff } });
  }
  // A new password or role ends the user's sessions.
  if (input.password || (input.role && input.role !== roleOf(user.roles))) await ctx.db.prisma.gatewaySession.deleteMany({ where: { userId: id } });
  return (await userById(ctx, id))!;
}

export async function deleteUser(ctx: Pick<GatewayContext, "db" | "identity">, id: number): Promise<boolean> {
  if (ctx.identity.gateway?.userId === id) return fail("gateway_conflict", { message: "You cannot delete yourself." });
  const { count } = await ctx.db.prisma.gatewayUser.deleteMany({ where: { id } });
  await ctx.db.prisma.gatewayUserProfile.deleteMany({ where: { userId: id } });
  await ctx.db.prisma.gatewayLoginToken.deleteMany({ where: { userId: id } });
  return count > 0;
}
