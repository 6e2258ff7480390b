// One-time passwords (TOTP, RFC 6238, with the otpauth library): enrollment (a sealed secret, then
// a first good code enables it), verification at sign-in (a code is good once: its time step must
// be newer than the last one accepted), and the policy that makes OTP mandatory for all or for
// selected users. The policy is a configuration section, so it takes effect after apply-settings.
// Users of an external identity provider sign in there: OTP is unavailable to them and the
// policy does not apply.
import crypto from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { fail } from "../../../lib/errors.ts";
import { OTP_MANDATORY } from "../../../lib/gateway/appliance.ts";
import { violationError } from "../../../lib/gateway/collection-rules.ts";
import type { GatewayContext } from "../context.ts";
import { appliedSection, readSection, stageChange, type ConfigSection, type SettingsContext } from "../appliance/settings.ts";

export const OTP_ISSUER = "Email Security Gateway";
const PERIOD = 30;

export interface OtpPolicy extends Record<string, string | string[]> {
  mandatory: (typeof OTP_MANDATORY)[number];
  /** Usernames OTP is mandatory for when `mandatory` is "selected". */
  users: string[];
}

export const OTP_POLICY_SECTION: ConfigSection<OtpPolicy> = { name: "otp-policy", defaults: { mandatory: "none", users: [] } };

/** AES-256-GCM under a key derived from SECRET_KEY for this use only: a database leak yields no OTP secret. */
function sealingKey(secretKey: Buffer): Buffer {
  return crypto.createHmac("sha256", secretKey).update("gateway-otp-secret-v1").digest();
}

