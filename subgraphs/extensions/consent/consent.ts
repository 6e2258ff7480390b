// Cookie consent, as CookieYes does it: a manager starts a scan, which hands the scanner a token;
// the scanner pushes its results to consent/v1/fetch_results with that token; new categories and
// cookies are added by name (the first one found wins), the scan is marked finished and its token
// cleared, so the results can be pushed once. Uninstall feedback is stored and posted to the
// feedback service (CONSENT_FEEDBACK_URL) without waiting for it.
//
// Where CookieYes skips the token check (an undecodable body, or no scan at all) this service
// refuses with "Token mismatch": a results push always needs the running scan's token.
import crypto from "node:crypto";
import { can } from "../../../lib/capabilities.ts";
import { httpClientFor, type HttpClient } from "../../../lib/http-client.ts";
import type { ExtensionsContext } from "../context.ts";
import { forbidden, pluginError } from "../forms/errors.ts";

export const UNINSTALL_REASONS = ["setup-difficult", "not-have-that-feature", "affecting-performance", "found-better-plugin", "temporary-deactivation", "other"] as const;
export const CONSENT_PLUGIN_VERSION = "3.5.3";

const canManage = (ctx: ExtensionsContext) => can(ctx.identity.site?.roles, "manage_options", ctx.identity.site?.scope);

const scanView = (scan: { id: number; status: number; token: string | null; createdAt: Date; finishedAt: Date | null }, showToken: boolean) => ({
  id: scan.id, status: scan.status, token: showToken ? scan.token : null, createdAt: scan.createdAt.toISOString(), finishedAt: scan.finishedAt?.toISOString() ?? null,
});

export async function startScan(ctx: ExtensionsContext) {
  if (!canManage(ctx)) forbidden(ctx.identity);
  const scan = await ctx.prisma.consentScan.create({ data: { token: crypto.randomBytes(24).toString("hex") } });
  return scanView(scan, true);
}

export async function latestScan(ctx: ExtensionsContext) {
  if (!canManage(ctx)) forbidden(ctx.identity);
  const scan = await ctx.prisma.consentScan.findFirst({ orderBy: { id: "desc" } });
  return scan ? scanView(scan, true) : null;
}

export async function cookieCategories(ctx: ExtensionsContext) {
  const categories = await ctx.prisma.consentCategory.findMany({ orderBy: { id: "asc" }, include: { cookies: { orderBy: { id: "asc" } } } });
  return categories.map((c) => ({ id: c.id, name: c.name, description: c.description, cookies: c.cookies }));
}

interface ScannedCategory { category?: unknown; category_desc?: unknown; cookies?: unknown }
interface ScannedCookie { cookie_id?: unknown; description?: unknown; duration?: unknown; type?: unknown; frist_found_url?: unknown; first_found_url?: unknown }

const text = (v: unknown, max = 2000) => (typeof v === "string" ? v.slice(0, max) : typeof v === "number" ? String(v) : "");

/** The scanner's `scan_result`: a JSON list of categories with their cookies; anything else is nothing. */
function decodeResults(results: string | null | undefined): ScannedCategory[] | null {
  if (!results) return null;
  try {
    const value: unknown = JSON.parse(results);
    return Array.isArray(value) && value.length > 0 ? value.filter((c): c is ScannedCategory => !!c && typeof c === "object") : null;
  } catch { return null; }
}

