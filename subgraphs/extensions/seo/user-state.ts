// Yoast's small stateful routes: introductions seen, the video-embed permission, dismissed
// alerts, new content types to review, integrations switched on, workouts, the importers, the
// AI consent, and the lookups (available posts, meta search, file size).
import fs from "node:fs/promises";
import path from "node:path";
import { askSubgraphAs } from "./peer.ts";
import { deleteUserMeta, getOption, getUserMeta, requireCapability, seoError, setOption, setUserMeta } from "./store.ts";
import type { ExtensionsContext } from "../context.ts";

/** Introductions Yoast can show now (its introductions collector); others are refused with 400 []. */
export const INTRODUCTIONS = ["ai-brand-insights-pre-launch", "ai-fix-assessments-upsell", "black-friday-announcement", "delayed-premium-upsell", "google-docs-addon-upsell"];
/** Alerts that may be dismissed (the wpseo_allowed_dismissable_alerts filter). */
export const DISMISSABLE_ALERTS = ["ai_generator_tip_notification", "black-friday-2023-product-editor-checklist", "black-friday-promotion", "black-friday-2023-sidebar-checklist", "trustpilot-review-notification", "webinar-promo-notification"];
/** Integrations with an `<name>_integration_active` option. */
export const INTEGRATIONS = ["semrush", "wincher", "algolia", "keyword_provider_a", "rank_tracker"];
export const POST_TYPES = ["post", "page", "attachment"];
export const TAXONOMIES = ["category", "post_tag", "post_format"];

export interface SeenResult { available: boolean; success: boolean }

export async function setIntroductionSeen(ctx: ExtensionsContext, id: string, isSeen: boolean, now = Date.now()): Promise<SeenResult> {
  const userId = requireCapability(ctx, "edit_posts");
  if (!INTRODUCTIONS.includes(id)) return { available: false, success: false };
  const seen = await getUserMeta<Record<string, { is_seen: boolean; seen_on: number }>>(ctx, userId, "_yoast_wpseo_introductions", {});
  seen[id] = { is_seen: isSeen, seen_on: isSeen ? Math.floor(now / 1000) : 0 };
  await setUserMeta(ctx, userId, "_yoast_wpseo_introductions", seen);
  return { available: true, success: true };
}

export async function introductionsSeen(ctx: ExtensionsContext): Promise<{ id: string; isSeen: boolean; seenOn: number }[]> {
  const userId = requireCapability(ctx, "edit_posts");
  const seen = await getUserMeta<Record<string, { is_seen: boolean; seen_on: number }>>(ctx, userId, "_yoast_wpseo_introductions", {});
  return Object.entries(seen).map(([id, v]) => ({ id, isSeen: v.is_seen, seenOn: v.seen_on }));
}

export async function videoEmbedPermission(ctx: ExtensionsContext): Promise<boolean> {
  const userId = requireCapability(ctx, "edit_posts");
  return getUserMeta<boolean>(ctx, userId, "_yoast_wpseo_wistia_embed_permission", false);
}

export async function setVideoEmbedPermission(ctx: ExtensionsContext, value: boolean): Promise<boolean> {
  const userId = requireCapability(ctx, "edit_posts");
  await setUserMeta(ctx, userId, "_yoast_wpseo_wistia_embed_permission", value);
  return true;
}

/** Dismisses an alert for the caller: `false` when the key is not a dismissable alert. */
export async function dismissAlert(ctx: ExtensionsContext, key: string): Promise<boolean> {
  const userId = requireCapability(ctx, "edit_posts");
  if (!DISMISSABLE_ALERTS.includes(key)) return false;
  const dismissed = await getUserMeta<Record<string, boolean>>(ctx, userId, "_yoast_alerts_dismissed", {});
  if (!dismissed[key]) await setUserMeta(ctx, userId, "_yoast_alerts_dismissed", { ...dismissed, [key]: true });
  return true;
}

export async function dismissedAlerts(ctx: ExtensionsContext): Promise<string[]> {
  const userId = requireCapability(ctx, "edit_posts");
  return Object.keys(await getUserMeta<Record<string, boolean>>(ctx, userId, "_yoast_alerts_dismissed", {}));
}

export interface DismissResult { message: string; success: boolean; status: number }

/** Takes a content type off the "new, needs review" list (new_post_types / new_taxonomies). */
export async function dismissNewContentType(ctx: ExtensionsContext, kind: "postType" | "taxonomy", name: string | null): Promise<DismissResult> {
  requireCapability(ctx, "edit_posts");
  const known = kind === "postType" ? POST_TYPES : TAXONOMIES;
  const label = kind === "postType" ? "Post type" : "Taxonomy";
  const option = kind === "postType" ? "wpseo.new_post_types" : "wpseo.new_taxonomies";
  if (name !== null && !known.includes(name)) throw seoError("rest_invalid_param", `Invalid parameter(s): ${kind === "postType" ? "postTypeName" : "taxonomyName"}`, 400, { params: { [kind === "postType" ? "postTypeName" : "taxonomyName"]: "Invalid parameter." } });
  const pending = await getOption<string[]>(ctx, option, []);
  if (name === null || !pending.includes(name)) return { message: `${label} is not new.`, success: true, status: 200 };
  await setOption(ctx, option, pending.filter((n) => n !== name));
  return { message: `${label} is no longer new.`, success: true, status: 200 };
}

