// core/v2 users, types, statuses, taxonomies and settings over real HTTP (and their GraphQL
// queries), checked against what WordPress answers: recordings 127/131/133/135 and core's rules.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readRecording } from "../helpers/recordings.ts";
import { createUserWithPassword } from "../helpers/users.ts";
import { startTestSystem, type RequestOptions, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json/core/v2";
type Auth = RequestOptions["auth"];

const createUser = (username: string, roles: string[], extra: Record<string, unknown> = {}): Promise<{ id: number; auth: Auth }> =>
  createUserWithPassword(s, username, roles, extra);

let editor: { id: number; auth: Auth };
let author: { id: number; auth: Auth };
let subscriber: { id: number; auth: Auth };
/** A subscriber no test changes. */
let reader: { id: number; auth: Auth };

beforeAll(async () => {
  s = await startTestSystem();
  editor = await createUser("ella", ["editor"], { name: "Ella Editor" });
  author = await createUser("arno", ["author"], { first_name: "Arno", last_name: "Author" });
  subscriber = await createUser("sam", ["subscriber"]);
  reader = await createUser("rita", ["subscriber"]);
  // The author publishes a post, which makes them visible to visitors.
  const post = await s.request("POST", `${R}/posts`, { auth: author.auth, body: { title: "By Arno", status: "publish" } });
  expect(post.status).toBe(201);
});
afterAll(async () => { await s?.stop(); });

describe("users", () => {
  test("visitors see only users with published posts, in WordPress's view shape", async () => {
    const r = await s.request("GET", `${R}/users`);
    expect(r.status).toBe(200);
    expect(r.body.map((u: { slug: string }) => u.slug)).toEqual(["admin", "arno"]);
    expect(r.headers.get("x-wp-total")).toBe("2");
    expect(r.headers.get("allow")).toBe("GET");
    expect(Object.keys(r.body[0])).toEqual(["id", "name", "url", "description", "link", "slug", "avatar_urls", "meta", "_links"]);
    expect(r.body[0].link).toBe("http://example.test/author/admin/");
    expect(Object.keys(r.body[0].avatar_urls)).toEqual(["24", "48", "96"]);
    expect(r.body[0]._links.self[0].href).toBe("http://example.test/wp-json/core/v2/users/1");
    const admin = await s.request("GET", `${R}/users?per_page=100`, { auth: "admin" });
    // Ordered by display name, case-insensitively as WordPress's database does.
    expect(admin.body.map((u: { name: string }) => u.name)).toEqual(["admin", "Arno Author", "Ella Editor", "rita", "sam"]);
    expect(admin.headers.get("allow")).toBe("GET, POST");
  });

  test("filters: roles and capabilities need list_users; search, slug, include order, who=authors, has_published_posts", async () => {
    const roles = await s.request("GET", `${R}/users?roles=subscriber`);
    expect(roles.status).toBe(401);
    expect(roles.body).toEqual({ code: "rest_user_cannot_view", message: "Sorry, you are not allowed to filter users by role.", data: { status: 401 } });
    const caps = await s.request("GET", `${R}/users?capabilities=edit_posts`, { auth: reader.auth });
    expect(caps.status).toBe(403);
    expect(caps.body.message).toBe("Sorry, you are not allowed to filter users by capability.");
    const subs = await s.request("GET", `${R}/users?roles=subscriber`, { auth: "admin" });
    expect(subs.body.map((u: { id: number }) => u.id)).toEqual([reader.id, subscriber.id]);
    const editors = await s.request("GET", `${R}/users?capabilities=edit_others_posts`, { auth: "admin" });
    expect(editors.body.map((u: { slug: string }) => u.slug)).toEqual(["admin", "ella"]);
    const search = await s.request("GET", `${R}/users?search=ell`, { auth: "admin" });
    expect(search.body.map((u: { slug: string }) => u.slug)).toEqual(["ella"]);
    const slugs = await s.request("GET", `${R}/users?slug=sam,ella&orderby=include_slugs`, { auth: "admin" });
    expect(slugs.body.map((u: { slug: string }) => u.slug)).toEqual(["sam", "ella"]);
    const include = await s.request("GET", `${R}/users?include=${author.id},1&orderby=include`, { auth: "admin" });
    expect(include.body.map((u: { id: number }) => u.id)).toEqual([author.id, 1]);
    const authors = await s.request("GET", `${R}/users?who=authors&per_page=100`, { auth: editor.auth });
    expect(authors.body.map((u: { slug: string }) => u.slug)).not.toContain("sam");
    expect(authors.body.map((u: { slug: string }) => u.slug)).toContain("ella");
    const who = await s.request("GET", `${R}/users?who=authors`);
    expect(who.status).toBe(401);
    expect(who.body.code).toBe("rest_forbidden_who");
    const published = await s.request("GET", `${R}/users?has_published_posts=true`, { auth: "admin" });
    expect(published.body.map((u: { slug: string }) => u.slug)).toEqual(["admin", "arno"]);
    const pages = await s.request("GET", `${R}/users?has_published_posts=page`, { auth: "admin" });
    expect(pages.body.map((u: { slug: string }) => u.slug)).toEqual(["admin"]);
  });

  test("edit context, private orders and bad arguments are refused the WordPress way", async () => {
    const edit = await s.request("GET", `${R}/users?context=edit`, { auth: author.auth });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual({ code: "rest_forbidden_context", message: "Sorry, you are not allowed to list users.", data: { status: 403 } });
    const byEmail = await s.request("GET", `${R}/users?orderby=email`);
    expect(byEmail.status).toBe(401);
    expect(byEmail.body.code).toBe("rest_forbidden_orderby");
    // WordPress checks the context before the order.
    expect((await s.request("GET", `${R}/users?orderby=email&context=edit`)).body.code).toBe("rest_forbidden_context");
    const badOrder = await s.request("GET", `${R}/users?orderby=password`);
    expect(badOrder.status).toBe(400);
    expect(badOrder.body.data.params.orderby).toBe("orderby is not one of id, include, name, registered_date, slug, include_slugs, email, and url.");
    const tooMany = await s.request("GET", `${R}/users?per_page=101`);
    expect(tooMany.status).toBe(400);
    // Visitors cannot find users by e-mail address.
    const byMail = await s.request("GET", `${R}/users?search=arno@example.com`);
    expect(byMail.body).toEqual([]);
    const adminEdit = await s.request("GET", `${R}/users?context=edit&include=${author.id}`, { auth: "admin" });
    expect(Object.keys(adminEdit.body[0])).toEqual(["id", "username", "name", "first_name", "last_name", "email", "url", "description", "link",
      "locale", "nickname", "slug", "roles", "registered_date", "capabilities", "extra_capabilities", "avatar_urls", "meta", "_links"]);
    expect(adminEdit.body[0]).toMatchObject({ username: "arno", name: "Arno Author", first_name: "Arno", last_name: "Author", roles: ["author"], extra_capabilities: { author: true } });
    expect(adminEdit.body[0].capabilities).toMatchObject({ read: true, publish_posts: true, author: true });
    expect(adminEdit.body[0].capabilities.edit_others_posts).toBeUndefined();
  });

  test("paging: totals, pages and Link headers", async () => {
    const r = await s.request("GET", `${R}/users?per_page=1&page=2&orderby=id`, { auth: "admin" });
    expect(r.headers.get("x-wp-total")).toBe("5");
    expect(r.headers.get("x-wp-totalpages")).toBe("5");
    expect(r.body.map((u: { id: number }) => u.id)).toEqual([editor.id]);
    expect(r.headers.get("link")).toBe(
      "<http://example.test/wp-json/core/v2/users?per_page=1&page=1&orderby=id>; rel=\"prev\", <http://example.test/wp-json/core/v2/users?per_page=1&page=3&orderby=id>; rel=\"next\"",
    );
    const beyond = await s.request("GET", `${R}/users?page=9`, { auth: "admin" });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
  });

  test("one user: authors of published posts are public; other users are 401/403; missing ids 404", async () => {
    const arno = await s.request("GET", `${R}/users/${author.id}`);
    expect(arno.status).toBe(200);
    expect(arno.body.name).toBe("Arno Author");
    const sam = await s.request("GET", `${R}/users/${subscriber.id}`);
    expect(sam.status).toBe(401);
    expect(sam.body).toEqual({ code: "rest_user_cannot_view", message: "Sorry, you are not allowed to list users.", data: { status: 401 } });
    expect((await s.request("GET", `${R}/users/${subscriber.id}`, { auth: author.auth })).status).toBe(403);
    const self = await s.request("GET", `${R}/users/${subscriber.id}?context=edit`, { auth: subscriber.auth });
    expect(self.status).toBe(200);
    expect(self.body.email).toBe("sam@example.com");
    expect(self.headers.get("allow")).toBe("GET, POST, PUT, PATCH");
    const editOther = await s.request("GET", `${R}/users/1?context=edit`);
    expect(editOther.status).toBe(401);
    expect(editOther.body.code).toBe("rest_user_cannot_view");
    const missing = await s.request("GET", `${R}/users/9999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "rest_user_invalid_id", message: "Invalid user ID.", data: { status: 404 } });
  });

  test("me: 401 for visitors exactly as recorded (131); the signed-in user otherwise", async () => {
    const recorded = readRecording("131-users-me-unauth.json");
    const r = await s.request("GET", `${R}/users/me`);
    expect(r.status).toBe(recorded.response.status);
    expect(r.body).toEqual(recorded.response.body);
    expect(r.headers.get("allow")).toBe(recorded.response.headers.Allow);
    const me = await s.request("GET", `${R}/users/me?context=edit`, { auth: author.auth });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: author.id, username: "arno", roles: ["author"] });
    expect(me.headers.get("allow")).toBe("GET, POST, PUT, PATCH");
  });

  test("a post's embedded author keeps working, for visitors too", async () => {
    const r = await s.request("GET", `${R}/posts?_embed=author&search=Arno`);
    expect(r.body[0]._embedded.author[0]).toMatchObject({ id: author.id, name: "Arno Author", slug: "arno" });
    expect(Object.keys(r.body[0]._embedded.author[0])).toEqual(["id", "name", "url", "description", "link", "slug", "avatar_urls", "_links"]);
  });

  test("create: needs create_users; checks arguments before permissions; unique login and email", async () => {
    const anon = await s.request("POST", `${R}/users`, { body: { username: "x", email: "x@example.com", password: "p" } });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe("rest_cannot_create_user");
    const byEditor = await s.request("POST", `${R}/users`, { auth: editor.auth, body: { username: "x", email: "x@example.com", password: "p" } });
    expect(byEditor.status).toBe(403);
    const missing = await s.request("POST", `${R}/users`, { auth: "admin", body: { username: "x", email: "x@example.com" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "rest_missing_callback_param", data: { params: ["password"] } });
    const badName = await s.request("POST", `${R}/users`, { body: { username: "bad name!", email: "x@example.com", password: "p" } });
    expect(badName.status).toBe(400);
    expect(badName.body.data.params.username).toBe("Username contains invalid characters.");
    const badMail = await s.request("POST", `${R}/users`, { auth: "admin", body: { username: "x", email: "nope", password: "p" } });
    expect(badMail.status).toBe(400);
    expect(badMail.body.data.params.email).toBe("Invalid email address.");
    const taken = await s.request("POST", `${R}/users`, { auth: "admin", body: { username: "arno", email: "new@example.com", password: "p" } });
    expect(taken.status).toBe(500);
    expect(taken.body).toMatchObject({ code: "existing_user_login", message: "Sorry, that username already exists!" });
    const mail = await s.request("POST", `${R}/users`, { auth: "admin", body: { username: "fresh", email: "arno@example.com", password: "p" } });
    expect(mail.body.code).toBe("existing_user_email");
    const role = await s.request("POST", `${R}/users`, { auth: "admin", body: { username: "fresh", email: "fresh@example.com", password: "p", roles: ["wizard"] } });
    expect(role.status).toBe(400);
    expect(role.body).toMatchObject({ code: "rest_user_invalid_role", message: "The role wizard does not exist." });
    const ok = await s.request("POST", `${R}/users`, { auth: "admin", body: { username: "fresh", email: "fresh@example.com", password: "p", slug: "arno" } });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("location")).toBe(`http://example.test/wp-json/core/v2/users/${ok.body.id}`);
    expect(ok.body).toMatchObject({ username: "fresh", name: "fresh", nickname: "fresh", slug: "arno-2", roles: ["subscriber"] });
    // Two simultaneous creates of one login: one wins, the other gets WordPress's error (never a bare 500).
    const twins = await Promise.all([1, 2].map((n) => s.request("POST", `${R}/users`, { auth: "admin", body: { username: "twin", email: `twin${n}@example.com`, password: "p" } })));
    expect(twins.map((t) => t.status).sort()).toEqual([201, 500]);
    expect(twins.find((t) => t.status === 500)?.body.code).toBe("existing_user_login");
    const stored = await s.db.prisma.user.findUniqueOrThrow({ where: { id: ok.body.id } });
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(ok.body)).not.toContain("scrypt");
  });

  test("update: users edit themselves; roles need promote_users; usernames cannot change", async () => {
    const self = await s.request("POST", `${R}/users/me`, { auth: subscriber.auth, body: { name: "Sam S", description: "Hi" } });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ id: subscriber.id, name: "Sam S", description: "Hi" });
    // The block editor keeps its preferences in the one user meta WordPress registers; it shows in edit context only.
    const preferences = { core: { fixedToolbar: true }, _modified: "2024-01-01T00:00:00.000Z" };
    const saved = await s.request("POST", `${R}/users/me`, { auth: subscriber.auth, body: { meta: { persisted_preferences: preferences } } });
    expect(saved.body.meta).toEqual({ persisted_preferences: preferences });
    expect((await s.request("GET", `${R}/users/me`, { auth: subscriber.auth })).body.meta).toEqual([]);
    const promote = await s.request("PUT", `${R}/users/me`, { auth: subscriber.auth, body: { roles: ["administrator"] } });
    expect(promote.status).toBe(403);
    expect(promote.body.code).toBe("rest_cannot_edit_roles");
    const other = await s.request("PATCH", `${R}/users/${editor.id}`, { auth: author.auth, body: { name: "Nope" } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe("rest_cannot_edit");
    const rename = await s.request("POST", `${R}/users/${subscriber.id}`, { auth: "admin", body: { username: "samuel" } });
    expect(rename.status).toBe(400);
    expect(rename.body.code).toBe("rest_user_invalid_argument");
    const email = await s.request("POST", `${R}/users/${subscriber.id}`, { auth: "admin", body: { email: "arno@example.com" } });
    expect(email.body.code).toBe("rest_user_invalid_email");
    const demoteSelf = await s.request("POST", `${R}/users/1`, { auth: "admin", body: { roles: ["editor"] } });
    expect(demoteSelf.status).toBe(403);
    expect(demoteSelf.body.code).toBe("rest_user_invalid_role");
    const roles = await s.request("POST", `${R}/users/${subscriber.id}`, { auth: "admin", body: { roles: ["contributor"] } });
    expect(roles.body.roles).toEqual(["contributor"]);
    const anon = await s.request("POST", `${R}/users/me`, { body: { name: "x" } });
    expect(anon.status).toBe(404);
    expect(anon.body.code).toBe("rest_user_invalid_id");
  });

  test("delete: force and reassign are required; posts go to the reassigned user", async () => {
    const temp = await createUser("temp", ["author"]);
    const post = await s.request("POST", `${R}/posts`, { auth: temp.auth, body: { title: "Temp post", status: "publish" } });
    const noReassign = await s.request("DELETE", `${R}/users/${temp.id}?force=true`, { auth: "admin" });
    expect(noReassign.status).toBe(400);
    expect(noReassign.body).toMatchObject({ code: "rest_missing_callback_param", data: { params: ["reassign"] } });
    const noForce = await s.request("DELETE", `${R}/users/${temp.id}?reassign=1`, { auth: "admin" });
    expect(noForce.status).toBe(501);
    expect(noForce.body).toEqual({ code: "rest_trash_not_supported", message: "Users do not support trashing. Set 'force=true' to delete.", data: { status: 501 } });
    const byEditor = await s.request("DELETE", `${R}/users/${temp.id}?force=true&reassign=1`, { auth: editor.auth });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.code).toBe("rest_user_cannot_delete");
    const self = await s.request("DELETE", `${R}/users/${temp.id}?force=true&reassign=${temp.id}`, { auth: "admin" });
    expect(self.body.code).toBe("rest_user_invalid_reassign");
    const r = await s.request("DELETE", `${R}/users/${temp.id}?force=true&reassign=1`, { auth: "admin" });
    expect(r.status).toBe(200);
    expect(r.body.deleted).toBe(true);
    expect(r.body.previous).toMatchObject({ id: temp.id, username: "temp" });
    expect(r.body.previous._links).toBeUndefined();
    expect((await s.request("GET", `${R}/posts/${post.body.id}`)).body.author).toBe(1);
    expect((await s.request("GET", `${R}/users/${temp.id}`, { auth: "admin" })).status).toBe(404);
    // Without reassignment the user's posts go with them.
    const gone = await createUser("gone", ["author"]);
    const goner = await s.request("POST", `${R}/posts`, { auth: gone.auth, body: { title: "Gone post", status: "publish" } });
    expect((await s.request("DELETE", `${R}/users/${gone.id}?force=true&reassign=false`, { auth: "admin" })).status).toBe(200);
    expect((await s.request("GET", `${R}/posts/${goner.body.id}`)).status).toBe(404);
  });

  test("users and users/{id} may be batched, me may not (WordPress 6.6+)", async () => {
    const index = await s.request("GET", `${R}`);
    expect(index.body.routes["/core/v2/users"].endpoints[1].allow_batch).toEqual({ v1: true });
    expect(index.body.routes["/core/v2/users/(?P<id>[\\d]+)"].endpoints[0].allow_batch).toEqual({ v1: true });
    expect(index.body.routes["/core/v2/users/me"].endpoints[0].allow_batch).toBeUndefined();
    const batch = await s.request("POST", "/wp-json/batch/v1", {
      auth: "admin",
      body: { requests: [{ method: "POST", path: "/core/v2/users", body: { username: "batchy", email: "batchy@example.com", password: "p" } }, { method: "POST", path: "/core/v2/users/me", body: { name: "x" } }] },
    });
    expect(batch.status).toBe(207);
    expect(batch.body.responses[0].status).toBe(201);
    expect(batch.body.responses[1].body.code).toBe("rest_batch_not_allowed");
  });

  test("the SQL statements of a user list do not grow with its length", async () => {
    const count = async (perPage: number) => {
      const before = s.db.statements();
      const r = await s.request("GET", `${R}/users?per_page=${perPage}&context=edit`, { auth: "admin" });
      expect(r.body.length).toBe(perPage);
      return s.db.statements() - before;
    };
    await count(1); // the first read after the writes above reads the kept options and credentials again
    expect(await count(5)).toBe(await count(1));
    // Reading several users checks their visibility in one query, not one per user.
    const read = async (ids: number[]) => {
      const before = s.db.statements();
      const r = await s.graphql(`{ ${ids.map((id, i) => `u${i}: user(id: ${id}, idType: DATABASE_ID) { name }`).join(" ")} }`);
      expect(r.errors).toBeUndefined();
      return s.db.statements() - before;
    };
    expect(await read([1, author.id, 1, author.id])).toBe(await read([1]));
  });
});

