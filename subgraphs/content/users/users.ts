// Site users and their application passwords. Application passwords are high-entropy machine
// secrets: stored as HMAC-SHA-256 keyed with the secret key, compared in constant time.
import { CREDENTIAL_THROTTLE, Throttle, credentialKeys } from "../../../lib/throttle.ts";
import crypto from "node:crypto";
import { fail } from "../../../lib/errors.ts";
import { keptUntilWrite } from "../../../lib/kept-until-write.ts";
import type { ContentContext } from "../context.ts";

/** WordPress shows application passwords in groups of four; only letters and digits count. */
export const normalizeAppPassword = (password: string): string => password.replace(/[^a-z\d]/gi, "");

export function hashAppPassword(password: string, secretKey: Buffer): string {
  return crypto.createHmac("sha256", secretKey).update(normalizeAppPassword(password)).digest("hex");
}

/** 24 characters from WordPress's alphabet, shown as six groups of four. */
export function generateAppPassword(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const chars = Array.from({ length: 24 }, () => alphabet[crypto.randomInt(alphabet.length)]);
  return chars.join("").match(/.{4}/g)!.join(" ");
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A user's id, roles and application passwords, by login or email. Every signed-in request asks,
 * so on PGlite they are kept until this process writes users or application passwords (a use
 * recorded once a day is such a write); an unknown name is not kept.
 */
function passwordsOf(ctx: ContentContext, username: string) {
  const where = username.includes("@") ? { email: username } : { login: username };
  return keptUntilWrite(ctx.db, `content:application-passwords:${JSON.stringify(where)}`, ["User", "ApplicationPassword"], () => ctx.prisma.user.findFirst({
    where,
    select: { id: true, roles: true, applicationPasswords: { select: { uuid: true, secretHash: true, lastUsedAt: true, lastIp: true } } },
  }), { keep: (user) => user !== null });
}

/** Failed application-password checks, counted per account and per client address (this process's share). */
const appPasswordFailures = new Throttle(CREDENTIAL_THROTTLE);

/** Checks a username (or email) and application password; only the router may ask. */
export async function authenticateApplicationPassword(
  ctx: ContentContext, username: string, password: string, ip: string | null = null,
): Promise<{ userId: number; roles: string[]; appPassword: string }> {
  if (!ctx.identity.router) fail("forbidden");
  const keys = credentialKeys("site", username, ip ?? undefined);
  // Refused before any lookup: a flood of guesses costs a map lookup each.
  const retryAfter = appPasswordFailures.retryAfter(keys);
  if (retryAfter > 0) return fail("too_many_attempts", { data: { retryAfter } });
  const failed = (code: "invalid_email" | "invalid_username" | "incorrect_password"): never => {
    appPasswordFailures.fail(keys);
    return fail(code);
  };
  const user = await passwordsOf(ctx, username);
  if (!user) return failed(username.includes("@") ? "invalid_email" : "invalid_username");
  const presented = Buffer.from(hashAppPassword(password, ctx.config.secretKey), "hex");
  const match = user.applicationPasswords.find((p) => crypto.timingSafeEqual(Buffer.from(p.secretHash, "hex"), presented));
  if (!match) return failed("incorrect_password");
  appPasswordFailures.forget(keys[0]);
  // Like WordPress, record the use (and a new address) at most once a day: no write on every request.
  const now = new Date();
  if (!match.lastUsedAt || now.getTime() - match.lastUsedAt.getTime() >= DAY_MS || (ip && ip !== match.lastIp)) {
    await ctx.prisma.applicationPassword.update({ where: { uuid: match.uuid }, data: { lastUsedAt: now, ...(ip ? { lastIp: ip } : {}) } });
  }
  return { userId: user.id, roles: user.roles, appPassword: match.uuid };
}

export const gravatarUrl = (email: string, size: number): string =>
  `https://secure.gravatar.com/avatar/${crypto.createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}?s=${size}&d=mm&r=g`;
