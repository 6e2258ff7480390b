// WordPress's map_meta_cap for posts: what a user may do with one post, from their roles and
// whether they wrote it. Resolvers and domain functions ask here; nothing else decides.
import { can } from "../../lib/capabilities.ts";
import type { ErrorCode } from "../../lib/error-codes.ts";
import { fail } from "../../lib/errors.ts";
import type { Identity } from "../../lib/identity.ts";
import { POST_TYPE_REGISTRY, capabilityOf } from "./site/post-type-registry.ts";

/** `scope`: an OAuth caller's granted scopes (lib/capabilities.ts `can`). */
export interface Viewer { id: number; roles: string[]; scope?: string[] }

export const viewerOf = (identity: Identity): Viewer | null =>
  identity.site ? { id: identity.site.userId, roles: identity.site.roles, ...(identity.site.scope ? { scope: identity.site.scope } : {}) } : null;

export const hasCap = (viewer: Viewer | null, cap: string): boolean => can(viewer?.roles, cap, viewer?.scope);

/** Throws a refusal with a registered code: 403 for a signed-in viewer, 401 for an anonymous one. */
export const refuse = (ctx: { viewer: Viewer | null }, code: ErrorCode, message?: string): never =>
  fail(code, { message, status: ctx.viewer ? 403 : 401 });

/**
 * A post type's own name for a primitive capability, from its registration's `cap` object
 * ("edit_others_posts" is edit_others_pages for pages, edit_theme_options for menu items).
 */
function hasTypeCap(viewer: Viewer | null, type: string, cap: string): boolean {
  const registration = POST_TYPE_REGISTRY.find((t) => t.slug === type);
  return hasCap(viewer, registration ? capabilityOf(registration, cap) : cap);
}

interface PostLike { type: string; status: string; authorId: number; meta?: unknown }

/** Status a trashed post had, which decides its capabilities (WordPress does the same). */
function effectiveStatus(post: PostLike): string {
  if (post.status !== "trash") return post.status;
  const meta = (post.meta ?? {}) as Record<string, unknown>;
  return typeof meta._wp_trash_meta_status === "string" ? meta._wp_trash_meta_status : "draft";
}

function metaCap(viewer: Viewer | null, post: PostLike, action: "edit" | "delete"): boolean {
  if (!viewer) return false;
  const status = effectiveStatus(post);
  const own = post.authorId === viewer.id;
  const caps: string[] = [];
  if (own) {
    caps.push(status === "publish" || status === "future" ? `${action}_published_posts` : `${action}_posts`);
  } else {
    caps.push(`${action}_others_posts`);
    if (status === "publish" || status === "future") caps.push(`${action}_published_posts`);
    else if (status === "private") caps.push(`${action}_private_posts`);
    else caps.push(`${action}_posts`);
  }
  return caps.every((c) => hasTypeCap(viewer, post.type, c));
}

export const canEditPost = (viewer: Viewer | null, post: PostLike) => metaCap(viewer, post, "edit");
export const canDeletePost = (viewer: Viewer | null, post: PostLike) => metaCap(viewer, post, "delete");

export function canReadPost(viewer: Viewer | null, post: PostLike): boolean {
  if (post.status === "publish") return true;
  if (post.status === "private") {
    return !!viewer && (post.authorId === viewer.id || hasTypeCap(viewer, post.type, "read_private_posts"));
  }
  // draft, pending, future, trash…: only those who may edit it.
  return canEditPost(viewer, post);
}

export const canCreate = (viewer: Viewer | null, type: string) => hasTypeCap(viewer, type, "edit_posts");
export const canPublish = (viewer: Viewer | null, type: string) => hasTypeCap(viewer, type, "publish_posts");
export const canEditOthers = (viewer: Viewer | null, type: string) => hasTypeCap(viewer, type, "edit_others_posts");
export const canReadPrivate = (viewer: Viewer | null, type: string) => hasTypeCap(viewer, type, "read_private_posts");
