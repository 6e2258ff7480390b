// Licensing resolvers: check the caller, call the domain.
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireGatewayAdmin } from "../access.ts";
import { listAccountedEmails } from "./accounted-emails.ts";

export const licensingResolvers = {
  Query: {
    accountedEmails: (_parent, args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return listAccountedEmails(ctx, args);
    },
    accountedEmail: (_parent, { id }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return ctx.loaders.accountedEmailById.load(id);
    },
  },
  AccountedEmail: {
    __resolveReference: (reference, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return ctx.loaders.accountedEmailById.load(reference.id);
    },
    // The column is `address`; the API property is `email`, the name the seed filters by.
    email: (row) => row.address,
  },
} satisfies Resolvers;
