// Appliance resolvers: administrators only.
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireGatewayAdmin } from "../access.ts";
import { applianceView, updateApplianceSettings } from "./appliance.ts";
import { applySettings } from "./settings.ts";

export const applianceResolvers = {
  Query: {
    appliance: (_parent, _args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return applianceView(ctx);
    },
  },
  Mutation: {
    applySettings: async (_parent, _args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const result = await applySettings(ctx);
      return { status: result.status === "applied" ? "applied" : "up_to_date", appliedSections: result.sections, appliedAt: result.appliedAt };
    },
    updateApplianceSettings: (_parent, { input }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return updateApplianceSettings(ctx, input);
    },
  },
} satisfies Resolvers;