export async function setIntegrationActive(ctx: ExtensionsContext, integration: string, active: boolean): Promise<{ success: boolean; status: number; error: string | null }> {
  requireCapability(ctx, "wpseo_manage_options");
  if (!INTEGRATIONS.includes(integration)) return { success: false, status: 500, error: "Could not save the option in the database" };
  await setOption(ctx, `wpseo.${integration}_integration_active`, active);
  return { success: true, status: 200, error: null };
}

export async function integrationActive(ctx: ExtensionsContext, integration: string): Promise<boolean> {
  return getOption<boolean>(ctx, `wpseo.${integration}_integration_active`, true);
}

/** Workouts (Yoast's cornerstone and orphaned-content workouts): finished steps per workout. */
export const DEFAULT_WORKOUTS = { cornerstone: { finishedSteps: [] as string[] }, orphaned: { finishedSteps: [] as string[] } };

export async function readWorkouts(ctx: ExtensionsContext): Promise<Record<string, { finishedSteps: string[] }>> {
  requireCapability(ctx, "edit_others_posts");
  return getOption(ctx, "wpseo.workouts_data", DEFAULT_WORKOUTS);
}

/** Saves the workouts sent (each a name with `finishedSteps`); unknown workouts and malformed steps are refused. */
export async function saveWorkouts(ctx: ExtensionsContext, workouts: { name: string; finishedSteps: string[] }[]): Promise<Record<string, { finishedSteps: string[] }>> {
  requireCapability(ctx, "edit_others_posts");
  const current = await getOption(ctx, "wpseo.workouts_data", DEFAULT_WORKOUTS) as Record<string, { finishedSteps: string[] }>;
  for (const w of workouts) {
    if (!(w.name in DEFAULT_WORKOUTS)) throw seoError("rest_invalid_param", "Invalid parameter(s): workouts", 400, { params: { workouts: `Unknown workout ${w.name}.` } });
    current[w.name] = { finishedSteps: [...new Set(w.finishedSteps.map((s) => s.trim()).filter(Boolean))] };
  }
  await setOption(ctx, "wpseo.workouts_data", current);
  return current;
}

/** Importers of other SEO plugins' data: none is enabled, since no other SEO plugin's data is on this site. */
export function runImport(ctx: ExtensionsContext, plugin: string, type: string): never {
  requireCapability(ctx, "activate_plugins");
  throw seoError("rest_no_route", "Requested importer not found", 404, { plugin, type });
}

export async function setAiConsent(ctx: ExtensionsContext, consent: boolean): Promise<void> {
  const userId = requireCapability(ctx, "edit_posts");
  if (consent) await setUserMeta(ctx, userId, "_yoast_wpseo_ai_consent", true);
  else {
    await deleteUserMeta(ctx, userId, "_yoast_wpseo_ai_consent");
    // Revoking consent also forgets the AI tokens (Yoast's consent handler).
    await deleteUserMeta(ctx, userId, "_yoast_wpseo_ai_generator_access_jwt");
    await deleteUserMeta(ctx, userId, "_yoast_wpseo_ai_generator_refresh_jwt");
  }
}

export interface AvailablePost { id: number; title: string; slug: string }

/** Published posts of a type whose titles match `search` (llms.txt page picker), at most 10. */
export async function availablePosts(ctx: ExtensionsContext, postType: string, search: string): Promise<{ error: string | null; status: number; posts: AvailablePost[] }> {
  requireCapability(ctx, "wpseo_manage_options");
  if (postType !== "post" && postType !== "page") return { error: "The post type is invalid.", status: 400, posts: [] };
  const field = postType === "post" ? "posts" : "pages";
  const data = await askSubgraphAs<Record<string, { nodes: { databaseId: number; slug: string; title: { rendered: string } }[] }>>(ctx, "content",
    `query($search: String) { ${field}(where: { search: $search }, perPage: 10) { nodes { databaseId slug title { rendered } } } }`, { search: search || null });
  return { error: null, status: 200, posts: data[field].nodes.map((n) => ({ id: n.databaseId, title: n.title.rendered, slug: n.slug })) };
}

/** The size of a file in this site's uploads; other hosts, and files that are not there, fail. */
export async function fileSize(ctx: ExtensionsContext, url: string): Promise<{ type: "success" | "failure"; sizeInBytes: number | null; response: string | null }> {
  requireCapability(ctx, "manage_options");
  const decoded = (() => { try { return decodeURIComponent(url); } catch { return url; } })();
  const site = new URL(ctx.config.siteUrl);
  let target: URL | null = null;
  try { target = new URL(decoded, site); } catch { /* not a URL */ }
  if (!target || target.host !== site.host) return { type: "failure", sizeInBytes: null, response: `Cannot get the size of ${decoded} because it is hosted externally.` };
  const unknown = { type: "failure" as const, sizeInBytes: null, response: `Cannot get the size of ${decoded.replace(`${site.origin}/wp-content/uploads`, "")} because of unknown reasons.` };
  const prefix = "/wp-content/uploads/";
  if (!target.pathname.startsWith(prefix)) return unknown;
  const uploads = path.resolve(ctx.config.dataDir, "uploads");
  const file = path.resolve(uploads, `.${target.pathname.slice(prefix.length - 1)}`);
  if (!file.startsWith(uploads + path.sep)) return unknown;
  try {
    const stat = await fs.stat(file);
    return stat.isFile() && stat.size > 0 ? { type: "success", sizeInBytes: stat.size, response: null } : unknown;
  } catch {
    return unknown;
  }
}