describe("types", () => {
  test("every type WordPress exposes, keyed by type, in the view shape", async () => {
    const r = await s.request("GET", `${R}/types`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["post", "page", "attachment", "nav_menu_item", "wp_block", "wp_template", "wp_template_part", "wp_navigation"]);
    expect(r.body.post).toEqual({
      description: "", hierarchical: false, has_archive: false, name: "Posts", slug: "post", icon: "dashicons-admin-post",
      taxonomies: ["category", "post_tag"], rest_base: "posts", rest_namespace: "wp/v2",
      _links: {
        collection: [{ href: "http://example.test/wp-json/core/v2/types" }],
        "wp:items": [{ href: "http://example.test/wp-json/core/v2/posts" }],
        curies: [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }],
      },
    });
    expect(r.body.nav_menu_item).toMatchObject({ name: "Navigation Menu Items", taxonomies: ["nav_menu"], rest_base: "menu-items", icon: null });
    expect(r.body.page.hierarchical).toBe(true);
  });

  test("edit context: capabilities, labels, supports and visibility, only for types the caller may edit", async () => {
    const r = await s.request("GET", `${R}/types/page?context=edit`, { auth: editor.auth });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["capabilities", "description", "hierarchical", "has_archive", "visibility", "viewable", "labels",
      "name", "slug", "icon", "supports", "taxonomies", "rest_base", "rest_namespace", "_links"]);
    expect(r.body.capabilities).toMatchObject({ edit_post: "edit_page", edit_posts: "edit_pages", read: "read", create_posts: "edit_pages" });
    expect(r.body.labels).toMatchObject({ name: "Pages", singular_name: "Page", parent_item_colon: "Parent Page:", menu_name: "Pages", name_admin_bar: "Page" });
    expect(Object.keys(r.body.labels).slice(-2)).toEqual(["menu_name", "name_admin_bar"]);
    expect(r.body.supports).toMatchObject({ title: true, "page-attributes": true, autosave: true });
    expect(r.body.visibility).toEqual({ show_in_nav_menus: true, show_ui: true });
    const mine = await s.request("GET", `${R}/types?context=edit`, { auth: author.auth });
    expect(Object.keys(mine.body)).toEqual(["post", "attachment", "wp_block"]);
    expect(mine.body.attachment.capabilities.create_posts).toBe("upload_files");
    const anon = await s.request("GET", `${R}/types?context=edit`);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ code: "rest_cannot_view", message: "Sorry, you are not allowed to edit posts in this post type.", data: { status: 401 } });
    const pageByAuthor = await s.request("GET", `${R}/types/page?context=edit`, { auth: author.auth });
    expect(pageByAuthor.status).toBe(403);
    expect(pageByAuthor.body.code).toBe("rest_forbidden_context");
    const missing = await s.request("GET", `${R}/types/product`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "rest_type_invalid", message: "Invalid post type.", data: { status: 404 } });
    const embed = await s.request("GET", `${R}/types/attachment?context=embed`);
    expect(Object.keys(embed.body)).toEqual(["name", "slug", "icon", "rest_base", "rest_namespace", "_links"]);
  });
});

