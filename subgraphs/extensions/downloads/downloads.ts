// Download packages as WordPress Download Manager serves them: a captcha or password check hands
// out a download key (32 characters, 3 uses, 1 hour; only its SHA-256 is stored); passwords are
// stored as scrypt hashes, each with its own usage limit counted by one conditional UPDATE;
// wrong passwords are limited to 10 per client and package in 15 minutes (decided before any hash
// is computed); view counts are one atomic `viewCount = viewCount + 1` per view.
import crypto from "node:crypto";
import { promisify } from "node:util";
import type { DownloadPackage } from "../../../generated/prisma/client.ts";
import { can } from "../../../lib/capabilities.ts";
import { Throttle } from "../../../lib/throttle.ts";
import type { ExtensionsContext } from "../context.ts";
import { forbidden, pluginError } from "../forms/errors.ts";
import { recaptchaEnterpriseVerifier, type CaptchaVerifier } from "./captcha.ts";

const scrypt = promisify(crypto.scrypt) as (password: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

export const KEY_USES = 3;
export const KEY_LIFETIME_MS = 60 * 60 * 1000;
export const PASSWORD_ATTEMPTS = { limit: 10, windowMs: 15 * 60 * 1000 };
const attempts = new Throttle(PASSWORD_ATTEMPTS);

export const WRONG_PASSWORD = "<i class='fas fa-exclamation-triangle'></i> Wrong Password! &mdash; Try Again";

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return crypto.timingSafeEqual(actual, expected);
}

const canManage = (ctx: ExtensionsContext) => can(ctx.identity.site?.roles, "manage_options", ctx.identity.site?.scope);

async function packageView(ctx: ExtensionsContext, row: DownloadPackage) {
  const passwords = await ctx.prisma.downloadPassword.count({ where: { packageId: row.id } });
  return {
    id: row.id, title: row.title, content: row.content, captchaLock: row.captchaLock, passwordLock: passwords > 0, viewCount: row.viewCount, createdAt: row.createdAt.toISOString(),
  };
}

export async function createPackage(ctx: ExtensionsContext, input: {
  title: string; content?: string | null; fileUrl?: string | null; captchaLock?: boolean | null; passwords?: readonly { password: string; usageLimit?: number | null }[] | null;
}) {
  if (!canManage(ctx)) forbidden(ctx.identity);
  if (!input.title.trim()) pluginError("invalid_value", { message: "A package needs a title." });
  for (const p of input.passwords ?? []) {
    if (!p.password) pluginError("invalid_value", { message: "A password must not be empty." });
    if ((p.usageLimit ?? 0) < 0) pluginError("invalid_value", { message: "usageLimit must not be negative." });
  }
  const hashes = await Promise.all((input.passwords ?? []).map(async (p) => ({ hash: await hashPassword(p.password), usageLimit: p.usageLimit ?? 0 })));
  const row = await ctx.prisma.downloadPackage.create({
    data: { title: input.title.trim(), content: input.content ?? "", fileUrl: input.fileUrl ?? "", captchaLock: input.captchaLock ?? false, passwords: { create: hashes } },
  });
  return packageView(ctx, row);
}

export async function readPackage(ctx: ExtensionsContext, id: number) {
  const row = await ctx.prisma.downloadPackage.findUnique({ where: { id } });
  return row ? packageView(ctx, row) : null;
}

export async function searchPackages(ctx: ExtensionsContext, search: string, page: number, perPage: number) {
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) pluginError("invalid_value", { status: 400, message: "perPage must be between 1 and 100." });
  if (!Number.isInteger(page) || page < 1) pluginError("invalid_value", { status: 400, message: "page must be at least 1." });
  const term = search.trim();
  const where = term ? { OR: [{ title: { contains: term, mode: "insensitive" as const } }, { content: { contains: term, mode: "insensitive" as const } }] } : {};
  const [rows, total] = await Promise.all([
    ctx.prisma.downloadPackage.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: (page - 1) * perPage, take: perPage }),
    ctx.prisma.downloadPackage.count({ where }),
  ]);
  const counts = await ctx.prisma.downloadPassword.groupBy({ by: ["packageId"], where: { packageId: { in: rows.map((r) => r.id) } }, _count: true });
  const locked = new Set(counts.map((c) => c.packageId));
  return {
    total,
    packages: rows.map((row) => ({ id: row.id, title: row.title, content: row.content, captchaLock: row.captchaLock, passwordLock: locked.has(row.id), viewCount: row.viewCount, createdAt: row.createdAt.toISOString() })),
  };
}

