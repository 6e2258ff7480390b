// Event resolvers: administrators only. Kinds are stored as the REST API writes them
// (certificate-expiry) and shown to GraphQL as enum names (certificate_expiry).
import type { GatewayEventKind, Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireGatewayAdmin } from "../access.ts";
import { listEvents, type GatewayEvent } from "./events.ts";

const view = (row: GatewayEvent) => ({ ...row, kind: row.kind.replace(/-/g, "_") as GatewayEventKind });

export const eventResolvers = {
  Query: {
    gatewayEvents: async (_parent, args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const page = await listEvents(ctx, args);
      return { ...page, items: page.items.map(view) };
    },
    gatewayEvent: async (_parent, { id }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const row = await ctx.db.prisma.gatewayEvent.findUnique({ where: { id } });
      return row ? view(row) : null;
    },
  },
} satisfies Resolvers;