describe("statuses", () => {
  test("a visitor sees only publish, exactly as recorded (133)", async () => {
    const recorded = readRecording("133-statuses.json");
    const r = await s.request("GET", `${R}/statuses`);
    expect(r.status).toBe(200);
    expect(JSON.parse(JSON.stringify(r.body).replaceAll("example.test/wp-json/core/v2", "127.0.0.1:8088/wp-json/wp/v2"))).toEqual(recorded.response.body);
    expect(r.headers.get("allow")).toBe("GET");
  });

  test("editors see every non-internal status and trash; single statuses follow the same rule", async () => {
    const r = await s.request("GET", `${R}/statuses?context=edit`, { auth: author.auth });
    expect(Object.keys(r.body)).toEqual(["publish", "future", "draft", "pending", "private", "trash"]);
    expect(r.body.draft).toEqual({
      name: "Draft", private: false, protected: true, public: false, queryable: false, show_in_list: true, slug: "draft", date_floating: true,
      _links: { archives: [{ href: "http://example.test/wp-json/core/v2/posts?status=draft" }] },
    });
    expect(r.body.trash.show_in_list).toBe(false);
    const subscriberView = await s.request("GET", `${R}/statuses`, { auth: reader.auth });
    expect(Object.keys(subscriberView.body)).toEqual(["publish"]);
    const edit = await s.request("GET", `${R}/statuses?context=edit`);
    expect(edit.status).toBe(401);
    expect(edit.body).toEqual({ code: "rest_cannot_view", message: "Sorry, you are not allowed to manage post statuses.", data: { status: 401 } });
    const draft = await s.request("GET", `${R}/statuses/draft`);
    expect(draft.status).toBe(401);
    expect(draft.body).toEqual({ code: "rest_cannot_read_status", message: "Cannot view status.", data: { status: 401 } });
    expect((await s.request("GET", `${R}/statuses/draft`, { auth: author.auth })).body.name).toBe("Draft");
    expect((await s.request("GET", `${R}/statuses/publish`)).body.slug).toBe("publish");
    const missing = await s.request("GET", `${R}/statuses/bogus`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("rest_status_invalid");
  });
});

describe("taxonomies", () => {
  test("all taxonomies, or those of one post type; an empty answer is still an object", async () => {
    const all = await s.request("GET", `${R}/taxonomies`);
    expect(Object.keys(all.body)).toEqual(["category", "post_tag", "nav_menu"]);
    expect(all.body.category).toEqual({
      name: "Categories", slug: "category", description: "", types: ["post"], hierarchical: true, rest_base: "categories", rest_namespace: "wp/v2",
      _links: {
        collection: [{ href: "http://example.test/wp-json/core/v2/taxonomies" }],
        "wp:items": [{ href: "http://example.test/wp-json/core/v2/categories" }],
        curies: [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }],
      },
    });
    const forMenus = await s.request("GET", `${R}/taxonomies?type=nav_menu_item`);
    expect(Object.keys(forMenus.body)).toEqual(["nav_menu"]);
    const none = await s.request("GET", `${R}/taxonomies?type=page`);
    expect(none.text).toBe("{}");
  });

  test("edit context needs the right to assign (list) or manage (one) terms", async () => {
    const list = await s.request("GET", `${R}/taxonomies?context=edit`, { auth: author.auth });
    expect(Object.keys(list.body)).toEqual(["category", "post_tag"]);
    expect(Object.keys(list.body.post_tag)).toEqual(["name", "slug", "capabilities", "description", "labels", "types", "show_cloud",
      "hierarchical", "rest_base", "rest_namespace", "visibility", "_links"]);
    expect(list.body.post_tag.labels).toMatchObject({ name: "Tags", popular_items: "Popular Tags", parent_item: null, menu_name: "Tags", name_admin_bar: "post_tag" });
    expect(list.body.category.visibility).toEqual({ public: true, publicly_queryable: true, show_admin_column: true, show_in_nav_menus: true, show_in_quick_edit: true, show_ui: true });
    const anon = await s.request("GET", `${R}/taxonomies?context=edit`);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe("rest_cannot_view");
    const one = await s.request("GET", `${R}/taxonomies/category?context=edit`, { auth: author.auth });
    expect(one.status).toBe(403);
    expect(one.body).toEqual({ code: "rest_forbidden_context", message: "Sorry, you are not allowed to manage terms in this taxonomy.", data: { status: 403 } });
    const byEditor = await s.request("GET", `${R}/taxonomies/category?context=edit`, { auth: editor.auth });
    expect(byEditor.body.capabilities).toEqual({ manage_terms: "manage_categories", edit_terms: "edit_categories", delete_terms: "delete_categories", assign_terms: "assign_categories" });
    const menu = await s.request("GET", `${R}/taxonomies/nav_menu?context=edit`, { auth: editor.auth });
    expect(menu.status).toBe(403);
    const missing = await s.request("GET", `${R}/taxonomies/genre`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "rest_taxonomy_invalid", message: "Invalid taxonomy.", data: { status: 404 } });
  });

  test("the categories list keeps the recorded shape (127)", async () => {
    const recorded = readRecording("127-categories-list.json");
    const r = await s.request("GET", `${R}/categories`);
    expect(Object.keys(r.body[0])).toEqual(Object.keys((recorded.response.body as Record<string, unknown>[])[0]));
    expect(r.body[0]._links.about[0].href).toBe("http://example.test/wp-json/core/v2/taxonomies/category");
    // The `about` link of a category leads to its taxonomy.
    expect((await s.request("GET", `${R}/taxonomies/category`)).body.slug).toBe("category");
  });
});

