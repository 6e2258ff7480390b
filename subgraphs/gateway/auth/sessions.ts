// Gateway sign-in: `gatewayLogin` trades a username and password for an opaque session token
// (sent back as X-ESG-Auth-Token), and the router checks that token once per request.
// Tokens are "<id>.<secret>": the id finds the session, and only a keyed hash of the secret
// is stored (a database leak yields no usable token), compared in constant time.
import crypto from "node:crypto";
import type { GatewayIdentity } from "../../../lib/identity.ts";
import { fail } from "../../../lib/errors.ts";
import type { GatewayContext } from "../context.ts";
import { decoyHash, verifyPassword } from "./passwords.ts";
import { CREDENTIAL_THROTTLE, Throttle, credentialKeys } from "../../../lib/throttle.ts";
import { appliedOtpPolicy, checkSecondFactor, otpMandatoryFor } from "../users/otp.ts";

/** API users (email-gateway-api.md §2) have no permissions of their own: every call names the user it acts as in X-Switch-User. */
import { API_ROLE } from "../../../lib/gateway/roles.ts";

export { API_ROLE };
/** The only role of a session whose user must set up OTP (mandatory by policy) before anything else. */
export const OTP_ENROLLMENT_ROLE = "otp-enrollment";

/** Absolute lifetime of a token; clients sign in again when told it has expired (seed: no scheme given). */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const TOKEN_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
// Far above any real credential; stops megabyte-long inputs from reaching scrypt.
const MAX_CREDENTIAL_LENGTH = 1024;

export interface LoginResult {
  token: string;
  expiresAt: Date;
  /** OTP is mandatory for the user and not set up: the session may only set it up. */
  otpEnrollmentRequired: boolean;
}

/** HMAC-SHA-256 of the token secret under a key derived for this use only. */
function secretHash(secretKey: Buffer, secret: string): Buffer {
  const key = crypto.createHmac("sha256", secretKey).update("gateway-session-v1").digest();
  return crypto.createHmac("sha256", key).update(secret).digest();
}

type SessionContext = Pick<GatewayContext, "db" | "config"> & { identity?: GatewayContext["identity"] };

/** Failed sign-ins, counted per account and per client address (this process's share). */
export const signInFailures = new Throttle(CREDENTIAL_THROTTLE);

/** A new session for a user who proved who they are: the token handed out once. */
export async function openSession(ctx: SessionContext, userId: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const { db, config: { secretKey } } = ctx;
  const id = crypto.randomBytes(16).toString("base64url");
  const secret = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  // Expired sessions are useless; dropping the user's old ones here keeps the table small.
  await db.prisma.gatewaySession.deleteMany({ where: { userId, expiresAt: { lte: now } } });
  await db.prisma.gatewaySession.create({
    data: { id, userId, secretHash: secretHash(secretKey, secret).toString("hex"), createdAt: now, expiresAt },
  });
  return { token: `${id}.${secret}`, expiresAt };
}

/** The second factor, counted as a failed sign-in when missing or wrong; then the session. */
export async function completeSignIn(ctx: SessionContext, user: { id: number; username: string }, otp: string | null | undefined, keys: string[], now: Date): Promise<LoginResult> {
  let factor: { enrollmentRequired: boolean };
  try {
    factor = await checkSecondFactor(ctx, user, otp, now);
  } catch (error) {
    signInFailures.fail(keys);
    throw error;
  }
  signInFailures.forget(keys[0]);
  return { ...(await openSession(ctx, user.id, now)), otpEnrollmentRequired: factor.enrollmentRequired };
}

export async function login(ctx: SessionContext, username: string, password: string, now = new Date(), otp?: string | null): Promise<LoginResult> {
  const { db } = ctx;
  const keys = credentialKeys("gateway", username, ctx.identity?.client);
  // Refused before any hash is computed: a flood of guesses costs a map lookup each.
  const retryAfter = signInFailures.retryAfter(keys);
  if (retryAfter > 0) return fail("too_many_attempts", { data: { retryAfter } });
  const tooLong = username.length > MAX_CREDENTIAL_LENGTH || password.length > MAX_CREDENTIAL_LENGTH;
  const user = tooLong ? null : await db.prisma.gatewayUser.findUnique({ where: { username } });
  // Hash even for unknown users so the response time does not tell which usernames exist.
  const valid = await verifyPassword(password, user?.passwordHash ?? await decoyHash());
  if (!user || !valid || tooLong) {
    signInFailures.fail(keys);
    return fail("gateway_invalid_credentials");
  }
  // External identity provider users sign in there, not with a password here.
  const profile = await db.prisma.gatewayUserProfile.findUnique({ where: { userId: user.id } });
  if (profile?.identityProvider === "external") {
    signInFailures.fail(keys);
    return fail("gateway_invalid_credentials");
  }
  return completeSignIn(ctx, user, otp, keys, now);
}

/** The identity behind a token, recording its use; DomainError 401 when unknown or expired. */
export async function authenticateToken(ctx: SessionContext, token: string, now = new Date(), switchUser?: string | null): Promise<Required<GatewayIdentity>> {
  const { db, config: { secretKey } } = ctx;
  const match = TOKEN_PATTERN.exec(token);
  const invalid = () => fail("gateway_token_invalid");
  if (!match) return invalid();
  const session = await db.prisma.gatewaySession.findUnique({ where: { id: match[1] }, include: { user: true } });
  const expected = Buffer.from(session?.secretHash ?? "", "hex");
  const actual = secretHash(secretKey, match[2]);
  if (!session || expected.length !== actual.length || !crypto.timingSafeEqual(expected, actual)) return invalid();
  if (session.expiresAt <= now) return fail("gateway_token_expired");
  await db.prisma.gatewaySession.update({ where: { id: session.id }, data: { lastUsedAt: now } });
  let user = session.user;
  const isApiUser = user.roles.includes(API_ROLE);
  if (switchUser) {
    // Only API users act as someone else, and never as another API user; an unknown target is 403, not 404.
    const target = isApiUser ? await db.prisma.gatewayUser.findUnique({ where: { username: switchUser } }) : null;
    if (!target || target.roles.includes(API_ROLE)) return fail("gateway_forbidden");
    user = target;
  } else if (isApiUser) {
    return fail("gateway_switch_user_required");
  }
  return { userId: user.id, username: user.username, roles: await effectiveRoles(ctx, user), sessionId: session.id };
}

/** A user's roles, unless OTP is mandatory for them (policy in force) and not set up: then only enrollment. */
async function effectiveRoles(ctx: SessionContext, user: { id: number; username: string; roles: string[] }): Promise<string[]> {
  const policy = await appliedOtpPolicy(ctx);
  if (!otpMandatoryFor(policy, user.username)) return user.roles;
  const profile = await ctx.db.prisma.gatewayUserProfile.findUnique({ where: { userId: user.id } });
  if (profile?.identityProvider === "external" || profile?.otpEnabledAt) return user.roles;
  return [OTP_ENROLLMENT_ROLE];
}

/** Revokes the session of the caller's token; false when the caller signed in with none. */
export async function logout(ctx: Pick<GatewayContext, "db" | "identity">): Promise<boolean> {
  const sessionId = ctx.identity.gateway?.sessionId;
  if (!sessionId) return false;
  await ctx.db.prisma.gatewaySession.deleteMany({ where: { id: sessionId } });
  return true;
}
