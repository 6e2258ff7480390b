// The extensions subgraph's resolvers: each area's map, merged by type.
import type { Resolvers } from "../../generated/graphql/extensions-resolvers.ts";
import { mergeResolvers } from "../../lib/resolver-map.ts";
import { languageResolvers } from "./languages/resolvers.ts";
import { siteHealthResolvers } from "./site-health/resolvers.ts";
import { blockEditorResolvers } from "./block-editor/resolvers.ts";
import { redirectionResolvers } from "./redirection/resolvers.ts";
import { formResolvers } from "./forms/resolvers.ts";
import { consentResolvers } from "./consent/resolvers.ts";
import { downloadResolvers } from "./downloads/resolvers.ts";
import { seoResolvers } from "./seo/resolvers.ts";

export const resolvers: Resolvers = mergeResolvers<Resolvers>(languageResolvers, formResolvers, consentResolvers, downloadResolvers, redirectionResolvers, siteHealthResolvers, blockEditorResolvers, seoResolvers);
