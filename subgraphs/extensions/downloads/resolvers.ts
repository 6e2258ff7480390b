// Thin resolvers of downloads: arguments in, domain functions out.
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import { countView, createPackage, readPackage, redeemKey, searchPackages, validateCaptcha, validatePassword } from "./downloads.ts";

export const downloadResolvers: Resolvers = {
  Query: {
    downloadPackage: (_, args, ctx) => readPackage(ctx, args.id),
    searchDownloads: (_, args, ctx) => searchPackages(ctx, args.search, args.page ?? 1, args.perPage ?? 10),
  },
  Mutation: {
    createDownloadPackage: (_, args, ctx) => createPackage(ctx, args.input),
    validateDownloadCaptcha: (_, args, ctx) => validateCaptcha(ctx, args.packageId, args.token),
    validateDownloadPassword: (_, args, ctx) => validatePassword(ctx, args.packageId, args.password),
    countDownloadView: (_, args, ctx) => countView(ctx, args.packageId),
    redeemDownloadKey: (_, args, ctx) => redeemKey(ctx, args.packageId, args.key),
  },
};
