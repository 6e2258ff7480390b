// Yoast's options and user meta, as JSON rows (SeoOption, SeoUserMeta), and the permission
// checks of seo/v1 (Yoast's capabilities mapped onto WordPress roles: wpseo_manage_options is
// the administrators' manage_options).
import { can } from "../../../lib/capabilities.ts";
import { isUniqueViolation } from "../../../lib/db-errors.ts";
import { DomainError } from "../../../lib/errors.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { ExtensionsContext } from "../context.ts";

export type Json = Prisma.InputJsonValue;

/**
 * Runs an upsert again when a concurrent request created the row first (both saw none and both
 * inserted): the second run finds the row and updates it.
 */
export async function onceMoreOnConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return write();
  }
}

export async function getOption<T>(ctx: ExtensionsContext, name: string, fallback: T): Promise<T> {
  const row = await ctx.prisma.seoOption.findUnique({ where: { name } });
  return row ? (row.value as T) : fallback;
}

export async function setOption(ctx: ExtensionsContext, name: string, value: Json): Promise<void> {
  await onceMoreOnConflict(() => ctx.prisma.seoOption.upsert({ where: { name }, create: { name, value }, update: { value } }));
}

export async function getUserMeta<T>(ctx: ExtensionsContext, userId: number, key: string, fallback: T): Promise<T> {
  const row = await ctx.prisma.seoUserMeta.findUnique({ where: { userId_key: { userId, key } } });
  return row ? (row.value as T) : fallback;
}

export async function setUserMeta(ctx: ExtensionsContext, userId: number, key: string, value: Json): Promise<void> {
  await onceMoreOnConflict(() => ctx.prisma.seoUserMeta.upsert({ where: { userId_key: { userId, key } }, create: { userId, key, value }, update: { value } }));
}

export async function deleteUserMeta(ctx: ExtensionsContext, userId: number, key: string): Promise<void> {
  await ctx.prisma.seoUserMeta.deleteMany({ where: { userId, key } });
}

/** Yoast's capabilities by the WordPress capability that grants them. */
export type SeoCapability = "wpseo_manage_options" | "manage_options" | "edit_posts" | "edit_others_posts" | "publish_posts" | "read" | "activate_plugins";
const GRANTED_BY: Record<SeoCapability, string> = {
  wpseo_manage_options: "manage_options", manage_options: "manage_options", edit_posts: "edit_posts",
  edit_others_posts: "edit_others_posts", publish_posts: "publish_posts", read: "read", activate_plugins: "activate_plugins",
};

export const mayDo = (ctx: ExtensionsContext, capability: SeoCapability): boolean =>
  can(ctx.identity.site?.roles, GRANTED_BY[capability], ctx.identity.site?.scope);

/** WordPress's refusal when a permission callback says no: rest_forbidden, 401 anonymous / 403 signed in. */
export function requireCapability(ctx: ExtensionsContext, capability: SeoCapability): number {
  if (!mayDo(ctx, capability)) {
    const signedIn = ctx.identity.site !== undefined;
    throw new DomainError("rest_forbidden", "Sorry, you are not allowed to do that.", signedIn ? 403 : 401);
  }
  return ctx.identity.site?.userId ?? 0;
}

/** An error with Yoast's own code (not in the shared registry: seo/v1 raises them only here). */
export const seoError = (code: string, message: string, status: number, data?: Record<string, unknown>): DomainError =>
  new DomainError(code, message, status, data ? { data } : {});
