// The permission walk (issue 11): every write endpoint the site route table declares, walked as
// every WordPress role, answers as WordPress's controllers decide; a refused request changes no
// row; the route's `Allow` (GET when the caller may read the item, else OPTIONS) lists the method
// exactly when the rule allows it. A sample of the same writes goes through batch/v1 and GraphQL.
// The email gateway's /api/v2 routes are walked for its callers (anonymous, a user without the
// admin role, the administrator).
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { siteRoutes } from "../../router/rest/site/namespaces/index.ts";
import { GATEWAY_ROUTES } from "../../router/rest/gateway/routes.ts";
import { hashAppPassword } from "../../subgraphs/content/users/users.ts";
import { setGatewayPassword } from "../../subgraphs/gateway/auth/users.ts";
import { GATEWAY_ADMIN_PASSWORD, startTestSystem, type RequestOptions, type TestResponse, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json/core/v2";
const L = "/wp-json/lang/v1";
const RD = "/wp-json/redirection/v1";
const SEO = "/wp-json/seo/v1";
type Auth = RequestOptions["auth"];
const ROLES = ["subscriber", "contributor", "author", "editor", "administrator"] as const;
type Role = (typeof ROLES)[number];
type Caller = "anonymous" | Role;
const CALLERS: Caller[] = ["anonymous", ...ROLES];
const callers: Partial<Record<Caller, Auth>> = { anonymous: undefined };
const rank = (who: Caller) => CALLERS.indexOf(who);

/** WordPress's rules as minimum roles (stock role table): who may, by the capability the controller checks. */
const anyone = (_who: Caller) => true;
const signedIn = (who: Caller) => who !== "anonymous";
const atLeast = (role: Role) => (who: Caller) => rank(who) >= rank(role);
const nobody = (_who: Caller) => false;

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

/** What an item route works on, made as the site administrator `admin` (so it is "others'" to every walker). */
interface Fixture { path: string; id?: number; extra?: Record<string, unknown> }

async function created(r: TestResponse, what: string): Promise<number> {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(201);
  return r.body.id as number;
}

const png = () => sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
const upload = async (auth: Auth) => s.request("POST", `${R}/media`, {
  auth, raw: await png(), headers: { "content-type": "image/png", "content-disposition": `attachment; filename="${unique("walk")}.png"` },
});

const LOCALES = ["de_DE", "es_ES", "it_IT", "nl_NL", "pt_BR", "pl_PL", "sv_SE", "da_DK", "fi", "ja", "ru_RU", "tr_TR", "cs_CZ", "nb_NO", "ko_KR", "zh_CN", "hu_HU", "ro_RO", "el", "uk"];
const nextLocale = () => {
  const locale = LOCALES.shift();
  if (!locale) throw new Error("walk ran out of locales");
  return locale;
};

const make = {
  post: async () => created(await s.request("POST", `${R}/posts`, { auth: "admin", body: { title: unique("walk post"), status: "publish" } }), "post"),
  page: async () => created(await s.request("POST", `${R}/pages`, { auth: "admin", body: { title: unique("walk page"), status: "publish" } }), "page"),
  media: async () => {
    const r = await upload("admin");
    return { id: await created(r, "media"), source_url: r.body.source_url as string };
  },
  menu: async () => created(await s.request("POST", `${R}/menus`, { auth: "admin", body: { name: unique("walk menu") } }), "menu"),
  menuItem: async () => created(await s.request("POST", `${R}/menu-items`, {
    auth: "admin", body: { title: unique("walk item"), url: "https://example.com/", menus: shared.menu, status: "publish" },
  }), "menu item"),
  category: async () => created(await s.request("POST", `${R}/categories`, { auth: "admin", body: { name: unique("walk category") } }), "category"),
  tag: async () => created(await s.request("POST", `${R}/tags`, { auth: "admin", body: { name: unique("walk tag") } }), "tag"),
  user: async () => {
    const name = unique("walk-target");
    return created(await s.request("POST", `${R}/users`, { auth: "admin", body: { username: name, email: `${name}@example.com`, password: "pass word 1" } }), "user");
  },
  appPassword: async (userId: number) => {
    const r = await s.request("POST", `${R}/users/${userId}/application-passwords`, { auth: "admin", body: { name: unique("walk app") } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.uuid as string;
  },
  language: async () => {
    const r = await s.request("POST", `${L}/languages`, { auth: "admin", body: { locale: nextLocale() } });
    // Polylang answers a created language with 200.
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.term_id as number;
  },
  /** A signed-in user of the role, made for a walk that destroys its caller (users/me DELETE). */
  caller: async (role: Role): Promise<Auth> => {
    const name = unique(`walk-${role}`);
    const id = await created(await s.request("POST", `${R}/users`, { auth: "admin", body: { username: name, email: `${name}@example.com`, password: "pass word 1", roles: [role] } }), "caller");
    const password = `${name}-app-password-0000`;
    await s.db.prisma.applicationPassword.create({ data: { userId: id, name: "walk", secretHash: hashAppPassword(password, s.config.secretKey) } });
    return { username: name, password };
  },
};

/** Items shared by the walks that must leave them alone (refusals, and routes nobody may use). */
const shared: { post: number; page: number; postRevision: number; pageRevision: number; media: { id: number; source_url: string }; menu: number; menuItem: number;
  category: number; tag: number; user: number; appPassword: string; language: number } = {} as never;

/**
 * One walk: a write the route table declares, WordPress's rule for it, and a request built so
 * that only permission can refuse it. `fixture` makes a fresh item for a walk that may change it.
 */
interface Walk {
  pattern: string;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** Which variant of the route this is (e.g. "me" of the application-password routes). */
  variant?: string;
  rule: (who: Caller) => boolean;
  /** The path with its ids, from a fresh item (`fresh` true) or the shared one. */
  path: (fresh: boolean) => Promise<string>;
  body?: (path: string) => Promise<RequestOptions> | RequestOptions;
  /** The walk deletes its own caller: a fresh user of the role asks. */
  ownCaller?: boolean;
  /** A visitor's refusal when it is not 401 (WordPress looks up user 0 for users/me: 404 rest_user_invalid_id). */
  anonymousRefusal?: { status: number; code: string };
  /**
   * "passes": the request is not built to succeed (a plugin action on a nonexistent item, an
   * empty body): an allowed caller must get past the permission check (no 401/403, no 5xx); a
   * refused one is refused as usual. Used for plugin routes whose success needs outside state.
   */
  granted?: "passes";
  /**
   * Public by design: no role decides, a token / signature / password in the request does. The
   * walk sends a forged one: every caller, anonymous to administrator, gets the same refusal
   * (the visitor's answer is the reference), never a 5xx, and no row changes.
   */
  gate?: string;
  /** How the plugin answers the forged proof when not with a 4xx (wp_send_json bodies with 200). */
  refused?: (r: TestResponse) => boolean;
  /** Run as the caller first (e.g. Yoast's AI consent, which get_suggestions asks before anything else). */
  prepare?: (auth: Auth) => Promise<void>;
}

const json = (body: Record<string, unknown>) => (): RequestOptions => ({ body });
const UPDATE = ["POST", "PUT", "PATCH"] as const;

const itemWalks = (pattern: string, rule: (who: Caller) => boolean, path: (fresh: boolean) => Promise<string>, update: Record<string, unknown>, deleteQuery: string): Walk[] => [
  ...UPDATE.map((method): Walk => ({ pattern, method, rule, path, body: json(update) })),
  { pattern, method: "DELETE", rule, path: async (fresh) => `${await path(fresh)}${deleteQuery}` },
];

/** forms-submissions routes that answer a nonexistent form / submission with 500 malformed_request (bug). */
/** WordPress's rule for every write of the route table (checked against the controllers; see each comment). */
const WALKS: Walk[] = [
  // Posts: create needs the type's edit_posts (contributor); an admin's published post needs
  // edit_others_posts + edit_published_posts / delete_others_posts (editor).
  { pattern: "/core/v2/posts", method: "POST", rule: atLeast("contributor"), path: async () => `${R}/posts`, body: json({ title: "walk" }) },
  ...itemWalks("/core/v2/posts/(?P<id>[\\d]+)", atLeast("editor"), async (fresh) => `${R}/posts/${fresh ? await make.post() : shared.post}`, { title: "walked" }, ""),
  // Autosaves run the parent's update_item_permissions_check: edit_post of the admin's post.
  { pattern: "/core/v2/posts/(?P<id>[\\d]+)/autosaves", method: "POST", rule: atLeast("editor"), path: async (fresh) => `${R}/posts/${fresh ? await make.post() : shared.post}/autosaves`, body: json({ title: "autosaved" }) },
  // Revisions: delete_post of a revision is do_not_allow (README Decisions: the recordings win).
  { pattern: "/core/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)", method: "DELETE", rule: nobody, path: async () => `${R}/posts/${shared.post}/revisions/${shared.postRevision}?force=true` },
  // Pages: edit_pages (editor) for everything.
  { pattern: "/core/v2/pages", method: "POST", rule: atLeast("editor"), path: async () => `${R}/pages`, body: json({ title: "walk" }) },
  ...itemWalks("/core/v2/pages/(?P<id>[\\d]+)", atLeast("editor"), async (fresh) => `${R}/pages/${fresh ? await make.page() : shared.page}`, { title: "walked" }, ""),
  { pattern: "/core/v2/pages/(?P<id>[\\d]+)/autosaves", method: "POST", rule: atLeast("editor"), path: async (fresh) => `${R}/pages/${fresh ? await make.page() : shared.page}/autosaves`, body: json({ title: "autosaved" }) },
  { pattern: "/core/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)", method: "DELETE", rule: nobody, path: async () => `${R}/pages/${shared.page}/revisions/${shared.pageRevision}?force=true` },
  // Media: create needs upload_files (author); the admin's attachment needs edit_others_posts /
  // delete_others_posts (editor); post-process is update_item_permissions_check; edit is
  // upload_files and then update_item_permissions_check (editor).
  { pattern: "/core/v2/media", method: "POST", rule: atLeast("author"), path: async () => `${R}/media`, body: async () => ({ raw: await png(), headers: { "content-type": "image/png", "content-disposition": `attachment; filename="${unique("walk")}.png"` } }) },
  ...itemWalks("/core/v2/media/(?P<id>[\\d]+)", atLeast("editor"), async (fresh) => `${R}/media/${fresh ? (await make.media()).id : shared.media.id}`, { title: "walked" }, "?force=true"),
  { pattern: "/core/v2/media/(?P<id>[\\d]+)/post-process", method: "POST", rule: atLeast("editor"), path: async (fresh) => `${R}/media/${fresh ? (await make.media()).id : shared.media.id}/post-process`, body: json({ action: "create-image-subsizes" }) },
  {
    pattern: "/core/v2/media/(?P<id>[\\d]+)/edit", method: "POST", rule: atLeast("editor"),
    path: async (fresh) => {
      const media = fresh ? await make.media() : shared.media;
      return `${R}/media/${media.id}/edit?src=${encodeURIComponent(media.source_url)}`;
    },
    body: json({ modifiers: [{ type: "rotate", args: { angle: 90 } }] }),
  },
  // Menus and menu items: edit_theme_options (administrator).
  { pattern: "/core/v2/menu-items", method: "POST", rule: atLeast("administrator"), path: async () => `${R}/menu-items`, body: () => ({ body: { title: "walk", url: "https://example.com/", menus: shared.menu } }) },
  ...itemWalks("/core/v2/menu-items/(?P<id>[\\d]+)", atLeast("administrator"), async (fresh) => `${R}/menu-items/${fresh ? await make.menuItem() : shared.menuItem}`, { title: "walked" }, "?force=true"),
  { pattern: "/core/v2/menu-items/(?P<id>[\\d]+)/autosaves", method: "POST", rule: atLeast("administrator"), path: async (fresh) => `${R}/menu-items/${fresh ? await make.menuItem() : shared.menuItem}/autosaves`, body: json({ title: "autosaved" }) },
  { pattern: "/core/v2/menus", method: "POST", rule: atLeast("administrator"), path: async () => `${R}/menus`, body: () => ({ body: { name: unique("walk menu") } }) },
  ...itemWalks("/core/v2/menus/(?P<id>[\\d]+)", atLeast("administrator"), async (fresh) => `${R}/menus/${fresh ? await make.menu() : shared.menu}`, { description: "walked" }, "?force=true"),
  // Categories and tags: manage_categories (editor); tags' manage_terms maps to it too.
  { pattern: "/core/v2/categories", method: "POST", rule: atLeast("editor"), path: async () => `${R}/categories`, body: () => ({ body: { name: unique("walk category") } }) },
  ...itemWalks("/core/v2/categories/(?P<id>[\\d]+)", atLeast("editor"), async (fresh) => `${R}/categories/${fresh ? await make.category() : shared.category}`, { description: "walked" }, "?force=true"),
  { pattern: "/core/v2/tags", method: "POST", rule: atLeast("editor"), path: async () => `${R}/tags`, body: () => ({ body: { name: unique("walk tag") } }) },
  ...itemWalks("/core/v2/tags/(?P<id>[\\d]+)", atLeast("editor"), async (fresh) => `${R}/tags/${fresh ? await make.tag() : shared.tag}`, { description: "walked" }, "?force=true"),
  // Users: create_users; edit_user / delete_user of another user (administrator); a user edits
  // themselves (edit_user of self), but deleting oneself is still delete_users.
  {
    pattern: "/core/v2/users", method: "POST", rule: atLeast("administrator"), path: async () => `${R}/users`,
    body: () => { const name = unique("walk-new"); return { body: { username: name, email: `${name}@example.com`, password: "pass word 1" } }; },
  },
  ...itemWalks("/core/v2/users/(?P<id>[\\d]+)", atLeast("administrator"), async (fresh) => `${R}/users/${fresh ? await make.user() : shared.user}`, { description: "walked" }, "?force=true&reassign=1"),
  // users/me sets the id to get_current_user_id(), 0 for a visitor, whose lookup is 404.
  ...UPDATE.map((method): Walk => ({
    pattern: "/core/v2/users/me", method, rule: signedIn, path: async () => `${R}/users/me`, body: json({ description: "walked" }),
    anonymousRefusal: { status: 404, code: "rest_user_invalid_id" },
  })),
  {
    pattern: "/core/v2/users/me", method: "DELETE", rule: atLeast("administrator"), path: async () => `${R}/users/me?force=true&reassign=1`, ownCaller: true,
    anonymousRefusal: { status: 404, code: "rest_user_invalid_id" },
  },
  // Application passwords: edit_user of the user (another user: administrator; oneself: anyone signed in).
  { pattern: "/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords", method: "POST", rule: atLeast("administrator"), path: async () => `${R}/users/${shared.user}/application-passwords`, body: () => ({ body: { name: unique("walk app") } }) },
  { pattern: "/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords", method: "POST", variant: "me", rule: signedIn, path: async () => `${R}/users/me/application-passwords`, body: () => ({ body: { name: unique("walk app") } }) },
  { pattern: "/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords", method: "DELETE", rule: atLeast("administrator"), path: async (fresh) => `${R}/users/${fresh ? await make.user() : shared.user}/application-passwords` },
  ...[...UPDATE, "DELETE" as const].map((method): Walk => ({
    pattern: "/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/(?P<uuid>[\\w\\-]+)", method, rule: atLeast("administrator"),
    path: async (fresh) => `${R}/users/${shared.user}/application-passwords/${fresh ? await make.appPassword(shared.user) : shared.appPassword}`,
    ...(method === "DELETE" ? {} : { body: () => ({ body: { name: unique("walk app") } }) }),
  })),
  // Settings: manage_options.
  ...UPDATE.map((method): Walk => ({ pattern: "/core/v2/settings", method, rule: atLeast("administrator"), path: async () => `${R}/settings`, body: json({ posts_per_page: 10 }) })),
  // Polylang's languages and settings: manage_options.
  { pattern: "/lang/v1/languages", method: "POST", rule: atLeast("administrator"), path: async () => `${L}/languages`, body: () => ({ body: { locale: nextLocale() } }) },
  ...itemWalks("/lang/v1/languages/(?P<term_id>[\\d]+)", atLeast("administrator"), async (fresh) => `${L}/languages/${fresh ? await make.language() : shared.language}`, { name: "Walked" }, ""),
  ...UPDATE.map((method): Walk => ({ pattern: "/lang/v1/settings", method, rule: atLeast("administrator"), path: async () => `${L}/settings`, body: json({ browser: false }) })),

  // ---- Plugins (issue 9). Each rule is the plugin's permission callback as this site ports it. ----
  // Redirection: every redirection_cap_* resolves to manage_options (administrator); refusals are
  // rest_forbidden 401/403 (subgraphs/extensions/redirection/permissions.ts). Ids are nonexistent:
  // the walk checks the gate, a nonexistent item is a 4xx past it.
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/redirect", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/redirect`, body: json({ url: "/walk-from", action_data: { url: "/walk-to" }, match_type: "url", action_type: "url", group_id: 999999 }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/redirect/(?P<id>[\\d]+)", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/redirect/999999`, body: json({ title: "walked" }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/bulk/redirect/(?P<bulk>delete|enable|disable|reset)", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/bulk/redirect/disable`, body: json({ items: [999999] }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/group", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/group`, body: () => ({ body: { name: unique("walk group"), moduleId: 1 } }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/group/(?P<id>[\\d]+)", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/group/999999`, body: json({ name: "walked", moduleId: 1 }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/bulk/group/(?P<bulk>delete|enable|disable)", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/bulk/group/disable`, body: json({ items: [999999] }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/bulk/log/(?P<bulk>delete)", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/bulk/log/delete`, body: json({ items: [999999] }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/bulk/404/(?P<bulk>delete)", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/bulk/404/delete`, body: json({ items: [999999] }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/setting", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/setting`, body: json({ expire_redirect: 7 }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/plugin", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/plugin`, body: json({ name: "walk", value: "walk" }) })),
  ...[...UPDATE, "DELETE" as const].map((method): Walk => ({ pattern: "/redirection/v1/plugin/test", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/plugin/test` })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/plugin/data", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/plugin/data` })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/plugin/finish", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/plugin/finish`, body: json({ reason: "walk", current: "walk" }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/plugin/fix", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/plugin/fix`, body: json({ reason: "walk", current: "walk" }) })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/import/file/(?P<group_id>\\d+)", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/import/file/999999` })),
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/import/plugin", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/import/plugin`, body: json({ plugin: ["no-such-plugin"] }) })),
  // plugin/delete uninstalls Redirection (drops its data): walked last among the redirection routes.
  ...UPDATE.map((method): Walk => ({ pattern: "/redirection/v1/plugin/delete", method, rule: atLeast("administrator"), granted: "passes", path: async () => `${RD}/plugin/delete` })),
  // Ninja Forms' submissions routes: manage_options (administrator; refusals 401/403).
  ...[
    ["submissions/delete", { submissions: [999999] }], ["submissions/update", { singleSubmission: JSON.stringify({ submissionRecordId: 999999 }) }],
    ["submissions/restore", { restore: true, submissions: [999999] }], ["submissions/handle-extra", { singleSubmission: JSON.stringify({ submissionRecordId: 999999 }), handleExtra: "csv" }],
    ["export", { form_ids: [999999], start_date: "2020-01-01", end_date: "today" }], ["download-all", { form_ids: [999999] }], ["delete-download-file", { file_path: "no-such-file.csv" }],
    ["set-submissions-settings", { settingName: "walk", data: {} }], ["email-action", { submission: 999999, action_settings: { to: "walk@example.com" } }],
  ].map(([route, body]): Walk => ({
    pattern: `/forms-submissions/${route}`, method: "POST", rule: atLeast("administrator"), granted: "passes", path: async () => `/wp-json/forms-submissions/${route}`, body: json(body as Record<string, unknown>),
  })),
  // CookieYes uninstall feedback: manage_options (cookieyes_rest_cannot_create 401/403).
  { pattern: "/consent-feedback/v1/uninstall-feedback", method: "POST", rule: atLeast("administrator"), granted: "passes", path: async () => "/wp-json/consent-feedback/v1/uninstall-feedback", body: json({ reason_id: "walk", reason_text: "walked" }) },
  // Public by design: the proof is in the request, not the role.
  { pattern: "/consent/v1/fetch_results", method: "POST", rule: anyone, gate: "the running scan's token (scan_result_token); forged here", refused: (r) => r.status === 200 && r.body?.success === false, path: async () => "/wp-json/consent/v1/fetch_results", body: json({ scan_result_token: "forged-token", scan_result: "[]" }) },
  { pattern: "/downloads/validate-captcha", method: "POST", rule: anyone, gate: "a reCAPTCHA token for a package; nonexistent package here", refused: (r) => r.status === 200 && typeof r.body?.error === "string", path: async () => "/wp-json/downloads/validate-captcha", body: json({ __wpdm_ID: 999999, reCaptchaVerify: "forged" }) },
  { pattern: "/downloads/validate-password", method: "POST", rule: anyone, gate: "the package's password; nonexistent package here", refused: (r) => r.status === 200 && r.body?.success === false, path: async () => "/wp-json/downloads/validate-password", body: json({ __wpdm_ID: 999999, password: "forged" }) },
  { pattern: "/downloads/view-count", method: "POST", rule: anyone, gate: "none but a real package id (WPDM counts public views); nonexistent package here", path: async () => "/wp-json/downloads/view-count", body: json({ id: 999999 }) },
  { pattern: "/forms-views/token/refresh", method: "POST", rule: anyone, gate: "a views token (HS256, audience forms-views) naming the form; forged here", path: async () => "/wp-json/forms-views/token/refresh", body: json({ token: "forged.token.value", formID: 1 }) },
  { pattern: "/forms/v2/crm/webhooks", method: "POST", rule: anyone, gate: "HubSpot's request signature (client secret); none here", path: async () => "/wp-json/forms/v2/crm/webhooks?portalId=1", body: json({ portalId: 1, objectId: 1 }) },
  { pattern: "/seo/v1/ai_generator/callback", method: "POST", rule: anyone, gate: "the stored code verifier and the service's signed JWTs; forged here", path: async () => "/wp-json/seo/v1/ai_generator/callback", body: json({ access_jwt: "a.b.c", refresh_jwt: "a.b.c", code_challenge: "forged", user_id: 1 }) },
  { pattern: "/seo/v1/ai_generator/refresh_callback", method: "POST", rule: anyone, gate: "the stored code verifier and the service's signed JWTs; forged here", path: async () => "/wp-json/seo/v1/ai_generator/refresh_callback", body: json({ access_jwt: "a.b.c", refresh_jwt: "a.b.c", code_challenge: "forged", user_id: 1 }) },
  // Yoast SEO: edit_posts (contributor) for the editor-side routes, publish_posts (author) for the
  // rank tracker, edit_others_posts (editor) for workouts, wpseo_manage_options = manage_options
  // (administrator) for configuration and integrations, activate_plugins (administrator) for imports.
  ...([
    ["ai_generator/consent", { consent: false }], ["ai/free_sparks", {}], ["ai_generator/bust_subscription_cache", {}],
    ["ai_generator/get_usage", {}], ["new-content-type-visibility/dismiss-post-type", { postTypeName: "post" }],
    ["new-content-type-visibility/dismiss-taxonomy", { taxonomyName: "category" }], ["video-embed-permission", { value: true }], ["alerts/dismiss", { key: "walk-alert" }],
    ["indexing/posts", {}], ["indexing/terms", {}], ["indexing/post-type-archives", {}], ["indexing/general", {}], ["indexing/prepare", {}],
    ["indexing/indexables-complete", {}], ["indexing/complete", {}], ["link-indexing/posts", {}], ["link-indexing/terms", {}],
    ["keyword-provider-a/authenticate", { code: "forged" }], ["keyword-provider-a/country_code", { country_code: "us" }],
  ] as const).map(([route, body]): Walk => ({ pattern: `/seo/v1/${route}`, method: "POST", rule: atLeast("contributor"), granted: "passes", path: async () => `${SEO}/${route}`, body: json(body) })),
  // get_suggestions answers 403 CONSENT_REVOKED until the user consents: the walk consents first.
  {
    pattern: "/seo/v1/ai_generator/get_suggestions", method: "POST", rule: atLeast("contributor"), granted: "passes", path: async () => `${SEO}/ai_generator/get_suggestions`,
    body: json({ type: "seo-title", prompt_content: "walk", focus_keyphrase: "walk", language: "en", platform: "Google", editor: "classic" }),
    prepare: async (auth) => { await s.request("POST", `${SEO}/ai_generator/consent`, { auth, body: { consent: true } }); },
  },
  { pattern: "/seo/v1/introductions/(?P<introduction_id>[\\w-]+)/seen", method: "POST", rule: atLeast("contributor"), granted: "passes", path: async () => `${SEO}/introductions/walk-intro/seen`, body: json({ is_seen: true }) },
  ...([["rank-tracker/authenticate", { code: "forged", websiteId: "1" }], ["rank-tracker/keyphrases/track", { keyphrases: ["walk"] }], ["rank-tracker/keyphrases", {}]] as const)
    .map(([route, body]): Walk => ({ pattern: `/seo/v1/${route}`, method: "POST", rule: atLeast("author"), granted: "passes", path: async () => `${SEO}/${route}`, body: json(body) })),
  { pattern: "/seo/v1/rank-tracker/keyphrases/untrack", method: "DELETE", rule: atLeast("author"), granted: "passes", path: async () => `${SEO}/rank-tracker/keyphrases/untrack?keyphraseID=999999` },
  { pattern: "/seo/v1/workouts", method: "POST", rule: atLeast("editor"), granted: "passes", path: async () => `${SEO}/workouts`, body: json({ workouts: "{}" }) },
  ...([
    ["configuration/site_representation", { company_or_person: "company", company_name: "Walk" }], ["configuration/social_profiles", { facebook_site: "", twitter_site: "", other_social_urls: [] }],
    ["configuration/enable_tracking", { tracking: false }], ["configuration/save_configuration_state", { finishedSteps: [] }], ["integrations/set_active", { active: false, integration: "walk" }],
  ] as const).map(([route, body]): Walk => ({ pattern: `/seo/v1/${route}`, method: "POST", rule: atLeast("administrator"), granted: "passes", path: async () => `${SEO}/${route}`, body: json(body) })),
  { pattern: "/seo/v1/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)", method: "POST", rule: atLeast("administrator"), granted: "passes", path: async () => `${SEO}/import/no-such-plugin/walk` },
];

/** Routes that take writes but are walked elsewhere: batch/v1 only carries other routes' writes (walked below). */
const WALKED_ELSEWHERE = new Set(["/batch/v1 POST"]);

/**
 * Every row a site write could touch, as one digest per table (one query: the walk asks it twice
 * per refusal), without what merely authenticating records (an application password's last use).
 */
const TABLES = ["User", "Post", "Term", "PostTerm", "Option", "Language", "LanguageSettings",
  // The plugins' tables (issue 9).
  "RedirectionItem", "RedirectionGroup", "RedirectionLog", "Redirection404", "RedirectionOptions",
  "Form", "FormField", "FormSubmission", "FormsOption", "FormsMail", "ConsentScan", "ConsentCategory", "ConsentCookie", "ConsentFeedback",
  "DownloadPackage", "DownloadPassword", "DownloadKey", "SeoIndexable", "SeoOption", "SeoUserMeta", "SeoTrackedKeyphrase"];
const SNAPSHOT_SQL = [
  ...TABLES.map((table) => `SELECT '${table}' AS name, count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${table}" t`),
  `SELECT 'ApplicationPassword', count(*)::int, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))
     FROM (SELECT to_jsonb(a) - 'lastUsedAt' - 'lastIp' AS t FROM "ApplicationPassword" a) s`,
].join(" UNION ALL ");

async function snapshot(): Promise<Record<string, string>> {
  const rows = await s.db.prisma.$queryRawUnsafe<{ name: string; rows: number; digest: string }[]>(SNAPSHOT_SQL);
  return Object.fromEntries(rows.map((r) => [r.name, `${r.rows}:${r.digest}`]));
}

/** Every row of the email gateway's tables, as one digest per table, without what signing in records (sessions). */
const GATEWAY_TABLES = ["GatewayConfiguration", "GatewayAuditEntry", "GatewayClusterNode", "GatewayDomain", "GatewayCertificate", "GatewayEvent",
  "GatewayUserProfile", "GatewayLoginToken", "GatewayGroupImport", "GatewayFunctionalUser", "GatewayUser", "AccountedEmail", "GatewayMessage",
  "GatewayMessageAddress", "GatewayMessageUriHost", "GatewayAttachment", "GatewayScanAnalysis", "GatewayMessageReport", "GatewaySenderReputation",
  "GatewayRestrictedSender", "GatewayMessageCounter", "GatewayPurgeJob"];
async function gatewaySnapshot(): Promise<Record<string, string>> {
  const rows = await s.db.prisma.$queryRawUnsafe<{ name: string; rows: number; digest: string }[]>(GATEWAY_TABLES.map((table) =>
    `SELECT '${table}' AS name, count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${table}" t`).join(" UNION ALL "));
  return Object.fromEntries(rows.map((r) => [r.name, `${r.rows}:${r.digest}`]));
}

const allowOf = (r: TestResponse) => (r.headers.get("allow") ?? "").split(",").map((m) => m.trim()).filter(Boolean);

/** The route's Allow as this caller sees it: the item's (GET, when the caller may read it), else OPTIONS. */
async function allowFor(path: string, auth: Auth): Promise<{ source: string; methods: string[] }> {
  const bare = path.split("?")[0];
  const get = await request("GET", bare, { auth });
  if (get.status === 200 && get.headers.get("allow")) return { source: "GET", methods: allowOf(get) };
  return { source: "OPTIONS", methods: allowOf(await request("OPTIONS", bare, { auth })) };
}

let sent = 0;
const request = async (method: string, path: string, options: RequestOptions) => {
  sent++;
  return s.request(method, path, options);
};

beforeAll(async () => {
  s = await startTestSystem();
  for (const role of ROLES) callers[role] = await make.caller(role);
  shared.post = await make.post();
  shared.page = await make.page();
  for (const [type, id] of [["posts", shared.post], ["pages", shared.page]] as const) {
    expect((await s.request("POST", `${R}/${type}/${id}`, { auth: "admin", body: { content: "revised" } })).status).toBe(200);
    const revisions = await s.request("GET", `${R}/${type}/${id}/revisions`, { auth: "admin" });
    expect(revisions.body.length).toBeGreaterThan(0);
    if (type === "posts") shared.postRevision = revisions.body[0].id; else shared.pageRevision = revisions.body[0].id;
  }
  shared.media = await make.media();
  shared.menu = await make.menu();
  shared.menuItem = await make.menuItem();
  shared.category = await make.category();
  shared.tag = await make.tag();
  shared.user = await make.user();
  shared.appPassword = await make.appPassword(shared.user);
  shared.language = await make.language();
}, 120_000);
afterAll(async () => { await s?.stop(); });

describe("the walk covers the route table", () => {
  test("every write endpoint the site routes declare has its rule here", () => {
    const declared = siteRoutes().flatMap((route) => route.endpoints.flatMap((e) => e.methods.filter((m) => m !== "GET").map((m) => `${route.pattern} ${m}`)));
    const walked = new Set(WALKS.map((w) => `${w.pattern} ${w.method}`));
    expect(declared.filter((d) => !walked.has(d) && !WALKED_ELSEWHERE.has(d))).toEqual([]);
    // And no walk names a route that is gone.
    expect([...walked].filter((w) => !declared.includes(w))).toEqual([]);
  });

  test("the row snapshot sees a write (a refusal that wrote anything would fail), and not a mere sign-in", async () => {
    const before = await snapshot();
    expect((await s.request("GET", `${R}/users/me`, { auth: callers.editor })).status).toBe(200);
    expect(await snapshot()).toEqual(before);
    await make.tag();
    const after = await snapshot();
    expect(after.Term).not.toBe(before.Term);
    expect({ ...after, Term: before.Term }).toEqual(before);
  });
});

/** The visitor's answer to each public-by-design walk: every role must get the same. */
const gateAnswers = new Map<string, { status: number; code: unknown }>();

describe("every write × every role answers as WordPress's rule", () => {
  const all = WALKS.flatMap((walk) => CALLERS.map((who) => [`${walk.method} ${walk.pattern}${walk.variant ? ` (${walk.variant})` : ""}`, who, walk] as const));
  test.each(all)("%s as %s", async (_name, who, walk) => walkOnce(who, walk));
});

async function walkOnce(who: Caller, walk: Walk): Promise<void> {
  const allowed = walk.rule(who);
  const auth = walk.ownCaller && who !== "anonymous" ? await make.caller(who) : callers[who];
  // A walk that may change its item gets a fresh one; refusals share one (and must leave it as it was).
  const path = await walk.path(allowed);
  const options = { ...(await walk.body?.(path)), auth };
  if (allowed) await walk.prepare?.(auth);
  const before = allowed && !walk.gate ? undefined : await snapshot();
  const r = await request(walk.method, path, options);
  if (walk.gate) {
    // Public by design: the role changes nothing; the forged proof is refused alike for all.
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
    expect(r.status >= 400 || walk.refused?.(r) === true, `${walk.gate}: ${r.status} ${JSON.stringify(r.body)}`).toBe(true);
    const answer = { status: r.status, code: (r.body as { code?: unknown } | null)?.code ?? null };
    const key = `${walk.method} ${walk.pattern}`;
    if (who === "anonymous") gateAnswers.set(key, answer);
    expect(answer).toEqual(gateAnswers.get(key));
    expect(await snapshot()).toEqual(before);
  } else if (allowed && walk.granted === "passes") {
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
    expect([401, 403], JSON.stringify(r.body)).not.toContain(r.status);
  } else if (allowed) {
    expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(200);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  } else {
    const refusal = who === "anonymous" ? walk.anonymousRefusal ?? { status: 401 } : { status: 403 };
    expect({ status: r.status, code: r.body?.code }).toMatchObject(refusal);
    expect(await snapshot()).toEqual(before);
  }
}

describe("Allow on the same route lists the method exactly when the rule allows it", () => {
  const cases = WALKS.flatMap((walk) => CALLERS.map((who) => [`${walk.method} ${walk.pattern}${walk.variant ? ` (${walk.variant})` : ""}`, who, walk] as const));

  test.each(cases)("%s as %s", async (_name, who, walk) => {
    const allow = await allowFor(await walk.path(false), callers[who]);
    expect({ source: allow.source, lists: allow.methods.includes(walk.method) }).toEqual({ source: allow.source, lists: walk.rule(who) });
  });
});

/** A sample of the same writes through batch/v1 (batchable routes) and the matching GraphQL mutation. */
const SAMPLE: { route: string; rule: (who: Caller) => boolean; body: () => Record<string, unknown>; mutation: string; variables: () => Record<string, unknown> }[] = [
  { route: "/core/v2/posts", rule: atLeast("contributor"), body: () => ({ title: "batched" }), mutation: "mutation($input: PostInput!) { w: createPost(input: $input) { id } }", variables: () => ({ input: { title: "graphed" } }) },
  { route: "/core/v2/pages", rule: atLeast("editor"), body: () => ({ title: "batched" }), mutation: "mutation($input: PageInput!) { w: createPage(input: $input) { id } }", variables: () => ({ input: { title: "graphed" } }) },
  { route: "/core/v2/categories", rule: atLeast("editor"), body: () => ({ name: unique("batched category") }), mutation: "mutation($input: TermInput!) { w: createCategory(input: $input) { id } }", variables: () => ({ input: { name: unique("graphed category") } }) },
  { route: "/core/v2/tags", rule: atLeast("editor"), body: () => ({ name: unique("batched tag") }), mutation: "mutation($input: TermInput!) { w: createTag(input: $input) { id } }", variables: () => ({ input: { name: unique("graphed tag") } }) },
  { route: "/core/v2/menus", rule: atLeast("administrator"), body: () => ({ name: unique("batched menu") }), mutation: "mutation($input: MenuInput!) { w: createMenu(input: $input) { id } }", variables: () => ({ input: { name: unique("graphed menu") } }) },
  {
    route: "/core/v2/users", rule: atLeast("administrator"),
    body: () => { const n = unique("batched"); return { username: n, email: `${n}@example.com`, password: "pass word 1" }; },
    mutation: "mutation($input: UserInput!) { w: createUser(input: $input) { id } }",
    variables: () => { const n = unique("graphed"); return { input: { username: n, email: `${n}@example.com`, password: "pass word 1" } }; },
  },
  { route: "/lang/v1/languages", rule: atLeast("administrator"), body: () => ({ locale: LOCALES[0] }), mutation: "mutation($input: CreateLanguageInput!) { w: createLanguage(input: $input) { termId } }", variables: () => ({ input: { locale: LOCALES[0] } }) },
];

describe("the same writes through batch/v1 and GraphQL", () => {
  const cases = SAMPLE.flatMap((sample) => CALLERS.map((who) => [sample.route, who, sample] as const));

  test.each(cases)("POST %s as %s", async (_route, who, sample) => {
    const allowed = sample.rule(who);
    const auth = callers[who];
    const refusal = who === "anonymous" ? 401 : 403;

    // A language is one of a kind: the allowed batch and GraphQL creates each take a new locale.
    const body = sample.route === "/lang/v1/languages" && allowed ? { locale: nextLocale() } : sample.body();
    const before = allowed ? undefined : await snapshot();
    const batch = await request("POST", "/wp-json/batch/v1", { auth, body: { requests: [{ method: "POST", path: sample.route, body }] } });
    expect(batch.status, JSON.stringify(batch.body)).toBe(207);
    const answer = batch.body.responses[0];
    if (allowed) expect(answer.status, JSON.stringify(answer.body)).toBe(sample.route === "/lang/v1/languages" ? 200 : 201);
    else expect({ status: answer.status, body: answer.body }).toMatchObject({ status: refusal });

    const variables = sample.route === "/lang/v1/languages" && allowed ? { input: { locale: nextLocale() } } : sample.variables();
    sent++;
    const graph = await s.graphql<{ w: unknown }>(sample.mutation, variables, { auth });
    if (allowed) {
      expect(graph.errors, JSON.stringify(graph.errors)).toBeUndefined();
      expect(graph.data?.w).toBeTruthy();
    } else {
      expect(graph.data?.w ?? null).toBeNull();
      expect(graph.errors?.[0]?.extensions?.http, JSON.stringify(graph)).toMatchObject({ status: refusal });
      expect(await snapshot()).toEqual(before);
    }
  });
});

// Ninja Forms answers a request naming no selection with a WP_Error without a status, which
// WordPress turns into a 500; here no input makes a 5xx: a missing selection is the client's 400.
describe("an administrator's request without a selection is the client's error", () => {
  test("POST /forms-submissions/export with only submission ids (no form_ids) answers 4xx", async () => {
    sent++;
    const r = await s.request("POST", "/wp-json/forms-submissions/export", { auth: "admin", body: { submissions: [999999] } });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
  });
  test("POST /forms-submissions/download-all without form_ids answers 4xx", async () => {
    sent++;
    const r = await s.request("POST", "/wp-json/forms-submissions/download-all", { auth: "admin", body: {} });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
  });
});

describe("the email gateway's /api/v2 routes for its callers", () => {
  type GatewayCaller = "anonymous" | "user" | "admin";
  const tokens: Partial<Record<GatewayCaller, string>> = {};
  let accounted = 0;
  let adminId = 0;
  /**
   * The gateway's rule per route (subgraphs/gateway/access.ts, mail/scope.ts): public ("none"), any
   * signed-in user ("user": requireGatewayUser, or mailScope for the caller's own mail), mail
   * administrators ("mailAdmin": administrators and domain administrators, requireMailAdmin), the
   * user themselves or an administrator ("selfOrAdmin", asked about the administrator's own id),
   * administrators ("admin": requireGatewayAdmin / requireAdministrator). `passes`: the request is
   * not built to succeed (a nonexistent id, an empty body); an allowed caller must get past the
   * rule (no 401/403, no 5xx). `gate`: public by design, a credential in the request decides;
   * a forged one is refused alike (that status) for every caller.
   */
  interface GatewayRule { path: string; method: string; body?: unknown; need: "none" | "user" | "mailAdmin" | "selfOrAdmin" | "admin"; passes?: boolean; gate?: number }
  const NO = "999999";
  const MSG = "/api/v2/message/no-such-message";
  const item = (need: GatewayRule["need"], method: string, path: string, body?: unknown): GatewayRule => ({ path, method, need, passes: true, ...(body === undefined ? {} : { body }) });
  const GATEWAY_RULES: Record<string, GatewayRule> = {
    "/api/v2/login POST": { path: "/api/v2/login", method: "POST", need: "none" },
    "/api/v2/logout POST": { path: "/api/v2/logout", method: "POST", need: "user" },
    "/api/v2/licensing/accounted-email GET": { path: "/api/v2/licensing/accounted-email", method: "GET", need: "admin" },
    "/api/v2/licensing/accounted-email/(?P<id>\\d+) GET": { path: "/api/v2/licensing/accounted-email/{id}", method: "GET", need: "admin" },
    "/api/v2/? GET": { path: "/api/v2", method: "GET", need: "none" },
    "/api/v2/contexts/(?P<name>[^/]+) GET": { path: "/api/v2/contexts/Entrypoint", method: "GET", need: "none" },
    "/api/v2/docs\\.json GET": { path: "/api/v2/docs.json", method: "GET", need: "none" },
    // Mail: a user sees (and reports) the mail it sent or received, outside it a message does not
    // exist (404); release, recall and scan-analysis removal are for mail administrators; ingest
    // for administrators.
    "/api/v2/messages GET": { path: "/api/v2/messages", method: "GET", need: "user" },
    "/api/v2/messages/ingest POST": item("admin", "POST", "/api/v2/messages/ingest", { messages: [] }),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64}) GET": item("user", "GET", MSG),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/report-as-good POST": item("user", "POST", `${MSG}/report-as-good`, {}),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/report-as-bad POST": item("user", "POST", `${MSG}/report-as-bad`, {}),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/submit-as-good POST": item("user", "POST", `${MSG}/submit-as-good`, {}),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/submit-as-bad POST": item("user", "POST", `${MSG}/submit-as-bad`, {}),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/release POST": item("mailAdmin", "POST", `${MSG}/release`, {}),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/request-release POST": item("user", "POST", `${MSG}/request-release`, {}),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/recall POST": item("mailAdmin", "POST", `${MSG}/recall`, {}),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/scan-analysis DELETE": item("mailAdmin", "DELETE", `${MSG}/scan-analysis`),
    "/api/v2/message/(?P<id>[A-Za-z0-9._-]{1,64})/fetch/(?P<attachment>[^/]+) GET": item("user", "GET", `${MSG}/fetch/0`),
    "/api/v2/restricted-sender GET": { path: "/api/v2/restricted-sender", method: "GET", need: "mailAdmin" },
    "/api/v2/restricted-sender/(?P<id>\\d+) GET": item("mailAdmin", "GET", `/api/v2/restricted-sender/${NO}`),
    "/api/v2/restricted-sender/(?P<id>\\d+) DELETE": item("mailAdmin", "DELETE", `/api/v2/restricted-sender/${NO}`),
    // Appliance configuration, audit log, events, connectors, users, OTP policy, cluster, domains: administrators.
    "/api/v2/appliance GET": { path: "/api/v2/appliance", method: "GET", need: "admin" },
    "/api/v2/appliance PATCH": item("admin", "PATCH", "/api/v2/appliance", {}),
    "/api/v2/appliance/apply-settings POST": item("admin", "POST", "/api/v2/appliance/apply-settings", {}),
    "/api/v2/audit-log GET": { path: "/api/v2/audit-log", method: "GET", need: "admin" },
    "/api/v2/audit-log/(?P<id>\\d+) GET": item("admin", "GET", `/api/v2/audit-log/${NO}`),
    "/api/v2/events GET": { path: "/api/v2/events", method: "GET", need: "admin" },
    "/api/v2/events/(?P<id>\\d+) GET": item("admin", "GET", `/api/v2/events/${NO}`),
    ...Object.fromEntries(["microsoft-365-config", "google-connector-config", "ldap"].flatMap((c) => [
      [`/api/v2/integration/${c} GET`, { path: `/api/v2/integration/${c}`, method: "GET", need: "admin" }],
      ...["POST", "PATCH", "PUT"].map((m) => [`/api/v2/integration/${c} ${m}`, item("admin", m, `/api/v2/integration/${c}`, {})]),
    ])),
    "/api/v2/integration/group-import GET": { path: "/api/v2/integration/group-import", method: "GET", need: "admin" },
    "/api/v2/integration/group-import POST": item("admin", "POST", "/api/v2/integration/group-import", { connector: "ldap", groupName: "walk-group" }),
    "/api/v2/integration/group-import/(?P<id>\\d+) DELETE": item("admin", "DELETE", `/api/v2/integration/group-import/${NO}`),
    "/api/v2/integration/group-import/(?P<id>\\d+)/run POST": item("admin", "POST", `/api/v2/integration/group-import/${NO}/run`, { groupEmail: "walk-group@example.com", members: [] }),
    // A passwordless login token is the credential: a forged one is 401 for everyone.
    "/api/v2/passwordless-login POST": { path: "/api/v2/passwordless-login", method: "POST", need: "none", body: { loginToken: "forged-login-token" }, gate: 401 },
    "/api/v2/users GET": { path: "/api/v2/users", method: "GET", need: "admin" },
    "/api/v2/users POST": item("admin", "POST", "/api/v2/users", {}),
    "/api/v2/users/me GET": { path: "/api/v2/users/me", method: "GET", need: "user" },
    // One's own OTP: any signed-in user (a wrong code / nothing to confirm is a 4xx past the rule).
    "/api/v2/users/me/otp POST": item("user", "POST", "/api/v2/users/me/otp", {}),
    "/api/v2/users/me/otp DELETE": item("user", "DELETE", "/api/v2/users/me/otp"),
    "/api/v2/users/me/otp/confirm POST": item("user", "POST", "/api/v2/users/me/otp/confirm", { code: "000000" }),
    "/api/v2/users/(?P<id>\\d+) GET": item("admin", "GET", `/api/v2/users/${NO}`),
    "/api/v2/users/(?P<id>\\d+) PATCH": item("admin", "PATCH", `/api/v2/users/${NO}`, {}),
    "/api/v2/users/(?P<id>\\d+) DELETE": item("admin", "DELETE", `/api/v2/users/${NO}`),
    "/api/v2/users/(?P<id>\\d+)/otp DELETE": item("admin", "DELETE", `/api/v2/users/${NO}/otp`),
    "/api/v2/users/(?P<id>\\d+)/login-tokens GET": item("selfOrAdmin", "GET", "/api/v2/users/{admin}/login-tokens"),
    "/api/v2/users/(?P<id>\\d+)/login-tokens POST": item("selfOrAdmin", "POST", "/api/v2/users/{admin}/login-tokens", { label: "walk" }),
    "/api/v2/users/(?P<id>\\d+)/login-tokens/(?P<tokenId>[A-Za-z0-9_-]{1,64}) DELETE": item("selfOrAdmin", "DELETE", "/api/v2/users/{admin}/login-tokens/no-such-token"),
    "/api/v2/otp-policy GET": { path: "/api/v2/otp-policy", method: "GET", need: "admin" },
    "/api/v2/otp-policy POST": item("admin", "POST", "/api/v2/otp-policy", { mandatory: "none" }),
    "/api/v2/otp-policy PATCH": item("admin", "PATCH", "/api/v2/otp-policy", { mandatory: "none" }),
    "/api/v2/cluster GET": { path: "/api/v2/cluster", method: "GET", need: "admin" },
    // Cluster operations in an order that cannot be taken (a 409 past the rule is fine; the walk
    // must not destroy the cluster the other walks read).
    ...Object.fromEntries(["setup", "start", "suspend", "resume", "destroy"].map((op) => [`/api/v2/cluster/${op} POST`, item("admin", "POST", `/api/v2/cluster/${op}`, { confirm: "no" })])),
    "/api/v2/cluster/nodes GET": { path: "/api/v2/cluster/nodes", method: "GET", need: "admin" },
    "/api/v2/cluster/nodes POST": item("admin", "POST", "/api/v2/cluster/nodes", { hostname: "walk-node.example.com" }),
    "/api/v2/cluster/nodes/(?P<id>\\d+) GET": item("admin", "GET", `/api/v2/cluster/nodes/${NO}`),
    "/api/v2/cluster/nodes/(?P<id>\\d+) DELETE": item("admin", "DELETE", `/api/v2/cluster/nodes/${NO}`),
    ...Object.fromEntries(["suspend", "resume", "hard-reset", "heartbeat"].map((op) => [`/api/v2/cluster/nodes/(?P<id>\\d+)/${op} POST`, item("admin", "POST", `/api/v2/cluster/nodes/${NO}/${op}`, {})])),
    "/api/v2/domains GET": { path: "/api/v2/domains", method: "GET", need: "admin" },
    "/api/v2/domains POST": item("admin", "POST", "/api/v2/domains", { name: "walk-domain.example" }),
    "/api/v2/domains/(?P<id>\\d+) GET": item("admin", "GET", `/api/v2/domains/${NO}`),
    "/api/v2/domains/(?P<id>\\d+) DELETE": item("admin", "DELETE", `/api/v2/domains/${NO}`),
    "/api/v2/domains/(?P<id>\\d+)/summary GET": item("admin", "GET", `/api/v2/domains/${NO}/summary`),
    "/api/v2/domains/(?P<id>\\d+)/trial POST": item("admin", "POST", `/api/v2/domains/${NO}/trial`, {}),
    // The release history: any signed-in user.
    "/api/v2/versions GET": { path: "/api/v2/versions", method: "GET", need: "user" },
    "/api/v2/versions/(?P<id>[^/]+) GET": { path: "/api/v2/versions/5.3.0", method: "GET", need: "user" },
    "/api/v2/api-changes GET": { path: "/api/v2/api-changes", method: "GET", need: "user" },
  };
  const login = async (username: string, password: string) => {
    const r = await s.request("POST", "/api/v2/login", { body: { username, password } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.token as string;
  };

  beforeAll(async () => {
    // A gateway user without the admin role, made through the gateway's own domain function.
    await setGatewayPassword({ db: s.db }, "walk-operator", "operator-secret-1");
    const day = new Date("2026-01-05T00:00:00Z");
    adminId = (await s.db.prisma.gatewayUser.findUniqueOrThrow({ where: { username: "admin" } })).id;
    accounted = (await s.db.prisma.accountedEmail.create({
      data: { address: "walk@example.com", domain: "example.com", firstSeenOn: day, lastSeenOn: day, expiresOn: new Date("2026-02-04T00:00:00Z") },
    })).id;
  });

  test("every gateway route has its rule here", () => {
    const declared = GATEWAY_ROUTES.flatMap((route) => route.endpoints.flatMap((e) => e.methods.map((m) => `${route.pattern} ${m}`)));
    expect(declared.sort()).toEqual(Object.keys(GATEWAY_RULES).sort());
  });

  const cases = Object.keys(GATEWAY_RULES).flatMap((key) => (["anonymous", "user", "admin"] as const).map((who) => [key, who] as const));
  test.each(cases)("%s as %s", async (key, who) => {
    const rule = GATEWAY_RULES[key];
    // Each signed-in walk has a session of its own (logout ends the one it is sent with).
    if (who === "user") tokens.user = await login("walk-operator", "operator-secret-1");
    if (who === "admin") tokens.admin = await login("admin", GATEWAY_ADMIN_PASSWORD);
    const token = who === "anonymous" ? undefined : tokens[who];
    const body = key.startsWith("/api/v2/login") ? { username: "walk-operator", password: "operator-secret-1" } : rule.body;
    sent++;
    const path = rule.path.replace("{id}", String(accounted)).replace("{admin}", String(adminId));
    const r = await s.request(rule.method, path, { body, headers: token ? { "x-esg-auth-token": token } : {} });
    expect(r.status, r.text).toBeLessThan(500);
    if (rule.gate !== undefined) {
      expect(r.status, r.text).toBe(rule.gate);
      return;
    }
    const allowed = rule.need === "none" || (rule.need === "user" && who !== "anonymous")
      || (rule.need !== "user" && who === "admin");
    if (!allowed) {
      expect(r.status, r.text).toBe(who === "anonymous" ? 401 : 403);
    } else if (rule.passes) {
      expect([401, 403], r.text).not.toContain(r.status);
    } else {
      expect(r.status, r.text).toBeGreaterThanOrEqual(200);
      expect(r.status, r.text).toBeLessThan(300);
    }
  });

  // API Platform evaluates an operation's `security` before it deserializes and validates: a
  // signed-in caller the rule refuses is answered 403 whatever it sends, learns no validation
  // rule, and nothing is written.
  test("a non-administrator's invalid body is refused 403 before validation (POST /api/v2/domains {})", async () => {
    const token = await login("walk-operator", "operator-secret-1");
    const before = await gatewaySnapshot();
    sent++;
    const r = await s.request("POST", "/api/v2/domains", { body: {}, headers: { "x-esg-auth-token": token } });
    expect(r.status, r.text).toBe(403);
    expect(await gatewaySnapshot()).toEqual(before);
  });

  // The same over the route table: every endpoint a plain user may not call, sent what no endpoint
  // accepts (a body that is not JSON, filters and an order no collection takes).
  const restricted = GATEWAY_ROUTES.flatMap((route) => route.endpoints.flatMap((endpoint) => endpoint.methods.map((method) => ({ key: `${route.pattern} ${method}`, endpoint }))))
    .filter(({ key }) => !["none", "user"].includes(GATEWAY_RULES[key].need));
  test("the walk covers the restricted endpoints that read a body or a query", () => {
    expect(restricted.filter(({ endpoint }) => endpoint.body).length).toBeGreaterThan(10);
  });
  test.each(restricted.map(({ key, endpoint }) => [key, endpoint] as const))("%s: refused 403 before its input is read", async (key, endpoint) => {
    const rule = GATEWAY_RULES[key];
    const token = await login("walk-operator", "operator-secret-1");
    const path = rule.path.replace("{id}", String(accounted)).replace("{admin}", String(adminId));
    const before = await gatewaySnapshot();
    sent++;
    const r = await s.request(rule.method, `${path}?id[no-such-operator]=1&order[id]=sideways&page=-1`, {
      raw: endpoint.body ? "{not json" : undefined, headers: { "x-esg-auth-token": token, "content-type": "application/json" },
    });
    expect(r.status, r.text).toBe(403);
    expect(await gatewaySnapshot()).toEqual(before);
  });
});

afterAll(() => {
  console.info(`permission walk: ${WALKS.length} writes × ${CALLERS.length} callers, ${sent} requests walked`);
});