function sameToken(a: string | null, b: string | null | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export async function receiveResults(ctx: ExtensionsContext, token: string | null | undefined, results: string | null | undefined) {
  if (!results && !token) return { success: false, data: "Failed to insert" };
  const scan = await ctx.prisma.consentScan.findFirst({ where: { status: 1 }, orderBy: { id: "desc" } });
  if (!scan || !sameToken(scan.token, token)) return { success: false, data: "Token mismatch" };
  const categories = decodeResults(results);
  if (!categories) return { success: false, data: "Failed to insert" };
  const claimed = await ctx.prisma.$transaction(async (tx) => {
    // Claiming the scan first: of two pushes of one token, the one that waited on the other's row
    // lock finds the scan finished and inserts nothing (it is then a token mismatch, as a later push).
    const claim = await tx.consentScan.updateMany({ where: { id: scan.id, status: 1, token: scan.token }, data: { status: 2, token: null, finishedAt: new Date() } });
    if (claim.count === 0) return false;
    for (const c of categories) {
      const name = text(c.category, 190).trim();
      if (!name) continue;
      await tx.consentCategory.createMany({ data: [{ name, description: text(c.category_desc) }], skipDuplicates: true });
      const category = await tx.consentCategory.findUniqueOrThrow({ where: { name } });
      const cookies = (Array.isArray(c.cookies) ? c.cookies : []).filter((k): k is ScannedCookie => !!k && typeof k === "object")
        .map((k) => ({
          name: text(k.cookie_id, 190).trim(), description: text(k.description), duration: text(k.duration, 190), type: text(k.type, 190),
          firstFoundUrl: text(k.frist_found_url ?? k.first_found_url, 2000), categoryId: category.id, scanId: scan.id,
        }))
        .filter((k) => k.name);
      if (cookies.length) await tx.consentCookie.createMany({ data: cookies, skipDuplicates: true });
    }
    return true;
  });
  return claimed ? { success: true, data: "Successfully inserted" } : { success: false, data: "Token mismatch" };
}

/** CookieYes' "M d, Y h:i:s A" in GMT, e.g. "Jan 05, 2024 10:41:00 AM". */
export function feedbackDate(date: Date): string {
  const month = date.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  const pad = (n: number) => String(n).padStart(2, "0");
  const hours = date.getUTCHours() % 12 || 12;
  return `${month} ${pad(date.getUTCDate())}, ${date.getUTCFullYear()} ${pad(hours)}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} ${date.getUTCHours() < 12 ? "AM" : "PM"}`;
}

/** The outbound client (tests reach a local fake feedback service through HTTP_ALLOWED_HOSTS). */
const feedbackClient = (ctx: ExtensionsContext): HttpClient => httpClientFor(ctx.config);

export async function submitUninstallFeedback(ctx: ExtensionsContext, input: { reasonId?: string | null; reasonText?: string | null; reasonInfo?: string | null }) {
  // CookieYes' own refusal code, 401 anonymous / 403 signed in.
  if (!canManage(ctx)) pluginError("cookieyes_rest_cannot_create", { status: ctx.identity.site ? 403 : 401 });
  const reasonId = input.reasonId ?? "";
  if (!(UNINSTALL_REASONS as readonly string[]).includes(reasonId)) return { success: false };
  const payload = {
    reason_slug: reasonId,
    reason_detail: (input.reasonText ?? "").slice(0, 2000),
    date: feedbackDate(new Date()),
    comments: (input.reasonInfo ?? "").slice(0, 2000),
    server: "node",
    php_version: "",
    mysql_version: "",
    wp_version: "",
    wc_version: "",
    locale: "en_US",
    plugin_version: CONSENT_PLUGIN_VERSION,
    is_multisite: false,
  };
  const row = await ctx.prisma.consentFeedback.create({
    data: { reasonId, reasonText: payload.reason_detail, reasonInfo: payload.comments, payload, userId: ctx.identity.site?.userId ?? null },
  });
  // Non-blocking, as CookieYes posts it: the answer does not wait for the service.
  const prisma = ctx.prisma;
  void feedbackClient(ctx).request(ctx.config.formsPlugins.consentFeedbackUrl, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload), timeoutMs: 5000, maxBytes: 64 * 1024,
  }).then(async (response) => {
    if (response.status >= 200 && response.status < 300) await prisma.consentFeedback.update({ where: { id: row.id }, data: { delivered: true } });
  }).catch(() => { /* the service is unreachable: the feedback stays stored, undelivered */ });
  return { success: true };
}
