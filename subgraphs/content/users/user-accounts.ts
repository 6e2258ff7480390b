// Creating, updating and deleting users the way WP_REST_Users_Controller and wp_insert_user do:
// the same permission checks in the same order, unique logins, emails and slugs, roles replaced
// as a whole, and a deleted user's posts either reassigned or deleted with them, in one transaction.
import { isUniqueViolation } from "../../../lib/db-errors.ts";
import crypto from "node:crypto";
import { promisify } from "node:util";
import type { Prisma, User } from "../../../generated/prisma/client.ts";
import { ROLE_CAPABILITIES } from "../../../lib/capabilities.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { fail } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";
import { sanitizeTitle } from "../posts/rendering.ts";
import { canCreateUsers, canDeleteUser, canEditUser, canPromoteUser } from "./user-directory.ts";
import { hasCap, refuse } from "../permissions.ts";

export interface UserInput {
  username?: string | null;
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  url?: string | null;
  description?: string | null;
  locale?: string | null;
  nickname?: string | null;
  slug?: string | null;
  roles?: string[] | null;
  password?: string | null;
  /** A JSON object. */
  persistedPreferences?: string | null;
}

/** The user meta the REST API shows, kept in User.meta. */
export interface UserMeta { first_name?: string; last_name?: string; nickname?: string; locale?: string; persisted_preferences?: Record<string, unknown> }

export const userMeta = (user: User): UserMeta => (user.meta && typeof user.meta === "object" && !Array.isArray(user.meta) ? user.meta as UserMeta : {});

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/** A password a person chose: scrypt with a random salt (a slow hash, unlike application passwords). */
export async function hashUserPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, 64, { N: 16384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** sanitize_user( $login, true ): what WordPress keeps of a login name. */
export function sanitizeUsername(login: string): string {
  return login
    .replace(/<[^>]*>/g, "")
    .normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/%[a-fA-F0-9]{2}/g, "")
    .replace(/&.+?;/g, "")
    .replace(/[^a-z0-9 _.\-@]/gi, "")
    .trim()
    .replace(/\s+/g, " ");
}

const bad = (param: string, code: ErrorCode, message: string): never => fail(code, { message, status: 400, data: { param } });

/** The checks WordPress runs as the REST arguments are sanitized (check_username, check_user_password). */
function checkArguments(input: UserInput): void {
  if (typeof input.username === "string" && (input.username === "" || sanitizeUsername(input.username) !== input.username)) {
    bad("username", "rest_user_invalid_username", "Username contains invalid characters.");
  }
  if (typeof input.password === "string") {
    if (input.password === "") bad("password", "rest_user_invalid_password", "Passwords cannot be empty.");
    if (input.password.includes("\\")) bad("password", "rest_user_invalid_password", "Passwords cannot contain the \"\\\" character.");
  }
  if (typeof input.email === "string" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) bad("email", "rest_invalid_email", "Invalid email address.");
  if (typeof input.locale === "string" && !["", "en_US"].includes(input.locale)) bad("locale", "rest_not_in_enum", "locale is not one of , and en_US.");
  if (typeof input.persistedPreferences === "string") preferences(input.persistedPreferences);
}

/** The preferences object a client sent (JSON text); anything but an object is refused. */
function preferences(json: string): Record<string, unknown> {
  let value: unknown;
  try { value = JSON.parse(json); } catch { value = undefined; }
  if (!value || typeof value !== "object" || Array.isArray(value)) return bad("meta", "rest_invalid_type", "meta[persisted_preferences] is not of type object.");
  return value as Record<string, unknown>;
}

/** check_role_update: every role must exist, and nobody may take away their own power to edit users. */
function checkRoles(ctx: ContentContext, userId: number | null, roles: string[]): void {
  for (const role of roles) {
    const caps = ROLE_CAPABILITIES[role];
    if (!caps) fail("rest_user_invalid_role", { message: `The role ${role} does not exist.` });
    if (userId !== null && ctx.viewer?.id === userId && !caps.has("edit_users")) {
      refuse(ctx, "rest_user_invalid_role", "Sorry, you are not allowed to give users that role.");
    }
  }
}

