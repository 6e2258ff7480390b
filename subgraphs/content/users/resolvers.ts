// Thin resolvers for users: the list, one user, the signed-in user, writes, and the fields a
// user row turns into (links, avatars, edit-context fields for those who may see them).
import type { MutationResolvers, QueryResolvers, Resolvers, UserResolvers } from "../../../generated/graphql/content-resolvers.ts";
import type { User } from "../../../generated/prisma/client.ts";
import type { ContentContext } from "../context.ts";
import { pageInfo } from "../../../lib/wordpress/list-window.ts";
import { createUser, deleteUser, updateUser, userMeta } from "./user-accounts.ts";
import {
  allCapabilities, canDeleteUser, canEditUser, canPromoteUser, canSeePrivateFields, listUsers, readUser,
} from "./user-directory.ts";
import { authenticateApplicationPassword, gravatarUrl } from "./users.ts";

/** A field only the user themself and those who may list users see. */
const privateField = <T>(read: (u: User) => T) => (u: User, _: unknown, ctx: ContentContext): T | null => (canSeePrivateFields(ctx.viewer, u) ? read(u) : null);

const Query: QueryResolvers = {
  authenticateApplicationPassword: (_, args, ctx) => authenticateApplicationPassword(ctx, args.username, args.password, args.ip ?? null),
  users: async (_, args, ctx) => {
    const page = await listUsers(ctx, args);
    return { nodes: page.nodes, totalCount: page.totalCount, totalPages: page.totalPages, pageInfo: pageInfo(page, page.nodes.length, page.totalCount) };
  },
  user: (_, args, ctx) => readUser(ctx, args.id),
  viewer: (_, __, ctx) => (ctx.viewer ? ctx.loaders.user.load(ctx.viewer.id) : null),
};

const Mutation: MutationResolvers = {
  createUser: (_, args, ctx) => createUser(ctx, args.input),
  updateUser: (_, args, ctx) => updateUser(ctx, args.id, args.input),
  deleteUser: async (_, args, ctx) => ({ deleted: true, previous: await deleteUser(ctx, args.id, args.force ?? false, args.reassign ?? null) }),
};

const User: UserResolvers = {
  __resolveReference: (ref, ctx) => ctx.loaders.user.load(Number(ref.id)),
  link: async (u, _, ctx) => `${(await ctx.site()).home}/author/${u.nicename}/`,
  slug: (u) => u.nicename,
  avatarUrls: (u) => ({ size24: gravatarUrl(u.email, 24), size48: gravatarUrl(u.email, 48), size96: gravatarUrl(u.email, 96) }),
  username: privateField((u) => u.login),
  email: privateField((u) => u.email),
  roles: privateField((u) => u.roles),
  registeredDate: privateField((u) => u.registeredAt.toISOString().replace(/\.\d{3}Z$/, "+00:00")),
  capabilities: privateField((u) => allCapabilities(u.roles)),
  extraCapabilities: privateField((u) => [...u.roles]),
  firstName: privateField((u) => userMeta(u).first_name ?? ""),
  lastName: privateField((u) => userMeta(u).last_name ?? ""),
  nickname: privateField((u) => userMeta(u).nickname ?? u.login),
  locale: privateField((u) => userMeta(u).locale || "en_US"),
  persistedPreferences: privateField((u) => { const p = userMeta(u).persisted_preferences; return p ? JSON.stringify(p) : null; }),
  viewerCan: (u, _, ctx) => ({ edit: canEditUser(ctx.viewer, u.id), delete: canDeleteUser(ctx.viewer), promote: canPromoteUser(ctx.viewer) }),
};

export const userResolvers: Resolvers = { Query, Mutation, User };
