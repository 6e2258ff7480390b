// Thin resolvers of cookie consent: arguments in, domain functions out.
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import { cookieCategories, latestScan, receiveResults, startScan, submitUninstallFeedback } from "./consent.ts";

export const consentResolvers: Resolvers = {
  Query: {
    consentCookieCategories: (_, __, ctx) => cookieCategories(ctx),
    consentLatestScan: (_, __, ctx) => latestScan(ctx),
  },
  Mutation: {
    startConsentScan: (_, __, ctx) => startScan(ctx),
    receiveConsentScanResults: (_, args, ctx) => receiveResults(ctx, args.token, args.results),
    submitConsentUninstallFeedback: (_, args, ctx) => submitUninstallFeedback(ctx, args),
  },
};
