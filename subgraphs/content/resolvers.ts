// The content subgraph's resolvers: each area's map, merged by type.
import type { Resolvers } from "../../generated/graphql/content-resolvers.ts";
import { mergeResolvers } from "../../lib/resolver-map.ts";
import { mediaResolvers } from "./media/resolvers.ts";
import { menuResolvers } from "./menus/resolvers.ts";
import { nodeResolvers } from "./nodes/resolvers.ts";
import { postResolvers } from "./posts/resolvers.ts";
import { siteResolvers } from "./site/resolvers.ts";
import { viewerPermissionResolvers } from "./site/viewer-permissions.ts";
import { termResolvers } from "./terms/resolvers.ts";
import { applicationPasswordResolvers } from "./users/application-password-resolvers.ts";
import { oauthResolvers } from "./users/oauth-resolvers.ts";
import { userResolvers } from "./users/resolvers.ts";
import { embedResolvers } from "./embeds/resolvers.ts";

export const resolvers: Resolvers = mergeResolvers<Resolvers>(
  postResolvers, mediaResolvers, menuResolvers, termResolvers, userResolvers, applicationPasswordResolvers, oauthResolvers, siteResolvers, viewerPermissionResolvers, nodeResolvers, embedResolvers,
);
