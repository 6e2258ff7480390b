// Restricted-sender resolvers: the domain checks the caller (restricted-senders.ts).
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { findRestrictedSender, listRestrictedSenders, liftSenderRestriction } from "./restricted-senders.ts";

export const restrictedSenderResolvers = {
  Query: {
    restrictedSenders: (_parent, args, ctx) => listRestrictedSenders(ctx, args),
    restrictedSender: (_parent, { id }, ctx) => findRestrictedSender(ctx, id),
  },
  Mutation: {
    liftSenderRestriction: (_parent, { id }, ctx) => liftSenderRestriction(ctx, id),
  },
  RestrictedSender: {
    __resolveReference: (reference, ctx) => findRestrictedSender(ctx, reference.id),
    reason: (row) => row.reason.replace(/-/g, "_") as never,
  },
} satisfies Resolvers;
