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
}

const json = (body: Record<string, unknown>) => (): RequestOptions => ({ body });
const UPDATE = ["POST", "PUT", "PATCH"] as const;

const itemWalks = (pattern: string, rule: (who: Caller) => boolean, path: (fresh: boolean) => Promise<string>, update: Record<string, unknown>, deleteQuery: string): Walk[] => [
  ...UPDATE.map((method): Walk => ({ pattern, method, rule, path, body: json(update) })),
  { pattern, method: "DELETE", rule, path: async (fresh) => `${await path(fresh)}${deleteQuery}` },
];

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
];

/** Routes that take writes but are walked elsewhere: batch/v1 only carries other routes' writes (walked below). */
const WALKED_ELSEWHERE = new Set(["/batch/v1 POST"]);

/**
 * Every row a site write could touch, as one digest per table (one query: the walk asks it twice
 * per refusal), without what merely authenticating records (an application password's last use).
 */
const TABLES = ["User", "Post", "Term", "PostTerm", "Option", "Language", "LanguageSettings"];
const SNAPSHOT_SQL = [
  ...TABLES.map((table) => `SELECT '${table}' AS name, count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${table}" t`),
  `SELECT 'ApplicationPassword', count(*)::int, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))
     FROM (SELECT to_jsonb(a) - 'lastUsedAt' - 'lastIp' AS t FROM "ApplicationPassword" a) s`,
].join(" UNION ALL ");

async function snapshot(): Promise<Record<string, string>> {
  const rows = await s.db.prisma.$queryRawUnsafe<{ name: string; rows: number; digest: string }[]>(SNAPSHOT_SQL);
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

describe("every write × every role answers as WordPress's rule", () => {
  const cases = WALKS.flatMap((walk) => CALLERS.map((who) => [`${walk.method} ${walk.pattern}${walk.variant ? ` (${walk.variant})` : ""}`, who, walk] as const));

  test.each(cases)("%s as %s", async (_name, who, walk) => {
    const allowed = walk.rule(who);
    const auth = walk.ownCaller && who !== "anonymous" ? await make.caller(who) : callers[who];
    // A walk that may change its item gets a fresh one; refusals share one (and must leave it as it was).
    const path = await walk.path(allowed);
    const options = { ...(await walk.body?.(path)), auth };
    const before = allowed ? undefined : await snapshot();
    const r = await request(walk.method, path, options);
    if (allowed) {
      expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(200);
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    } else {
      const refusal = who === "anonymous" ? walk.anonymousRefusal ?? { status: 401 } : { status: 403 };
      expect({ status: r.status, code: r.body?.code }).toMatchObject(refusal);
      expect(await snapshot()).toEqual(before);
    }
  });
});

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

describe("the email gateway's /api/v2 routes for its callers", () => {
  type GatewayCaller = "anonymous" | "user" | "admin";
  const tokens: Partial<Record<GatewayCaller, string>> = {};
  let accounted = 0;
  /** The gateway's rule per route: public, any signed-in user, or administrators only. */
  const GATEWAY_RULES: Record<string, { path: string; method: string; body?: unknown; need: "none" | "user" | "admin" }> = {
    "/api/v2/login POST": { path: "/api/v2/login", method: "POST", need: "none" },
    "/api/v2/logout POST": { path: "/api/v2/logout", method: "POST", need: "user" },
    "/api/v2/licensing/accounted-email GET": { path: "/api/v2/licensing/accounted-email", method: "GET", need: "admin" },
    "/api/v2/licensing/accounted-email/(?P<id>\\d+) GET": { path: "/api/v2/licensing/accounted-email/{id}", method: "GET", need: "admin" },
    "/api/v2/? GET": { path: "/api/v2", method: "GET", need: "none" },
    "/api/v2/contexts/(?P<name>[^/]+) GET": { path: "/api/v2/contexts/Entrypoint", method: "GET", need: "none" },
    "/api/v2/docs\\.json GET": { path: "/api/v2/docs.json", method: "GET", need: "none" },
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
    const body = key.startsWith("/api/v2/login") ? { username: "walk-operator", password: "operator-secret-1" } : undefined;
    sent++;
    const r = await s.request(rule.method, rule.path.replace("{id}", String(accounted)), { body, headers: token ? { "x-esg-auth-token": token } : {} });
    const expected = rule.need === "none" || (rule.need === "user" && who !== "anonymous") || (rule.need === "admin" && who === "admin")
      ? "ok" : who === "anonymous" ? 401 : 403;
    if (expected === "ok") {
      expect(r.status, r.text).toBeGreaterThanOrEqual(200);
      expect(r.status, r.text).toBeLessThan(300);
    } else {
      expect(r.status, r.text).toBe(expected);
    }
  });
});

afterAll(() => {
  console.info(`permission walk: ${WALKS.length} writes × ${CALLERS.length} callers, ${sent} requests walked`);
});
