// Domain resolvers: administrators only.
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireGatewayAdmin } from "../access.ts";
import { createDomain, deleteDomain, domainById, domainSummary, listDomains, startTrial } from "./domains.ts";

export const domainResolvers = {
  Query: {
    gatewayDomains: (_p, args, ctx) => { requireGatewayAdmin(ctx.identity); return listDomains(ctx, args); },
    gatewayDomain: (_p, { id }, ctx) => { requireGatewayAdmin(ctx.identity); return domainById(ctx, id); },
    gatewayDomainSummary: async (_p, { id }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const domain = await domainById(ctx, id);
      return domain && domainSummary(ctx, domain.name, domain.dkimSelector);
    },
  },
  Mutation: {
    createGatewayDomain: (_p, { input }, ctx) => { requireGatewayAdmin(ctx.identity); return createDomain(ctx, input); },
    deleteGatewayDomain: (_p, { id }, ctx) => { requireGatewayAdmin(ctx.identity); return deleteDomain(ctx, id); },
    startGatewayDomainTrial: (_p, { id }, ctx) => { requireGatewayAdmin(ctx.identity); return startTrial(ctx, id); },
  },
} satisfies Resolvers;
