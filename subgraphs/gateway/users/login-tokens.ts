// Passwordless login tokens: an administrator (or the user) creates one, it is shown once, and it
// signs the user in without a password (POST /api/v2/passwordless-login) until it expires or is
// revoked, as often as needed; each use is recorded (lastUsedAt). OTP, when set up, is still
// asked. Tokens are "<id>.<secret>" with only a keyed hash of the secret stored.
import crypto from "node:crypto";
import { fail } from "../../../lib/errors.ts";
import { violationError } from "../../../lib/gateway/collection-rules.ts";
import { credentialKeys } from "../../../lib/throttle.ts";
import type { GatewayContext } from "../context.ts";
import { completeSignIn, signInFailures, type LoginResult } from "../auth/sessions.ts";

const TOKEN_PATTERN = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;
export const MAX_LABEL_LENGTH = 100;

function tokenHash(secretKey: Buffer, secret: string): string {
  const key = crypto.createHmac("sha256", secretKey).update("gateway-login-token-v1").digest();
  return crypto.createHmac("sha256", key).update(secret).digest("hex");
}

type Ctx = Pick<GatewayContext, "db" | "config">;

export async function createLoginToken(ctx: Ctx, userId: number, input: { label: string; expiresAt?: Date | null }, now = new Date()) {
  const label = input.label.trim();
  const violations = [];
  if (!label || label.length > MAX_LABEL_LENGTH) violations.push({ propertyPath: "label", message: `The label must have 1 to ${MAX_LABEL_LENGTH} characters.` });
  if (input.expiresAt && input.expiresAt <= now) violations.push({ propertyPath: "expiresAt", message: "The expiry must be in the future." });
  if (violations.length) throw violationError(violations);
  if (!await ctx.db.prisma.gatewayUser.findUnique({ where: { id: userId } })) return fail("gateway_not_found");
  const id = crypto.randomBytes(12).toString("base64url");
  const secret = crypto.randomBytes(32).toString("base64url");
  const row = await ctx.db.prisma.gatewayLoginToken.create({
    data: { id, userId, label, secretHash: tokenHash(ctx.config.secretKey, secret), createdAt: now, expiresAt: input.expiresAt ?? null },
  });
  return { ...row, token: `${id}.${secret}` };
}

export const listLoginTokens = (ctx: Ctx, userId: number) =>
  ctx.db.prisma.gatewayLoginToken.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });

export async function revokeLoginToken(ctx: Ctx, userId: number, id: string): Promise<boolean> {
  const { count } = await ctx.db.prisma.gatewayLoginToken.deleteMany({ where: { id, userId } });
  return count > 0;
}

/** Signs in with a passwordless token (and the OTP code when the user has one); records the token's use. */
export async function loginWithToken(ctx: Ctx & { identity?: GatewayContext["identity"] }, token: string, otp: string | null | undefined, now = new Date()): Promise<LoginResult> {
  const match = TOKEN_PATTERN.exec(token);
  const keys = credentialKeys("gateway-token", match?.[1] ?? "malformed", ctx.identity?.client);
  const retryAfter = signInFailures.retryAfter(keys);
  if (retryAfter > 0) return fail("too_many_attempts", { data: { retryAfter } });
  const row = match ? await ctx.db.prisma.gatewayLoginToken.findUnique({ where: { id: match[1] } }) : null;
  const expected = Buffer.from(row?.secretHash ?? "", "hex");
  const actual = Buffer.from(tokenHash(ctx.config.secretKey, match?.[2] ?? ""), "hex");
  if (!row || expected.length !== actual.length || !crypto.timingSafeEqual(expected, actual) || (row.expiresAt && row.expiresAt <= now)) {
    signInFailures.fail(keys);
    return fail("gateway_invalid_credentials");
  }
  const user = await ctx.db.prisma.gatewayUser.findUnique({ where: { id: row.userId } });
  if (!user) return fail("gateway_invalid_credentials");
  await ctx.db.prisma.gatewayLoginToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  return completeSignIn(ctx, user, otp, keys, now);
}
