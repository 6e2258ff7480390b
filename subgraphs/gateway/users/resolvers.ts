// User, OTP and passwordless-token resolvers: check the caller, call the domain.
import type { GatewayIdentityProvider, GatewayUserRole, Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { fail } from "../../../lib/errors.ts";
import { requireGatewayAdmin, requireGatewayUser, requireSelfOrAdmin } from "../access.ts";
import { readSection } from "../appliance/settings.ts";
import { createLoginToken, listLoginTokens, loginWithToken, revokeLoginToken } from "./login-tokens.ts";
import { confirmOtpEnrollment, OTP_POLICY_SECTION, removeOtp, startOtpEnrollment, updateOtpPolicy } from "./otp.ts";
import { createUser, deleteUser, listUsers, updateUser, userById, type UserInput, type UserView } from "./users.ts";

const show = (user: UserView) => ({ ...user, role: user.role.replace("-", "_") as GatewayUserRole, identityProvider: user.identityProvider as GatewayIdentityProvider });
const input = (i: { role?: string | null } & Omit<UserInput, "role">): UserInput => ({ ...i, role: i.role?.replace("_", "-") });

export const userResolvers = {
  Query: {
    gatewayUsers: async (_p, args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const page = await listUsers(ctx, args);
      return { ...page, items: page.items.map(show) };
    },
    gatewayUser: async (_p, { id }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const user = await userById(ctx, id);
      return user && show(user);
    },
    gatewayMe: async (_p, _a, ctx) => {
      const me = requireGatewayUser(ctx.identity);
      return show((await userById(ctx, me.userId)) ?? fail("gateway_token_invalid"));
    },
    otpPolicy: async (_p, _a, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const state = await readSection(ctx, OTP_POLICY_SECTION);
      return { ...state.saved, pendingChanges: state.pending };
    },
    gatewayLoginTokens: (_p, { userId }, ctx) => {
      requireSelfOrAdmin(ctx.identity, userId);
      return listLoginTokens(ctx, userId);
    },
  },
  Mutation: {
    createGatewayUser: async (_p, args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return show(await createUser(ctx, input(args.input)));
    },
    updateGatewayUser: async (_p, args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return show(await updateUser(ctx, args.id, input(args.input)));
    },
    deleteGatewayUser: (_p, { id }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return deleteUser(ctx, id);
    },
    startOtpEnrollment: (_p, _a, ctx) => {
      const me = requireGatewayUser(ctx.identity);
      return startOtpEnrollment(ctx, { id: me.userId, username: me.username });
    },
    confirmOtpEnrollment: async (_p, { code }, ctx) => {
      const me = requireGatewayUser(ctx.identity);
      await confirmOtpEnrollment(ctx, { id: me.userId, username: me.username }, code);
      return show((await userById(ctx, me.userId))!);
    },
    disableOtp: async (_p, _a, ctx) => {
      const me = requireGatewayUser(ctx.identity);
      await removeOtp(ctx, { id: me.userId, username: me.username }, { reset: false });
      return true;
    },
    resetGatewayUserOtp: async (_p, { id }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      const user = await userById(ctx, id);
      if (!user) return fail("gateway_not_found");
      await removeOtp(ctx, { id, username: user.username }, { reset: true });
      return true;
    },
    updateOtpPolicy: async (_p, args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      await updateOtpPolicy(ctx, args.input);
      const state = await readSection(ctx, OTP_POLICY_SECTION);
      return { ...state.saved, pendingChanges: state.pending };
    },
    createGatewayLoginToken: (_p, { userId, label, expiresAt }, ctx) => {
      requireSelfOrAdmin(ctx.identity, userId);
      return createLoginToken(ctx, userId, { label, expiresAt: expiresAt as Date | null | undefined });
    },
    revokeGatewayLoginToken: (_p, { userId, id }, ctx) => {
      requireSelfOrAdmin(ctx.identity, userId);
      return revokeLoginToken(ctx, userId, id);
    },
    gatewayPasswordlessLogin: (_p, { token, otp }, ctx) => loginWithToken(ctx, token, otp),
  },
} satisfies Resolvers;
