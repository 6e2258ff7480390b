// Who may see which users, and the user list, as WP_REST_Users_Controller and WP_User_Query
// decide: people who may list users see everyone; everyone else sees only users with published
// posts (the authors a visitor can meet on the site anyway).
import { isStoredId } from "../../../lib/wordpress/limits.ts";
import type { Prisma, User } from "../../../generated/prisma/client.ts";
import { ROLE_CAPABILITIES, ROLES, scopeAllowsWrites } from "../../../lib/capabilities.ts";
import { fail } from "../../../lib/errors.ts";
import { listWindow } from "../../../lib/wordpress/list-window.ts";
import type { ContentContext } from "../context.ts";
import { hasCap, refuse, type Viewer } from "../permissions.ts";
import { canEditAnyPostType, REST_POST_TYPES } from "../site/post-type-registry.ts";

export const canListUsers = (viewer: Viewer | null) => hasCap(viewer, "list_users");

/** map_meta_cap edit_user: everyone may edit themselves; others need edit_users. */
export const canEditOtherUsers = (viewer: Viewer | null) => hasCap(viewer, "edit_users");
// Editing oneself needs no capability in WordPress; a read-only OAuth token still may not.
export const canEditUser = (viewer: Viewer | null, userId: number) => !!viewer && ((viewer.id === userId && scopeAllowsWrites(viewer.scope)) || canEditOtherUsers(viewer));
export const canDeleteUser = (viewer: Viewer | null) => hasCap(viewer, "delete_users");
export const canCreateUsers = (viewer: Viewer | null) => hasCap(viewer, "create_users");
export const canPromoteUser = (viewer: Viewer | null) => hasCap(viewer, "promote_users");

/** Edit-context fields of a user: for the user themself and for those who may list users. */
export const canSeePrivateFields = (viewer: Viewer | null, user: User) => viewer?.id === user.id || canListUsers(viewer);

/** Every capability a user has (WordPress allcaps): their roles' capabilities, then the roles themselves. */
export function allCapabilities(roles: readonly string[]): string[] {
  const caps = new Set<string>();
  for (const role of roles) for (const cap of ROLE_CAPABILITIES[role] ?? []) caps.add(cap);
  for (const role of roles) caps.add(role);
  return [...caps];
}

/** Roles that grant a capability (WP_User_Query capability__in). */
const rolesWith = (capability: string) => ROLES.filter((r) => r === capability || ROLE_CAPABILITIES[r].has(capability));

const publishedPosts = (types: readonly string[]): Prisma.UserWhereInput => ({ posts: { some: { status: "publish", type: { in: [...types] } } } });

/** A user by id, if the caller may see them; 404 for a missing id, 401/403 for one they may not see. */
export async function readUser(ctx: ContentContext, id: number): Promise<User> {
  const user = id > 0 ? await ctx.loaders.user.load(id) : null;
  if (!user) return fail("rest_user_invalid_id");
  const viewer = ctx.viewer;
  if (viewer?.id === user.id || canListUsers(viewer) || canEditUser(viewer, user.id)) return user;
  if (!(await ctx.loaders.authorPublished.load(user.id))) {
    refuse({ viewer }, "rest_user_cannot_view");
  }
  return user;
}

export type UserOrderBy = "ID" | "INCLUDE" | "NAME" | "REGISTERED_DATE" | "SLUG" | "INCLUDE_SLUGS" | "EMAIL" | "URL";

export interface UserListArgs {
  where?: {
    search?: string | null; include?: number[] | null; exclude?: number[] | null; slug?: string[] | null;
    roles?: string[] | null; capabilities?: string[] | null; who?: "AUTHORS" | null;
    hasPublishedPosts?: boolean | null; publishedPostTypes?: string[] | null;
  } | null;
  page?: number | null;
  perPage?: number | null;
  offset?: number | null;
  order?: "ASC" | "DESC" | null;
  orderBy?: UserOrderBy | null;
  /** WordPress's edit context: only for those who may list users. */
  editing?: boolean | null;
}


