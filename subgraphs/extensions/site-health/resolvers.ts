// Thin resolvers of site-health/v1 (domain in site-health.ts).
import type { Resolvers, SiteHealthTestName } from "../../../generated/graphql/extensions-resolvers.ts";
import type { ExtensionsContext } from "../context.ts";
import { canViewSiteHealth, directorySizes, runHealthTest, type HealthDeps, type HealthTest } from "./site-health.ts";

const deps = (ctx: ExtensionsContext): HealthDeps => ({ config: ctx.config, prisma: ctx.prisma, identity: ctx.identity });
const testName = (name: SiteHealthTestName) => name.toLowerCase() as HealthTest;

export const siteHealthResolvers: Resolvers = {
  Query: {
    siteHealthTest: async (_, { test }, ctx) => {
      const r = await runHealthTest(deps(ctx), testName(test));
      return { ...r, status: r.status.toUpperCase() as "GOOD" | "RECOMMENDED" | "CRITICAL" };
    },
    siteHealthDirectorySizes: (_, __, ctx) => directorySizes(deps(ctx)),
    siteHealthViewerCan: (_, __, ctx) => canViewSiteHealth(ctx.identity),
  },
};