/** A new download key for a package, and the address that uses it. */
async function issueKey(ctx: ExtensionsContext, packageId: number): Promise<string> {
  const key = crypto.randomBytes(24).toString("base64url").slice(0, 32);
  await ctx.prisma.downloadKey.create({
    data: { keyHash: crypto.createHash("sha256").update(key).digest("hex"), packageId, usesLeft: KEY_USES, expiresAt: new Date(Date.now() + KEY_LIFETIME_MS) },
  });
  await ctx.prisma.downloadKey.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  return `${ctx.config.siteUrl}/download/${packageId}/?wpdmdl=${packageId}&_wpdmkey=${key}`;
}

export async function validateCaptcha(ctx: ExtensionsContext, packageId: number | null | undefined, token: string | null | undefined, verifier: CaptchaVerifier = recaptchaEnterpriseVerifier(ctx.config)) {
  const failed = { downloadUrl: null, error: "Captcha Verification Failed!" };
  if (!packageId || !token) return failed;
  const row = await ctx.prisma.downloadPackage.findUnique({ where: { id: packageId } });
  if (!row) return failed;
  if (!(await verifier.verify(token, "DOWNLOAD"))) return failed;
  return { downloadUrl: await issueKey(ctx, row.id), error: null };
}

export async function validatePassword(ctx: ExtensionsContext, packageId: number | null | undefined, password: string | null | undefined) {
  if (!packageId || password === undefined || password === null || password === "") return { success: false, message: "Invalid request!", downloadUrl: null, retryAfter: null };
  const passwords = await ctx.prisma.downloadPassword.findMany({ where: { packageId }, orderBy: { id: "asc" } });
  if (passwords.length === 0) return { success: false, message: "Invalid request!", downloadUrl: null, retryAfter: null };
  const keys = [`downloads:password:${packageId}:${ctx.identity.client ?? "unknown"}`];
  const wait = attempts.retryAfter(keys);
  if (wait > 0) return { success: false, message: `Too many wrong passwords. Try again in ${wait} seconds.`, downloadUrl: null, retryAfter: wait };
  let matched: (typeof passwords)[number] | undefined;
  // Every password is checked (no early exit), so the time taken does not tell which one matched.
  for (const p of passwords) if ((await passwordMatches(password, p.hash)) && !matched) matched = p;
  if (!matched) {
    attempts.fail(keys);
    return { success: false, message: WRONG_PASSWORD, downloadUrl: null, retryAfter: null };
  }
  const used = await ctx.prisma.downloadPassword.updateMany({
    where: { id: matched.id, OR: [{ usageLimit: 0 }, { uses: { lt: ctx.prisma.downloadPassword.fields.usageLimit } }] },
    data: { uses: { increment: 1 } },
  });
  if (used.count === 0) return { success: false, message: "Password usages limit exceeded", downloadUrl: null, retryAfter: null };
  attempts.forget(keys[0]);
  return { success: true, message: null, downloadUrl: await issueKey(ctx, packageId), retryAfter: null };
}

export async function countView(ctx: ExtensionsContext, packageId: number): Promise<number> {
  try {
    const row = await ctx.prisma.downloadPackage.update({ where: { id: packageId }, data: { viewCount: { increment: 1 } }, select: { viewCount: true } });
    return row.viewCount;
  } catch {
    return pluginError("invalid_value", { status: 404, message: "Invalid package ID." });
  }
}

export async function redeemKey(ctx: ExtensionsContext, packageId: number, key: string) {
  const keyHash = crypto.createHash("sha256").update(key).digest("hex");
  const used = await ctx.prisma.downloadKey.updateMany({ where: { keyHash, packageId, usesLeft: { gt: 0 }, expiresAt: { gt: new Date() } }, data: { usesLeft: { decrement: 1 } } });
  if (used.count === 0) pluginError("invalid_value", { status: 403, message: "Download link is expired. Please get new download link." });
  const row = await ctx.prisma.downloadKey.findUniqueOrThrow({ where: { keyHash }, include: { package: true } });
  return { packageId, fileUrl: row.package.fileUrl, usesLeft: row.usesLeft };
}