/** A nicename no other user has: "slug", "slug-2", "slug-3"… (wp_insert_user). */
async function uniqueNicename(tx: Prisma.TransactionClient, wanted: string, exceptId: number): Promise<string> {
  const taken = new Set((await tx.user.findMany({ where: { nicename: { startsWith: wanted }, id: { not: exceptId } }, select: { nicename: true } })).map((u) => u.nicename));
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

function metaFrom(input: UserInput, existing: UserMeta, login: string): UserMeta {
  const text = (v: string | null | undefined, fallback: string | undefined) => (v === undefined || v === null ? fallback : v.trim());
  return {
    ...existing,
    first_name: text(input.firstName, existing.first_name ?? ""),
    last_name: text(input.lastName, existing.last_name ?? ""),
    nickname: text(input.nickname, existing.nickname ?? login) || login,
    locale: text(input.locale, existing.locale ?? ""),
    ...(typeof input.persistedPreferences === "string" ? { persisted_preferences: preferences(input.persistedPreferences) } : {}),
  };
}

/** wp_insert_user's display name for a new user: the given name, else first + last name, else the login. */
function displayName(input: UserInput, meta: UserMeta, login: string): string {
  if (input.name) return input.name;
  if (meta.first_name && meta.last_name) return `${meta.first_name} ${meta.last_name}`;
  return meta.first_name || meta.last_name || login;
}

export async function createUser(ctx: ContentContext, input: UserInput): Promise<User> {
  if (!canCreateUsers(ctx.viewer)) refuse(ctx, "rest_cannot_create_user", "Sorry, you are not allowed to create new users.");
  checkArguments(input);
  if (!input.username) return bad("username", "rest_missing_callback_param", "Missing parameter(s): username");
  if (!input.email) return bad("email", "rest_missing_callback_param", "Missing parameter(s): email");
  if (input.password === undefined || input.password === null) return bad("password", "rest_missing_callback_param", "Missing parameter(s): password");
  if (input.roles?.length) checkRoles(ctx, null, input.roles);
  const login = input.username.trim();
  // wp_insert_user's errors carry no status, so WordPress answers them with 500.
  if (login.length > 60) fail("user_login_too_long");
  const nicename = sanitizeTitle(input.slug ?? login.slice(0, 50));
  if (nicename.length > 50) fail("user_nicename_too_long");
  const passwordHash = await hashUserPassword(input.password);
  const meta = metaFrom(input, {}, login);
  const taken = async (tx: Prisma.TransactionClient) => {
    if (await tx.user.findUnique({ where: { login } })) fail("existing_user_login");
    if (await tx.user.findUnique({ where: { email: input.email! } })) fail("existing_user_email");
  };
  const user = await ctx.prisma.$transaction(async (tx) => {
    await taken(tx);
    return tx.user.create({
      data: {
        login, email: input.email!, passwordHash, meta: meta as Prisma.InputJsonObject,
        name: displayName(input, meta, login), nicename: await uniqueNicename(tx, nicename || login.toLowerCase(), 0),
        url: input.url ?? "", description: input.description ?? "",
        roles: input.roles?.length ? [...new Set(input.roles)] : ["subscriber"],
      },
    });
  }).catch(async (error: unknown) => {
    // A simultaneous create took the login, email or slug between our check and our write.
    if (!isUniqueViolation(error)) throw error;
    await taken(ctx.prisma);
    return fail("existing_user_login");
  });
  ctx.loaders.user.prime(user.id, user);
  return user;
}

async function requireUser(ctx: ContentContext, id: number): Promise<User> {
  const user = id > 0 ? await ctx.loaders.user.load(id) : null;
  if (!user) return fail("rest_user_invalid_id");
  return user;
}

export async function updateUser(ctx: ContentContext, id: number, input: UserInput): Promise<User> {
  const user = await requireUser(ctx, id);
  const sent = Object.entries(input).filter(([, v]) => v !== undefined).map(([k]) => k);
  if (input.roles?.length) {
    if (!canPromoteUser(ctx.viewer)) refuse(ctx, "rest_cannot_edit_roles", "Sorry, you are not allowed to edit roles of this user.");
  }
  // Changing only the roles needs promote_user alone.
  const rolesOnly = sent.length === 1 && sent[0] === "roles" && !!input.roles?.length;
  if (!rolesOnly && !canEditUser(ctx.viewer, user.id)) refuse(ctx, "rest_cannot_edit", "Sorry, you are not allowed to edit this user.");
  checkArguments(input);
  if (typeof input.email === "string") {
    const owner = await ctx.prisma.user.findUnique({ where: { email: input.email }, select: { id: true } });
    if (owner && owner.id !== user.id) fail("rest_user_invalid_email");
  }
  if (input.username && input.username !== user.login) fail("rest_user_invalid_argument");
  const slug = input.slug ? sanitizeTitle(input.slug) : undefined;
  if (slug && slug !== user.nicename && await ctx.prisma.user.findUnique({ where: { nicename: slug }, select: { id: true } })) {
    fail("rest_user_invalid_slug");
  }
  if (input.roles?.length) checkRoles(ctx, user.id, input.roles);

  const meta = metaFrom(input, userMeta(user), user.login);
  const data: Prisma.UserUpdateInput = { meta: meta as Prisma.InputJsonObject };
  if (input.name !== undefined && input.name !== null) data.name = input.name || user.login;
  if (typeof input.email === "string") data.email = input.email;
  if (input.url !== undefined && input.url !== null) data.url = input.url;
  if (input.description !== undefined && input.description !== null) data.description = input.description;
  if (slug) data.nicename = slug;
  if (input.roles?.length) data.roles = [...new Set(input.roles)];
  if (typeof input.password === "string") data.passwordHash = await hashUserPassword(input.password);
  const saved = await ctx.prisma.user.update({ where: { id: user.id }, data });
  ctx.loaders.user.clear(saved.id).prime(saved.id, saved);
  return saved;
}

/**
 * Deletes a user for good (users have no trash). Their posts go to `reassign`, or — without
 * one — are deleted with their revisions, as wp_delete_user does.
 */
export async function deleteUser(ctx: ContentContext, id: number, force: boolean, reassign: number | null): Promise<User> {
  const user = await requireUser(ctx, id);
  if (!canDeleteUser(ctx.viewer)) refuse(ctx, "rest_user_cannot_delete", "Sorry, you are not allowed to delete this user.");
  if (!force) fail("rest_trash_not_supported", { message: "Users do not support trashing. Set 'force=true' to delete." });
  if (reassign) {
    if (reassign === user.id || !(await ctx.loaders.user.load(reassign))) fail("rest_user_invalid_reassign");
  }
  await ctx.prisma.$transaction(async (tx) => {
    if (reassign) {
      await tx.post.updateMany({ where: { authorId: user.id }, data: { authorId: reassign } });
    } else {
      const owned = (await tx.post.findMany({ where: { authorId: user.id }, select: { id: true } })).map((p) => p.id);
      await tx.post.deleteMany({ where: { type: "revision", parentId: { in: owned } } });
      await tx.post.deleteMany({ where: { authorId: user.id } });
    }
    await tx.user.delete({ where: { id: user.id } });
  });
  ctx.loaders.user.clear(user.id);
  ctx.loaders.post.clearAll();
  return user;
}
