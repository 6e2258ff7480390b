// A user's application passwords, as WordPress's application-passwords controller and
// WP_Application_Passwords keep them: every operation first finds the user (`me` or an id: 404
// before any permission check), then asks edit_user of them, which is what create/list/read/edit/
// delete_app_password(s) map to in core. The secret is shown once, at creation; only its keyed
// hash is stored (users.ts).
import type { ApplicationPassword, User } from "../../../generated/prisma/client.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { fail, invalidParam } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";
import { refuse } from "../permissions.ts";
import { canEditUser } from "./user-directory.ts";
import { generateAppPassword, hashAppPassword } from "./users.ts";

/** The user a request names: an id, or null for the signed-in user (REST's `me`). */
export async function applicationPasswordOwner(ctx: ContentContext, userId: number | null): Promise<User> {
  if (userId === null && !ctx.viewer) fail("rest_not_logged_in");
  const id = userId ?? ctx.viewer!.id;
  const user = id > 0 ? await ctx.loaders.user.load(id) : null;
  return user ?? fail("rest_user_invalid_id");
}

/** Core maps every app-password meta capability to edit_user of the owner: themselves, or edit_users. */
export const canManageApplicationPasswords = canEditUser;

async function ownerFor(ctx: ContentContext, userId: number | null, refusal: ErrorCode): Promise<User> {
  const user = await applicationPasswordOwner(ctx, userId);
  if (!canManageApplicationPasswords(ctx.viewer, user.id)) refuse(ctx, refusal);
  return user;
}

async function findOwned(ctx: ContentContext, userId: number, uuid: string): Promise<ApplicationPassword> {
  const row = await ctx.prisma.applicationPassword.findFirst({ where: { userId, uuid } });
  return row ?? fail("rest_application_password_not_found");
}

export async function listApplicationPasswords(ctx: ContentContext, userId: number | null): Promise<ApplicationPassword[]> {
  const user = await ownerFor(ctx, userId, "rest_cannot_list_application_passwords");
  return ctx.prisma.applicationPassword.findMany({ where: { userId: user.id }, orderBy: [{ createdAt: "asc" }, { uuid: "asc" }] });
}

export async function readApplicationPassword(ctx: ContentContext, userId: number | null, uuid: string): Promise<ApplicationPassword> {
  const user = await ownerFor(ctx, userId, "rest_cannot_read_application_password");
  return findOwned(ctx, user.id, uuid);
}

export interface ApplicationPasswordInput { name?: string | null; appId?: string | null }

/** WordPress's wp_is_uuid: any version. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** sanitize_text_field, as WordPress applies it to the name. */
const cleanName = (name: string | null | undefined) => (name ?? "").replace(/<[^>]*>/g, "").replace(/[\r\n\t ]+/g, " ").trim();

/** Names are unique per user (WordPress's application_name_exists_for_user). */
async function ensureUniqueName(ctx: ContentContext, userId: number, name: string): Promise<void> {
  if (await ctx.prisma.applicationPassword.findFirst({ where: { userId, name } })) fail("application_password_duplicate_name");
}

/** Creates a password for a user; the clear secret is in the answer only (WordPress's chunked 24 characters). */
export async function createApplicationPassword(
  ctx: ContentContext, userId: number | null, input: ApplicationPasswordInput,
): Promise<{ password: string; applicationPassword: ApplicationPassword }> {
  const user = await ownerFor(ctx, userId, "rest_cannot_create_application_passwords");
  const name = cleanName(input.name);
  if (!name) fail("application_password_empty_name");
  if (input.appId && !UUID.test(input.appId)) throw invalidParam("app_id", "app_id does not match any of the expected formats.", "rest_no_matching_schema");
  await ensureUniqueName(ctx, user.id, name);
  const password = generateAppPassword();
  const applicationPassword = await ctx.prisma.applicationPassword.create({
    data: { userId: user.id, name, appId: input.appId ?? "", secretHash: hashAppPassword(password, ctx.config.secretKey) },
  });
  return { password, applicationPassword };
}

/** Only the name changes (WordPress keeps app_id from creation). */
export async function updateApplicationPassword(
  ctx: ContentContext, userId: number | null, uuid: string, input: ApplicationPasswordInput,
): Promise<ApplicationPassword> {
  const user = await ownerFor(ctx, userId, "rest_cannot_edit_application_password");
  const row = await findOwned(ctx, user.id, uuid);
  const name = cleanName(input.name);
  if (!name || name === row.name) return row;
  return ctx.prisma.applicationPassword.update({ where: { uuid: row.uuid }, data: { name } });
}

/** Deletes one password and answers it as it was. */
export async function deleteApplicationPassword(ctx: ContentContext, userId: number | null, uuid: string): Promise<ApplicationPassword> {
  const user = await ownerFor(ctx, userId, "rest_cannot_delete_application_password");
  const row = await findOwned(ctx, user.id, uuid);
  await ctx.prisma.applicationPassword.delete({ where: { uuid: row.uuid } });
  return row;
}

/** Deletes all of a user's passwords; answers how many there were. */
export async function deleteApplicationPasswords(ctx: ContentContext, userId: number | null): Promise<number> {
  const user = await ownerFor(ctx, userId, "rest_cannot_delete_application_passwords");
  return (await ctx.prisma.applicationPassword.deleteMany({ where: { userId: user.id } })).count;
}

/** The password the current request signed in with; only for the signed-in user themself. */
export async function currentApplicationPassword(ctx: ContentContext, userId: number | null): Promise<ApplicationPassword> {
  const user = await applicationPasswordOwner(ctx, userId);
  if (ctx.viewer?.id !== user.id) refuse(ctx, "rest_cannot_introspect_app_password_for_non_authenticated_user");
  const uuid = ctx.identity.site?.appPassword;
  if (!uuid) fail("rest_no_authenticated_app_password");
  const row = await ctx.prisma.applicationPassword.findFirst({ where: { userId: user.id, uuid } });
  return row ?? fail("rest_application_password_not_found", { status: 500 });
}

/** WordPress's dates here: GMT, no offset ("Y-m-d\TH:i:s"). */
export const wordpressGmt = (date: Date): string => date.toISOString().slice(0, 19);

/** Passwords never used (or not since `before`) and created before it: what the admin prune job removes. */
export async function staleApplicationPasswords(ctx: ContentContext, before: Date): Promise<ApplicationPassword[]> {
  return ctx.prisma.applicationPassword.findMany({
    where: { createdAt: { lt: before }, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: before } }] },
    orderBy: { createdAt: "asc" },
  });
}

/** A user's id from their login or email (the admin command names users the way people do). */
export async function userIdByLogin(ctx: ContentContext, login: string): Promise<number> {
  const user = await ctx.prisma.user.findFirst({ where: login.includes("@") ? { email: login } : { login } });
  return user?.id ?? fail("rest_user_invalid_id");
}