/** WP_User_Query's search: columns chosen by what the term looks like; callers who may not list users cannot search emails or URLs. */
function searchClause(term: string, mayListUsers: boolean): Prisma.UserWhereInput {
  const text = term.replace(/^\*|\*$/g, "");
  const like = (column: "login" | "email" | "url" | "nicename" | "name"): Prisma.UserWhereInput => ({ [column]: { contains: text, mode: "insensitive" } });
  // A numeric term also matches the user id, when it could be one.
  const byId: Prisma.UserWhereInput[] = /^\d+$/.test(text) && isStoredId(Number(text)) ? [{ id: Number(text) }] : [];
  if (!mayListUsers) return { OR: [...byId, like("login"), like("nicename"), like("name")] };
  if (text.includes("@")) return like("email");
  if (/^\d+$/.test(text)) return { OR: [like("login"), ...byId] };
  if (/^https?:\/\//.test(text)) return like("url");
  return { OR: [like("login"), like("url"), like("email"), like("nicename"), like("name")] };
}

export async function listUsers(ctx: ContentContext, args: UserListArgs) {
  // Arguments are checked before permission, as WordPress validates them first.
  const window = listWindow("users", args);
  const viewer = ctx.viewer;
  const w = args.where ?? {};
  const mayList = canListUsers(viewer);
  // The permission checks of get_items_permissions_check, in their order.
  if (w.roles?.length && !mayList) refuse(ctx, "rest_user_cannot_view", "Sorry, you are not allowed to filter users by role.");
  if (w.capabilities?.length && !mayList) refuse(ctx, "rest_user_cannot_view", "Sorry, you are not allowed to filter users by capability.");
  if (args.editing && !mayList) refuse(ctx, "rest_forbidden_context", "Sorry, you are not allowed to list users.");
  const orderBy = args.orderBy ?? "NAME";
  if ((orderBy === "EMAIL" || orderBy === "REGISTERED_DATE") && !mayList) {
    refuse(ctx, "rest_forbidden_orderby", "Sorry, you are not allowed to order users by this parameter.");
  }
  if (w.who === "AUTHORS" && !canEditAnyPostType(viewer)) {
    refuse(ctx, "rest_forbidden_who", "Sorry, you are not allowed to query users by this parameter.");
  }

  const and: Prisma.UserWhereInput[] = [];
  if (w.search) and.push(searchClause(w.search, mayList));
  if (w.include?.length) and.push({ id: { in: w.include } });
  if (w.exclude?.length) and.push({ id: { notIn: w.exclude } });
  if (w.slug?.length) and.push({ nicename: { in: w.slug } });
  if (w.roles?.length) and.push({ roles: { hasSome: w.roles } });
  if (w.capabilities?.length) and.push({ roles: { hasSome: [...new Set(w.capabilities.flatMap(rolesWith))] } });
  if (w.who === "AUTHORS") and.push({ roles: { hasSome: rolesWith("edit_posts") } });
  // Visitors only meet users with published posts, unless they asked for authors.
  else if (!mayList) and.push(publishedPosts(REST_POST_TYPES));
  if (w.hasPublishedPosts || w.publishedPostTypes?.length) and.push(publishedPosts(w.publishedPostTypes?.length ? w.publishedPostTypes : REST_POST_TYPES));
  const where: Prisma.UserWhereInput = { AND: and };

  const { page, offset } = window;
  const perPage = window.perPage!;
  // As WP_User_Query: an offset of 0 is no offset (the page decides).
  const start = offset ? offset : (page - 1) * perPage;
  const dir = args.order === "DESC" ? "desc" : "asc";
  const sign = dir === "desc" ? -1 : 1;
  let nodes: User[];
  if (orderBy === "ID" || orderBy === "REGISTERED_DATE") {
    nodes = await ctx.prisma.user.findMany({ where, orderBy: orderBy === "ID" ? [{ id: dir }] : [{ registeredAt: dir }, { id: "asc" }], skip: start, take: perPage });
  } else {
    // Text orders follow MySQL's case-insensitive collation, which the database here does not have;
    // include/include_slugs follow the given list (FIELD()). One query either way; users are few.
    const all = await ctx.prisma.user.findMany({ where, orderBy: { id: "asc" } });
    const ranked = orderBy === "INCLUDE" && w.include?.length ? w.include.map(String) : orderBy === "INCLUDE_SLUGS" && w.slug?.length ? w.slug : undefined;
    const text: Record<string, (u: User) => string> = { NAME: (u) => u.name, SLUG: (u) => u.nicename, EMAIL: (u) => u.email, URL: (u) => u.url };
    const byText = text[orderBy] ?? ((u: User) => u.login);
    const compare = ranked
      ? (a: User, b: User) => ranked.indexOf(orderBy === "INCLUDE" ? String(a.id) : a.nicename) - ranked.indexOf(orderBy === "INCLUDE" ? String(b.id) : b.nicename)
      : (a: User, b: User) => byText(a).toLowerCase().localeCompare(byText(b).toLowerCase());
    nodes = all.sort((a, b) => sign * compare(a, b) || a.id - b.id).slice(start, start + perPage);
  }
  nodes.forEach((u) => ctx.loaders.user.prime(u.id, u));
  const totalCount = await ctx.prisma.user.count({ where });
  return { nodes, totalCount, totalPages: Math.ceil(totalCount / perPage), start, perPage };
}
