// Versions resolvers: any signed-in gateway user (release data is no secret to them).
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireGatewayUser } from "../access.ts";
import { listApiChanges, listReleases, releaseByVersion } from "./versions.ts";

export const versionResolvers = {
  Query: {
    gatewayReleases: (_p, args, ctx) => { requireGatewayUser(ctx.identity); return listReleases(args); },
    gatewayRelease: (_p, { version }, ctx) => { requireGatewayUser(ctx.identity); return releaseByVersion(version); },
    gatewayApiChanges: (_p, args, ctx) => { requireGatewayUser(ctx.identity); return listApiChanges(args); },
  },
} satisfies Resolvers;