describe("settings", () => {
  test("administrators read them in the recorded shape (135); others get rest_forbidden", async () => {
    const recorded = readRecording("135-settings.json");
    const r = await s.request("GET", `${R}/settings`, { auth: "admin" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(Object.keys(recorded.response.body as object));
    expect(r.body).toMatchObject({ ...(recorded.response.body as object), title: "Partner Site", url: "http://example.test" });
    expect(r.headers.get("allow")).toBe(recorded.response.headers.Allow);
    const anon = await s.request("GET", `${R}/settings`);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 401 } });
    expect(anon.headers.get("allow")).toBeNull();
    const editorWrite = await s.request("POST", `${R}/settings`, { auth: editor.auth, body: { title: "Mine" } });
    expect(editorWrite.status).toBe(403);
    expect(editorWrite.body.code).toBe("rest_forbidden");
    expect((await s.request("GET", `${R}/settings`, { auth: "admin" })).body.title).toBe("Partner Site");
  });

  test("writes are sanitized like WordPress; bad values are refused before anything is stored; null resets", async () => {
    const bad = await s.request("PUT", `${R}/settings`, { auth: "admin", body: { title: "Changed", default_ping_status: "sometimes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.params.default_ping_status).toBe("default_ping_status is not one of open and closed.");
    expect((await s.request("GET", `${R}/settings`, { auth: "admin" })).body.title).toBe("Partner Site");
    const wrongType = await s.request("PATCH", `${R}/settings`, { auth: "admin", body: { posts_per_page: "many" } });
    expect(wrongType.status).toBe(400);
    const r = await s.request("PATCH", `${R}/settings`, {
      auth: "admin",
      body: { title: "Tom & Jerry <b>news</b>", description: "Tagline", posts_per_page: 5, use_smilies: false, site_logo: 12, email: "ops@example.com", start_of_week: 0, language: "xx_XX" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      title: "Tom &amp; Jerry &lt;b&gt;news&lt;/b&gt;", description: "Tagline", posts_per_page: 5, use_smilies: false, site_logo: 12,
      email: "ops@example.com", start_of_week: 0, language: "en_US",
    });
    expect((await s.request("GET", "/wp-json/")).body.name).toBe("Tom &amp; Jerry &lt;b&gt;news&lt;/b&gt;");
    const reset = await s.request("POST", `${R}/settings`, { auth: "admin", body: { title: null, site_logo: null } });
    expect(reset.body.title).toBe("Partner Site");
    expect(reset.body.site_logo).toBeNull();
    expect(reset.body.posts_per_page).toBe(5);
    const url = await s.request("POST", `${R}/settings`, { auth: "admin", body: { url: "http://elsewhere.test" } });
    expect(url.status).toBe(400);
    expect(url.body.code).toBe("rest_invalid_param");
    expect((await s.request("POST", `${R}/settings`, { auth: "admin", body: { url: "http://example.test", posts_per_page: 10 } })).status).toBe(200);
  });

  test("the time zone changes how new post dates render, in REST and in the index", async () => {
    const offset = await s.request("POST", `${R}/settings`, { auth: "admin", body: { timezone: "UTC+5.5" } });
    expect(offset.body.timezone).toBe("");
    const index = await s.request("GET", "/wp-json/");
    expect(index.body).toMatchObject({ gmt_offset: "5.5", timezone_string: "" });
    const post = await s.request("POST", `${R}/posts`, { auth: "admin", body: { title: "Zoned", status: "publish", date_gmt: "2024-01-15T10:00:00" } });
    expect(post.body.date).toBe("2024-01-15T15:30:00");
    expect(post.body.date_gmt).toBe("2024-01-15T10:00:00");
    const city = await s.request("POST", `${R}/settings`, { auth: "admin", body: { timezone: "America/New_York" } });
    expect(city.body.timezone).toBe("America/New_York");
    const winter = await s.request("POST", `${R}/posts`, { auth: "admin", body: { title: "NY", status: "publish", date_gmt: "2024-01-15T15:00:00" } });
    expect(winter.body.date).toBe("2024-01-15T10:00:00");
    expect((await s.request("GET", "/wp-json/")).body.timezone_string).toBe("America/New_York");
    // A zone WordPress does not know leaves the setting as it was.
    const bogus = await s.request("POST", `${R}/settings`, { auth: "admin", body: { timezone: "Mars/Olympus_Mons" } });
    expect(bogus.status).toBe(200);
    expect(bogus.body.timezone).toBe("America/New_York");
    await s.request("POST", `${R}/settings`, { auth: "admin", body: { timezone: "" } });
  });

  test("new posts take the default comment status and category from the settings", async () => {
    const category = await s.request("POST", `${R}/categories`, { auth: "admin", body: { name: "Defaults" } });
    await s.request("POST", `${R}/settings`, { auth: "admin", body: { default_comment_status: "closed", default_category: category.body.id } });
    const post = await s.request("POST", `${R}/posts`, { auth: "admin", body: { title: "Quiet" } });
    expect(post.body.comment_status).toBe("closed");
    expect(post.body.categories).toEqual([category.body.id]);
    await s.request("POST", `${R}/settings`, { auth: "admin", body: { default_comment_status: "open", default_category: 1 } });
  });

  test("settings are not batchable, as in core", async () => {
    const index = await s.request("GET", `${R}`);
    expect(index.body.routes["/core/v2/settings"].endpoints.map((e: { allow_batch?: unknown }) => e.allow_batch)).toEqual([undefined, undefined]);
    expect(index.body.routes["/core/v2/settings"].endpoints[0].args).toEqual([]);
    expect(index.body.routes["/core/v2/types"].endpoints[0].allow_batch).toBeUndefined();
  });
});

describe("GraphQL", () => {
  test("users with totals and page info; private fields only for those who may see them", async () => {
    const query = `query($where: UserWhere) { users(where: $where, perPage: 1, orderBy: ID) { totalCount totalPages pageInfo { hasNextPage hasPreviousPage } nodes { id: databaseId name email roles capabilities } } }`;
    const anon = await s.graphql<{ users: { totalCount: number; totalPages: number; pageInfo: { hasNextPage: boolean }; nodes: { id: number; email: string | null }[] } }>(query);
    expect(anon.data?.users.totalCount).toBe(2);
    expect(anon.data?.users.pageInfo.hasNextPage).toBe(true);
    expect(anon.data?.users.nodes[0]).toMatchObject({ id: 1, email: null, roles: null });
    const admin = await s.graphql<{ users: { nodes: { email: string; roles: string[] }[] } }>(query, { where: { roles: ["editor"] } }, { auth: "admin" });
    expect(admin.data?.users.nodes[0]).toMatchObject({ email: "ella@example.com", roles: ["editor"] });
    const refused = await s.graphql(query, { where: { roles: ["editor"] } });
    expect(refused.errors?.[0].extensions?.code).toBe("rest_user_cannot_view");
  });

  test("postTypes, postType, postStatuses, postStatus, taxonomies, taxonomy", async () => {
    interface Registry {
      postTypes: { slug: string; restBase: string; viewerCanEdit: boolean }[];
      postType: { name: string; viewable: boolean; capabilities: { key: string; capability: string }[]; labels: { key: string; value: string | null }[] };
      postStatuses: { slug: string }[];
      postStatus: { name: string; public: boolean; queryable: boolean };
      taxonomies: { slug: string }[];
      taxonomy: { name: string; types: string[]; showCloud: boolean; visibility: { showUi: boolean } };
    }
    const r = await s.graphql<Registry>(`{
      postTypes { slug restBase viewerCanEdit }
      postType(name: "attachment") { name viewable capabilities { key capability } labels { key value } }
      postStatuses { slug }
      postStatus(name: "publish") { name public queryable }
      taxonomies(postType: "post") { slug }
      taxonomy(name: "nav_menu") { name types showCloud visibility { showUi } }
    }`);
    expect(r.errors).toBeUndefined();
    expect(r.data!.postTypes.map((t) => t.slug)).toContain("nav_menu_item");
    expect(r.data!.postTypes.every((t) => !t.viewerCanEdit)).toBe(true);
    expect(r.data!.postType.name).toBe("Media");
    expect(r.data!.postType.capabilities).toContainEqual({ key: "create_posts", capability: "upload_files" });
    expect(r.data!.postType.labels).toContainEqual({ key: "edit_item", value: "Edit Media" });
    expect(r.data!.postStatuses).toEqual([{ slug: "publish" }]);
    expect(r.data!.postStatus).toEqual({ name: "Published", public: true, queryable: true });
    expect(r.data!.taxonomies).toEqual([{ slug: "category" }, { slug: "post_tag" }]);
    expect(r.data!.taxonomy).toEqual({ name: "Navigation Menus", types: ["nav_menu_item"], showCloud: false, visibility: { showUi: false } });
    const editing = await s.graphql(`{ postTypes(editing: true) { slug } }`);
    expect(editing.errors?.[0].extensions?.code).toBe("rest_cannot_view");
  });

  test("siteSettings and updateSiteSettings (gmtOffset too) need manage_options", async () => {
    const anon = await s.graphql(`{ siteSettings { title } }`);
    expect(anon.errors?.[0].extensions?.code).toBe("rest_forbidden");
    const updated = await s.graphql<{ updateSiteSettings: { gmtOffset: number; timezone: string; dateFormat: string } }>(
      `mutation($input: SiteSettingsInput!) { updateSiteSettings(input: $input) { gmtOffset timezone dateFormat } }`,
      { input: { gmtOffset: -3, dateFormat: "Y-m-d" } }, { auth: "admin" },
    );
    expect(updated.data?.updateSiteSettings).toEqual({ gmtOffset: -3, timezone: "", dateFormat: "Y-m-d" });
    const read = await s.graphql<{ siteSettings: { dateFormat: string; language: string } }>(`{ siteSettings { dateFormat language } }`, {}, { auth: "admin" });
    expect(read.data?.siteSettings).toEqual({ dateFormat: "Y-m-d", language: "en_US" });
    await s.graphql(`mutation { updateSiteSettings(input: { gmtOffset: 0, dateFormat: null }) { title } }`, {}, { auth: "admin" });
  });

  test("createUser, updateUser and deleteUser", async () => {
    const created = await s.graphql<{ createUser: { id: number; username: string; roles: string[] } }>(
      `mutation { createUser(input: { username: "gq", email: "gq@example.com", password: "pw", roles: ["editor"] }) { id: databaseId username roles } }`, {}, { auth: "admin" },
    );
    expect(created.data?.createUser).toMatchObject({ username: "gq", roles: ["editor"] });
    const id = created.data!.createUser.id;
    const updated = await s.graphql<{ updateUser: { firstName: string; nickname: string } }>(
      `mutation($id: ID!) { updateUser(id: $id, input: { firstName: "Gee", nickname: "gee" }) { firstName nickname } }`, { id }, { auth: "admin" },
    );
    expect(updated.data?.updateUser).toEqual({ firstName: "Gee", nickname: "gee" });
    const deleted = await s.graphql<{ deleteUser: { deleted: boolean; previous: { username: string } } }>(
      `mutation($id: ID!) { deleteUser(id: $id, force: true, reassign: 1) { deleted previous { username } } }`, { id }, { auth: "admin" },
    );
    expect(deleted.data?.deleteUser).toEqual({ deleted: true, previous: { username: "gq" } });
  });
});
