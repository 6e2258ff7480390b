// The OAuth 2.0 fields only the router calls (subgraphs/content/users/oauth.ts holds the rules).
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import { authenticateOAuthToken, grantTokens, issueAuthorizationCode, readOAuthClient, revokeOAuthToken } from "./oauth.ts";

export const oauthResolvers: Resolvers = {
  Query: {
    authenticateOAuthToken: (_, args, ctx) => authenticateOAuthToken(ctx, args.token),
    oauthClient: (_, args, ctx) => readOAuthClient(ctx, args.clientId),
  },
  Mutation: {
    issueOAuthCode: (_, args, ctx) => issueAuthorizationCode(ctx, args.input),
    grantOAuthTokens: (_, args, ctx) => grantTokens(ctx, args.input),
    revokeOAuthToken: (_, args, ctx) => revokeOAuthToken(ctx, args.clientId, args.clientSecret, args.token),
  },
};
