// The public submissions table (Ninja Forms' ninja-forms-views): managers see every form; anyone
// else needs a views token (header X-NinjaFormsViews-Auth) naming the form. Tokens are HS256 JWTs
// (jose) keyed from SECRET_KEY, scoped to forms and to this use (audience "forms-views"), valid
// 15 minutes; refresh takes a token expired up to 24 hours, for a form it already names. Requests
// are counted per client address and route: 60 a minute (refresh 50 per 5 minutes), managers exempt.
import crypto from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { Throttle } from "../../../lib/throttle.ts";
import type { ExtensionsContext } from "../context.ts";
import { pluginError } from "./errors.ts";
import { FIELD_TYPES_WITHOUT_VALUES, fieldsOf, formView, submissionView } from "./forms.ts";
import { formsLoaders } from "./loaders.ts";
import { canManageForms, requireManageForms } from "./permissions.ts";

export const VIEW_TOKEN_TTL_SECONDS = 900;
const REFRESH_GRACE_SECONDS = 24 * 60 * 60;
const MAX_TOKEN_LENGTH = 8192;
const AUDIENCE = "forms-views";

const key = (ctx: ExtensionsContext) => crypto.createHmac("sha256", ctx.config.secretKey).update("forms-views-token-v1").digest();

const limits = {
  read: new Throttle({ limit: 60, windowMs: 60_000 }),
  refresh: new Throttle({ limit: 50, windowMs: 5 * 60_000 }),
};

/** Counts the request against the caller's address; over the limit is 429 rate_limit_exceeded. */
function rateLimit(ctx: ExtensionsContext, kind: keyof typeof limits, route: string): void {
  if (canManageForms(ctx.identity)) return;
  const keys = [`forms-views:${ctx.identity.client ?? "unknown"}:${route}`];
  const wait = limits[kind].retryAfter(keys);
  if (wait > 0) pluginError("rate_limit_exceeded", { data: { retryAfter: wait } });
  limits[kind].fail(keys);
}

export async function mintViewToken(ctx: ExtensionsContext, formIds: readonly number[], formId = 0) {
  const publicKey = crypto.randomBytes(16).toString("hex");
  const token = await new SignJWT({ formIds: [...formIds] })
    .setProtectedHeader({ alg: "HS256" }).setJti(publicKey).setAudience(AUDIENCE).setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + VIEW_TOKEN_TTL_SECONDS)
    .sign(key(ctx));
  return { token, publicKey, expiresIn: VIEW_TOKEN_TTL_SECONDS, formId };
}

/** The forms a token opens; refused when forged, expired (beyond `graceSeconds`) or too long. */
async function tokenForms(ctx: ExtensionsContext, token: string, graceSeconds = 0): Promise<number[]> {
  if (!token || token.length > MAX_TOKEN_LENGTH) pluginError("invalid_token");
  try {
    const { payload } = await jwtVerify(token, key(ctx), { algorithms: ["HS256"], audience: AUDIENCE, clockTolerance: graceSeconds });
    const ids = payload.formIds;
    if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) return pluginError("invalid_token");
    return ids as number[];
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return pluginError("invalid_token");
    throw error;
  }
}

/** Managers pass; others need a token that names the form. */
async function requireFormAccess(ctx: ExtensionsContext, formId: number, token: string | null | undefined): Promise<void> {
  if (canManageForms(ctx.identity)) return;
  if (!token) pluginError("invalid_token", { message: "A views token is required." });
  const forms = await tokenForms(ctx, token);
  if (!forms.includes(formId)) pluginError("unauthorized_form_access");
}

export async function createViewToken(ctx: ExtensionsContext, formIds: readonly number[]) {
  requireManageForms(ctx);
  const forms = await Promise.all(formIds.map((id) => formsLoaders(ctx).formById.load(id)));
  if (formIds.length === 0 || forms.some((f) => !f)) pluginError("form_not_found");
  return mintViewToken(ctx, formIds, formIds.length === 1 ? formIds[0] : 0);
}

export async function refreshViewToken(ctx: ExtensionsContext, token: string, formId: number) {
  rateLimit(ctx, "refresh", "token/refresh");
  if (!Number.isInteger(formId) || formId <= 0) pluginError("invalid_form_id");
  const forms = await tokenForms(ctx, token, REFRESH_GRACE_SECONDS);
  if (!forms.includes(formId)) pluginError("unauthorized_form_access");
  if (!(await formsLoaders(ctx).formById.load(formId))) pluginError("form_not_found");
  return mintViewToken(ctx, [formId], formId);
}

export async function viewForms(ctx: ExtensionsContext, token: string | null | undefined) {
  rateLimit(ctx, "read", "forms");
  if (canManageForms(ctx.identity)) return (await ctx.prisma.form.findMany({ orderBy: { id: "asc" } })).map(formView);
  if (!token) pluginError("invalid_token", { message: "A views token is required." });
  const ids = await tokenForms(ctx, token);
  return (await ctx.prisma.form.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } })).map(formView);
}

async function existingForm(ctx: ExtensionsContext, formId: number): Promise<void> {
  if (!(await formsLoaders(ctx).formById.load(formId))) pluginError("form_not_found");
}

export async function viewFields(ctx: ExtensionsContext, formId: number, token: string | null | undefined) {
  rateLimit(ctx, "read", "forms/fields");
  await requireFormAccess(ctx, formId, token);
  await existingForm(ctx, formId);
  return (await fieldsOf(ctx, formId)).filter((f) => !FIELD_TYPES_WITHOUT_VALUES.has(f.type));
}

export async function viewSubmissions(ctx: ExtensionsContext, formId: number, token: string | null | undefined, page: number, perPage: number) {
  rateLimit(ctx, "read", "forms/submissions");
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) pluginError("invalid_value", { status: 400, message: "perPage must be between 1 and 100." });
  if (!Number.isInteger(page) || page < 1) pluginError("invalid_value", { status: 400, message: "page must be at least 1." });
  await requireFormAccess(ctx, formId, token);
  await existingForm(ctx, formId);
  const rows = await ctx.prisma.formSubmission.findMany({
    where: { formId, status: "active" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: (page - 1) * perPage, take: perPage,
  });
  return Promise.all(rows.map((r) => submissionView(ctx, r)));
}