export function sealSecret(secretKey: Buffer, base32: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", sealingKey(secretKey), iv);
  const data = Buffer.concat([cipher.update(base32, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export function openSecret(secretKey: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !data) throw new Error("Unknown OTP secret format.");
  const decipher = crypto.createDecipheriv("aes-256-gcm", sealingKey(secretKey), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

export const totpFor = (username: string, base32: string): TOTP =>
  new TOTP({ issuer: OTP_ISSUER, label: username, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(base32) });

/** The time step a code matches (±1 step of clock drift), or null. */
export function matchingStep(totp: TOTP, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

type Ctx = Pick<GatewayContext, "db" | "config">;
interface UserRef { id: number; username: string }

/** Whether the policy in force makes OTP mandatory for this user. */
export function otpMandatoryFor(policy: OtpPolicy, username: string): boolean {
  return policy.mandatory === "all" || (policy.mandatory === "selected" && policy.users.includes(username));
}

export type OtpState = "unavailable" | "disabled" | "required" | "enabled";

export interface OtpFacts { identityProvider: string; otpEnabledAt: Date | null }

export function otpState(facts: OtpFacts | null, policy: OtpPolicy, username: string): OtpState {
  if (facts?.identityProvider === "external") return "unavailable";
  if (facts?.otpEnabledAt) return "enabled";
  return otpMandatoryFor(policy, username) ? "required" : "disabled";
}

export const appliedOtpPolicy = (ctx: Pick<GatewayContext, "db">) => appliedSection(ctx, OTP_POLICY_SECTION);

/** Starts (or restarts) enrollment: a new secret, not enabled until confirmed with a good code. */
export async function startOtpEnrollment(ctx: Ctx, user: UserRef): Promise<{ secret: string; uri: string }> {
  const profile = await ctx.db.prisma.gatewayUserProfile.findUnique({ where: { userId: user.id } });
  if (profile?.identityProvider === "external") return fail("gateway_otp_unavailable");
  if (profile?.otpEnabledAt) return fail("gateway_conflict", { message: "A one-time password is already set up; reset it first." });
  const secret = new Secret({ size: 20 }).base32;
  const otpSecret = sealSecret(ctx.config.secretKey, secret);
  await ctx.db.prisma.gatewayUserProfile.upsert({
    where: { userId: user.id }, create: { userId: user.id, otpSecret }, update: { otpSecret, otpEnabledAt: null, otpLastStep: null },
  });
  return { secret, uri: totpFor(user.username, secret).toString() };
}

/** Confirms enrollment with a code from the authenticator: OTP is on from now. */
export async function confirmOtpEnrollment(ctx: Ctx, user: UserRef, code: string, now = new Date()): Promise<void> {
  const profile = await ctx.db.prisma.gatewayUserProfile.findUnique({ where: { userId: user.id } });
  if (profile?.identityProvider === "external") return fail("gateway_otp_unavailable");
  if (!profile?.otpSecret) return fail("gateway_conflict", { message: "Start the one-time password set-up first." });
  if (profile.otpEnabledAt) return fail("gateway_conflict", { message: "A one-time password is already set up." });
  const step = matchingStep(totpFor(user.username, openSecret(ctx.config.secretKey, profile.otpSecret)), code, now);
  if (step === null) throw violationError([{ propertyPath: "code", message: "The code is not valid." }]);
  await ctx.db.prisma.gatewayUserProfile.update({ where: { userId: user.id }, data: { otpEnabledAt: now, otpLastStep: step } });
}

/** Turns a user's OTP off (their own choice, refused while mandatory for them; or an administrator's reset). */
export async function removeOtp(ctx: Ctx, user: UserRef, options: { reset: boolean }): Promise<void> {
  if (!options.reset && otpMandatoryFor(await appliedOtpPolicy(ctx), user.username)) {
    return fail("gateway_conflict", { message: "One-time passwords are mandatory for this user." });
  }
  await ctx.db.prisma.gatewayUserProfile.updateMany({ where: { userId: user.id }, data: { otpSecret: null, otpEnabledAt: null, otpLastStep: null } });
}

/**
 * The second factor at sign-in. Returns whether the session must enroll before doing anything
 * else (OTP mandatory, not set up). Throws 401 when a code is needed and missing or wrong.
 */
export async function checkSecondFactor(ctx: Ctx, user: UserRef, code: string | null | undefined, now: Date): Promise<{ enrollmentRequired: boolean }> {
  const profile = await ctx.db.prisma.gatewayUserProfile.findUnique({ where: { userId: user.id } });
  if (profile?.identityProvider === "external") return { enrollmentRequired: false };
  if (profile?.otpEnabledAt && profile.otpSecret) {
    if (!code) return fail("gateway_otp_required");
    const step = matchingStep(totpFor(user.username, openSecret(ctx.config.secretKey, profile.otpSecret)), code, now);
    // A code is good once: a replay within its 30 seconds is refused.
    if (step === null || (profile.otpLastStep !== null && step <= profile.otpLastStep)) return fail("gateway_otp_invalid");
    const { count } = await ctx.db.prisma.gatewayUserProfile.updateMany({
      where: { userId: user.id, OR: [{ otpLastStep: null }, { otpLastStep: { lt: step } }] }, data: { otpLastStep: step },
    });
    if (!count) return fail("gateway_otp_invalid");
    return { enrollmentRequired: false };
  }
  return { enrollmentRequired: otpMandatoryFor(await appliedOtpPolicy(ctx), user.username) };
}

/** Saves the OTP policy as pending (apply-settings makes it take effect). */
export async function updateOtpPolicy(ctx: SettingsContext, input: { mandatory?: string | null; users?: readonly string[] | null }): Promise<OtpPolicy> {
  const { saved } = await readSection(ctx, OTP_POLICY_SECTION);
  const next: OtpPolicy = { ...saved };
  if (input.mandatory != null) {
    if (!(OTP_MANDATORY as readonly string[]).includes(input.mandatory)) {
      throw violationError([{ propertyPath: "mandatory", message: `The value you selected is not a valid choice; allowed: ${OTP_MANDATORY.join(", ")}.` }]);
    }
    next.mandatory = input.mandatory as OtpPolicy["mandatory"];
  }
  if (input.users != null) {
    const users = [...new Set(input.users.map((u) => u.trim()))].sort();
    const known = await ctx.db.prisma.gatewayUser.findMany({ where: { username: { in: users } }, select: { username: true } });
    const missing = users.filter((u) => !known.some((k) => k.username === u));
    if (missing.length) throw violationError([{ propertyPath: "users", message: `Unknown users: ${missing.map((m) => m.slice(0, 64)).join(", ")}.` }]);
    next.users = users;
  }
  const { state } = await stageChange(ctx, OTP_POLICY_SECTION, next);
  return state.saved;
}
