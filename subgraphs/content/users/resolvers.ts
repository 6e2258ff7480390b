// Thin resolvers for users: the list, one user, the signed-in user, writes, and the fields a
// user row turns into (links, avatars, edit-context fields for those who may see them).
import type { MutationResolvers, QueryResolvers, Resolvers, UserResolvers } from "../../../generated/graphql/content-resolvers.ts";
import type { User } from "../../../generated/prisma/client.ts";
import type { ContentContext } from "../context.ts";
import { refId, type EntityRef } from "../../../lib/entity-ref.ts";
import { fail } from "../../../lib/errors.ts";
import { databaseIdOf, toGlobalId } from "../../../lib/global-id.ts";
import { relayList } from "../connections.ts";
import { userIdArg } from "../nodes/nodes.ts";
import { relativeUri } from "../posts/resolvers.ts";
import { createUser, deleteUser, updateUser, userMeta } from "./user-accounts.ts";
import {
  allCapabilities, canDeleteUser, canEditUser, canPromoteUser, canSeePrivateFields, listUsers, readUser,
} from "./user-directory.ts";
import { authenticateApplicationPassword, gravatarUrl } from "./users.ts";

/** A field only the user themself and those who may list users see. */
const privateField = <T>(read: (u: User) => T) => (u: User, _: unknown, ctx: ContentContext): T | null => (canSeePrivateFields(ctx.viewer, u) ? read(u) : null);

/** A mutation's user id: a global id or the database id. */
const userId = (id: string | number) => databaseIdOf(id, "user") ?? fail("rest_user_invalid_id");

const Query: QueryResolvers = {
  authenticateApplicationPassword: (_, args, ctx) => authenticateApplicationPassword(ctx, args.username, args.password, args.ip ?? null),
  users: (_, args, ctx) => relayList("users", args, async (a) => {
    const page = await listUsers(ctx, a);
    return { nodes: page.nodes, totalCount: page.totalCount, totalPages: page.totalPages };
  }),
  user: async (_, args, ctx) => readUser(ctx, await userIdArg(ctx, args.id, args.idType ?? "ID")),
  viewer: (_, __, ctx) => (ctx.viewer ? ctx.loaders.user.load(ctx.viewer.id) : null),
};

const Mutation: MutationResolvers = {
  createUser: (_, args, ctx) => createUser(ctx, args.input),
  updateUser: (_, args, ctx) => updateUser(ctx, userId(args.id), args.input),
  deleteUser: async (_, args, ctx) => ({ deleted: true, previous: await deleteUser(ctx, userId(args.id), args.force ?? false, args.reassign ?? null) }),
};

const User: UserResolvers = {
  __resolveReference: (ref, ctx) => ctx.loaders.user.load(refId(ref as EntityRef, "user")),
  id: (u) => toGlobalId("user", u.id),
  databaseId: (u) => u.id,
  link: async (u, _, ctx) => `${(await ctx.site()).home}/author/${u.nicename}/`,
  uri: async (u, _, ctx) => relativeUri(`${(await ctx.site()).home}/author/${u.nicename}/`, (await ctx.site()).home),
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
