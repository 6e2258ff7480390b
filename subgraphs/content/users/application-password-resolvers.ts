// Thin resolvers for application passwords: the domain is application-passwords.ts.
import type { ApplicationPasswordResolvers, MutationResolvers, QueryResolvers, Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import {
  createApplicationPassword, currentApplicationPassword, deleteApplicationPassword, deleteApplicationPasswords,
  listApplicationPasswords, readApplicationPassword, updateApplicationPassword, wordpressGmt,
} from "./application-passwords.ts";

const Query: QueryResolvers = {
  applicationPasswords: (_, args, ctx) => listApplicationPasswords(ctx, args.userId ?? null),
  applicationPassword: (_, args, ctx) => readApplicationPassword(ctx, args.userId ?? null, args.uuid),
  currentApplicationPassword: (_, args, ctx) => currentApplicationPassword(ctx, args.userId ?? null),
};

const Mutation: MutationResolvers = {
  createApplicationPassword: (_, args, ctx) => createApplicationPassword(ctx, args.userId ?? null, args.input),
  updateApplicationPassword: (_, args, ctx) => updateApplicationPassword(ctx, args.userId ?? null, args.uuid, args.input),
  deleteApplicationPassword: async (_, args, ctx) => ({ deleted: true, previous: await deleteApplicationPassword(ctx, args.userId ?? null, args.uuid) }),
  deleteApplicationPasswords: async (_, args, ctx) => ({ deleted: true, count: await deleteApplicationPasswords(ctx, args.userId ?? null) }),
};

const ApplicationPassword: ApplicationPasswordResolvers = {
  created: (p) => wordpressGmt(p.createdAt),
  lastUsed: (p) => (p.lastUsedAt ? wordpressGmt(p.lastUsedAt) : null),
};

export const applicationPasswordResolvers: Resolvers = { Query, Mutation, ApplicationPassword };
