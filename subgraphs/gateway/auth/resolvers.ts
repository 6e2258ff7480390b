// Auth resolvers: sign-in, and the token check the router makes once per request.
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireRouter } from "../access.ts";
import { authenticateToken, login, logout } from "./sessions.ts";

export const authResolvers = {
  Query: {
    authenticateGatewayToken: (_parent, { token, switchUser }, ctx) => {
      requireRouter(ctx.identity);
      return authenticateToken(ctx, token, new Date(), switchUser);
    },
  },
  Mutation: {
    gatewayLogin: (_parent, { username, password, otp }, ctx) => login(ctx, username, password, new Date(), otp),
    gatewayLogout: (_parent, _args, ctx) => logout(ctx),
  },
} satisfies Resolvers;
