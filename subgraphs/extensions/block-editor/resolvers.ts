// Thin resolvers of block-editor/v1 (domain in url-details.ts).
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import { httpClientFor } from "../../../lib/http-client.ts";
import { canViewUrlDetails, pageCacheFor, urlDetails } from "./url-details.ts";

export const blockEditorResolvers: Resolvers = {
  Query: {
    urlDetails: (_, { url }, ctx) => urlDetails({ http: httpClientFor(ctx.config), cache: pageCacheFor(ctx.config), identity: ctx.identity, siteUrl: ctx.config.siteUrl }, url),
    urlDetailsViewerCan: (_, __, ctx) => canViewUrlDetails(ctx.identity),
  },
};
