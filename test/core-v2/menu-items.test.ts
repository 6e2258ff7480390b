// core/v2/menu-items and core/v2/menus over real HTTP (and their GraphQL fields), checked against
// what WordPress answers: recordings 075–081, 129, 137 and the menu items controller's rules.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readRecording } from "../helpers/recordings.ts";
import { createUserWithPassword } from "../helpers/users.ts";
import { startTestSystem, type RequestOptions, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json/core/v2";
const HOST = "http://example.test";
type Json = Record<string, any>;

/** `auth` null: anonymous. */
type Caller = RequestOptions["auth"] | null;
const post = async (path: string, body: Json, auth: Caller = "admin") => s.request("POST", `${R}${path}`, { auth: auth ?? undefined, body });
const created = async (path: string, body: Json): Promise<Json> => {
  const r = await post(path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const list = async (query = "", auth: Caller = "admin") => s.request("GET", `${R}/menu-items${query}`, { auth: auth ?? undefined });
const ids = (body: Json[]) => body.map((i) => i.id);

/**
 * A recorded WordPress body with its ids and host replaced by ours. Menu items carry the seed's
 * registered meta (`_lang_menu_item`, empty), where the plugin-less recording has none.
 */
function recorded(file: string, idMap: Record<number, number>): unknown {
  const text = JSON.stringify(readRecording(file).response.body)
    .replaceAll("http://127.0.0.1:8088", HOST).replaceAll("/wp/v2/", "/core/v2/");
  const swap = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => swap(x));
    if (v && typeof v === "object") {
      const isItem = "type_label" in v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === "meta" && isItem ? { _lang_menu_item: [] } : swap(x, k)]));
    }
    if (typeof v === "number" && ["id", "object_id", "parent", "menus"].includes(key ?? "") && idMap[v] !== undefined) return idMap[v];
    if (typeof v === "string") return v.replace(/\/(menu-items|menus|pages|categories)(\/|\?post=|\?menus=)(\d+)/g, (m, base, sep, n) => `/${base}${sep}${idMap[Number(n)] ?? n}`);
    return v;
  };
  return swap(JSON.parse(text));
}

// The seed's menu: Main menu with Home (custom), About (page), Team (child page, under About) and News (category).
let menu: Json;
let about: Json;
let team: Json;
let news: Json;
const item: Record<string, Json> = {};

beforeAll(async () => {
  s = await startTestSystem();
  menu = await created("/menus", { name: "Main menu", description: "Primary navigation" });
  about = await created("/pages", { title: "About", status: "publish" });
  team = await created("/pages", { title: "Team", status: "publish", parent: about.id });
  news = await created("/categories", { name: "News" });
  item.home = await created("/menu-items", { title: "Home", url: `${HOST}/`, menus: menu.id, status: "publish", menu_order: 1 });
  item.about = await created("/menu-items", { type: "post_type", object: "page", object_id: about.id, menus: menu.id, status: "publish", menu_order: 2 });
  item.team = await created("/menu-items", { type: "post_type", object: "page", object_id: team.id, parent: item.about.id, menus: menu.id, status: "publish", menu_order: 3 });
  item.news = await created("/menu-items", { type: "taxonomy", object: "category", object_id: news.id, menus: menu.id, status: "publish", menu_order: 4 });
});
afterAll(async () => { await s?.stop(); });

/** Recorded ids of the seed install → ours. */
const seedIds = () => ({ 7: menu.id, 9: about.id, 10: team.id, 2: news.id, 12: item.home.id, 13: item.about.id, 14: item.team.id, 15: item.news.id });

describe("a menu as WordPress builds it (recordings 13–17, 075, 129)", () => {
  test("the menu is created with its slug, no locations, auto_add off", () => {
    expect(menu).toEqual(recorded("seed/13-create-menu.json", seedIds()));
  });

  test("creating items answers 201 in edit context, with the object's title and permalink and the action links", async () => {
    expect(item.home).toEqual(recorded("seed/14-create-menu-item-custom.json", seedIds()));
    expect(item.about).toEqual(recorded("seed/15-create-menu-item-page.json", seedIds()));
    expect(item.team).toEqual(recorded("seed/16-create-menu-item-child-page.json", seedIds()));
    expect(item.news).toEqual(recorded("seed/17-create-menu-item-category.json", seedIds()));
    const r = await post("/menu-items", { title: "Located", url: "https://example.org/l", menus: menu.id });
    expect(r.headers.get("location")).toBe(`${HOST}/wp-json/core/v2/menu-items/${r.body.id}`);
    await s.request("DELETE", `${R}/menu-items/${r.body.id}?force=true`, { auth: "admin" });
  });

  test("the list: 100 a page, menu order ascending, view context, headers", async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.headers.get("x-wp-total")).toBe("4");
    expect(r.headers.get("x-wp-totalpages")).toBe("1");
    expect(r.headers.get("allow")).toBe("GET, POST");
    expect(r.body).toEqual(recorded("075-menu-items-list.json", seedIds()));
  });

  test("the menus list", async () => {
    const r = await s.request("GET", `${R}/menus`, { auth: "admin" });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-wp-total")).toBe("1");
    expect(r.body).toEqual(recorded("129-menus-list.json", seedIds()));
  });
});

describe("creating menu items (§10)", () => {
  test("defaults: custom, publish, parent 0, menu_order 1 (not appended), object_id is the item's own id (recording 077)", async () => {
    const r = await post("/menu-items", { title: "Docs", url: "https://example.org/docs", menus: menu.id, status: "publish" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual(recorded("077-menu-item-create-with-menus.json", { ...seedIds(), 26: r.body.id }));
    item.docs = r.body;
  });

  test("without menus the item is an orphan: no `menus` key, position 1 whatever was asked", async () => {
    const r = await post("/menu-items", { title: "Loose item", url: "https://example.org/loose", menu_order: 7 });
    expect(r.status).toBe(201);
    expect(r.body).not.toHaveProperty("menus");
    expect(r.body.menu_order).toBe(1);
    expect(Object.keys(r.body)).toEqual(["id", "title", "status", "url", "attr_title", "description", "type", "type_label", "object",
      "object_id", "parent", "menu_order", "target", "classes", "xfn", "invalid", "meta", "_links"]);
    item.loose = r.body;
  });

  test("menu_order 0 is refused with WordPress's exact body (recording 079); a missing menu is invalid_menu_id", async () => {
    const before = (await list("?status=any")).body.length;
    const zero = await post("/menu-items", { title: "Zero", url: "https://example.org/zero", menus: menu.id, menu_order: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual(readRecording("079-menu-item-create-menu-order-0.json").response.body);
    const missing = await post("/menu-items", { title: "Nowhere", url: "https://example.org/", menus: 99999 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: "invalid_menu_id", message: "Invalid menu ID.", data: { status: 400 } });
    expect((await list("?status=any")).body.length).toBe(before);
  });

  test("url is not checked as a uri but sanitized (recording 081); javascript: is an invalid URL", async () => {
    const r = await post("/menu-items", { title: "Not a URI", url: "not a uri", menus: menu.id });
    expect(r.status).toBe(201);
    expect(r.body).toEqual(recorded("081-menu-item-create-url-not-uri.json", { ...seedIds(), 28: r.body.id }));
    item.notUri = r.body;
    const js = await post("/menu-items", { title: "Evil", url: "javascript:alert(1)", menus: menu.id });
    expect(js.status).toBe(400);
    expect(js.body).toEqual({
      code: "rest_invalid_param", message: "Invalid parameter(s): url",
      data: { status: 400, params: { url: "Invalid URL." }, details: { url: { code: "rest_invalid_url", message: "Invalid URL.", data: null } } },
    });
  });

  test("a custom item needs a title and a url: both errors in one body", async () => {
    const r = await post("/menu-items", { menus: menu.id });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: "rest_title_required", message: "The title is required when using a custom menu item type.", data: { status: 400 },
      additional_errors: [{ code: "rest_url_required", message: "The url is required when using a custom menu item type.", data: { status: 400 } }],
    });
    const noUrl = await post("/menu-items", { title: "Only a title" });
    expect(noUrl.body).toEqual({ code: "rest_url_required", message: "The url is required when using a custom menu item type.", data: { status: 400 } });
  });

  test("argument rules: target enum, title string|object, minimums, type enum", async () => {
    const target = await post("/menu-items", { title: "T", url: "https://example.org/", target: "_self" });
    expect(target.body.data.params.target).toBe("target is not one of _blank and .");
    const title = await post("/menu-items", { title: 5, url: "https://example.org/" });
    expect(title.body.data.params.title).toBe("title is not of type string,object.");
    const parent = await post("/menu-items", { title: "T", url: "https://example.org/", parent: -1 });
    expect(parent.body.data.params.parent).toBe("parent must be greater than or equal to 0");
    const objectId = await post("/menu-items", { title: "T", url: "https://example.org/", object_id: -3 });
    expect(objectId.body.data.params.object_id).toBe("object_id must be greater than or equal to 0");
    const type = await post("/menu-items", { title: "T", url: "https://example.org/", type: "link" });
    expect(type.body.data.params.type).toBe("type is not one of taxonomy, post_type, post_type_archive, and custom.");
  });

  test("title as an object uses its raw; classes and xfn from a list or a space/comma string, cleaned; [\"\"] when empty", async () => {
    const r = await post("/menu-items", {
      title: { raw: "Raw title" }, url: "https://example.org/c", menus: menu.id, target: "_blank",
      classes: "big  red,b%41d!", xfn: ["friend", "met"], attr_title: "  <b>Tip</b> ", description: "Some <i>words</i>",
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      title: { raw: "Raw title", rendered: "Raw title" }, target: "_blank", classes: ["big", "red", "bd"], xfn: ["friend", "met"],
      attr_title: "Tip", description: "Some words",
    });
    const cleared = await s.request("PATCH", `${R}/menu-items/${r.body.id}`, { auth: "admin", body: { classes: [], xfn: "" } });
    expect(cleared.body).toMatchObject({ classes: [""], xfn: [""] });
    await s.request("DELETE", `${R}/menu-items/${r.body.id}?force=true`, { auth: "admin" });
  });

  test("status: anything but publish is stored as draft, and drafts are not listed by default", async () => {
    const r = await post("/menu-items", { title: "Pending", url: "https://example.org/p", menus: menu.id, status: "pending" });
    expect(r.body.status).toBe("draft");
    expect(ids((await list()).body)).not.toContain(r.body.id);
    expect(ids((await list("?status=draft")).body)).toEqual([r.body.id]);
    const anonymous = await list("?status=draft", null);
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.data.details.status.code).toBe("rest_forbidden_status");
    await s.request("DELETE", `${R}/menu-items/${r.body.id}?force=true`, { auth: "admin" });
  });

  test("objects: a missing post, term or post type is refused; an archive takes the type's archive label", async () => {
    const noPost = await post("/menu-items", { type: "post_type", object_id: 99999 });
    expect(noPost.body).toEqual({ code: "rest_post_invalid_id", message: "Invalid post ID.", data: { status: 400 } });
    const noTerm = await post("/menu-items", { type: "taxonomy", object_id: 99999 });
    expect(noTerm.body).toEqual({ code: "rest_term_invalid_id", message: "Invalid term ID.", data: { status: 400 } });
    const noType = await post("/menu-items", { type: "post_type_archive", object: "nothing" });
    expect(noType.body).toEqual({ code: "rest_post_invalid_type", message: "Invalid post type.", data: { status: 400 } });
    const archive = await post("/menu-items", { type: "post_type_archive", object: "post" });
    expect(archive.status).toBe(201);
    expect(archive.body).toMatchObject({ title: { raw: "Post Archives" }, type_label: "Post Type Archive", url: `${HOST}/`, object: "post", invalid: false });
    expect(archive.body._links).not.toHaveProperty("wp:menu-item-object");
    await s.request("DELETE", `${R}/menu-items/${archive.body.id}?force=true`, { auth: "admin" });
  });

  test("an item follows its object: the page's new title, and invalid once the page is trashed", async () => {
    const page = await created("/pages", { title: "Pricing", status: "publish" });
    const own = await created("/menu-items", { type: "post_type", object: "page", object_id: page.id, title: "Prices" });
    const follows = await created("/menu-items", { type: "post_type", object_id: page.id });
    expect(follows).toMatchObject({ object: "page", title: { raw: "Pricing" }, url: `${HOST}/pricing/`, type_label: "Page", invalid: false });
    await s.request("POST", `${R}/pages/${page.id}`, { auth: "admin", body: { title: "Plans" } });
    expect((await s.request("GET", `${R}/menu-items/${follows.id}`, { auth: "admin" })).body.title.rendered).toBe("Plans");
    expect((await s.request("GET", `${R}/menu-items/${own.id}`, { auth: "admin" })).body.title.rendered).toBe("Prices");
    await s.request("DELETE", `${R}/pages/${page.id}`, { auth: "admin" });
    expect((await s.request("GET", `${R}/menu-items/${follows.id}`, { auth: "admin" })).body.invalid).toBe(true);
    for (const id of [own.id, follows.id]) await s.request("DELETE", `${R}/menu-items/${id}?force=true`, { auth: "admin" });
  });
});

describe("updating and deleting", () => {
  test("an update keeps what it does not send: title, url, menu, position; a parent of itself becomes 0", async () => {
    const r = await s.request("PUT", `${R}/menu-items/${item.docs.id}`, { auth: "admin", body: { attr_title: "Read the docs", parent: item.docs.id } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: { raw: "Docs" }, url: "https://example.org/docs", menus: menu.id, menu_order: 1, attr_title: "Read the docs", parent: 0 });
    expect(r.body._links["wp:action-publish"]).toBeDefined();
    const moved = await s.request("POST", `${R}/menu-items/${item.docs.id}`, { auth: "admin", body: { menu_order: 9, title: "Documentation" } });
    expect(moved.body).toMatchObject({ menu_order: 9, title: { raw: "Documentation" }, url: "https://example.org/docs" });
    const missing = await s.request("PATCH", `${R}/menu-items/99999`, { auth: "admin", body: { title: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("rest_post_invalid_id");
  });

  test("delete without force is 501; with force the item as it was, in view context, without links", async () => {
    const victim = await created("/menu-items", { title: "Victim", url: "https://example.org/v", menus: menu.id });
    const soft = await s.request("DELETE", `${R}/menu-items/${victim.id}`, { auth: "admin" });
    expect(soft.status).toBe(501);
    expect(soft.body).toEqual({ code: "rest_trash_not_supported", message: "Menu items do not support trashing. Set 'force=true' to delete.", data: { status: 501 } });
    const hard = await s.request("DELETE", `${R}/menu-items/${victim.id}?force=true`, { auth: "admin" });
    expect(hard.status).toBe(200);
    const { _links: _ignored, ...viewBody } = victim;
    void _ignored;
    expect(hard.body).toEqual({ deleted: true, previous: { ...viewBody, title: { rendered: "Victim" } } });
    expect((await s.request("GET", `${R}/menu-items/${victim.id}`, { auth: "admin" })).status).toBe(404);
  });
});

describe("reading", () => {
  test("anonymous callers may not read menu items or menus (401); a post id is not a menu item (404)", async () => {
    const anonymousList = await list("", null);
    expect(anonymousList.status).toBe(401);
    expect(anonymousList.body).toEqual({ code: "rest_cannot_view", message: "Sorry, you are not allowed to view menu items.", data: { status: 401 } });
    const one = await s.request("GET", `${R}/menu-items/${item.home.id}`);
    expect(one.status).toBe(401);
    expect(one.body.code).toBe("rest_cannot_view");
    const menus = await s.request("GET", `${R}/menus`);
    expect(menus.body).toEqual({ code: "rest_cannot_view", message: "Sorry, you are not allowed to view menus.", data: { status: 401 } });
    const create = await post("/menu-items", { title: "x", url: "https://example.org/" }, null);
    expect(create.status).toBe(401);
    expect(create.body.code).toBe("rest_cannot_create");
    expect((await s.request("GET", `${R}/menu-items/1`, { auth: "admin" })).body.code).toBe("rest_post_invalid_id");
  });

  test("filters: menus, menus_exclude (orphans only), menu_order; paging with per_page", async () => {
    const inMenu = (await list(`?menus=${menu.id}`)).body;
    expect(inMenu.every((i: Json) => i.menus === menu.id)).toBe(true);
    expect(ids(inMenu)).not.toContain(item.loose.id);
    expect(ids((await list(`?menus_exclude=${menu.id}`)).body)).toEqual([item.loose.id]);
    expect(ids((await list(`?menus[terms][]=${menu.id}&menus[operator]=AND`)).body)).toEqual(ids(inMenu));
    expect(ids((await list("?menu_order=3")).body)).toEqual([item.team.id]);
    const paged = await list("?per_page=2&page=2");
    expect(paged.body).toHaveLength(2);
    expect(paged.headers.get("x-wp-totalpages")).toBe(String(Math.ceil(Number(paged.headers.get("x-wp-total")) / 2)));
    expect(paged.headers.get("link")).toContain('rel="prev"');
    expect((await list("?menus=abc")).body.code).toBe("rest_invalid_param");
  });

  test("the final list orders by menu_order, then id (recording 137's order)", async () => {
    const r = await list();
    const orders = r.body.map((i: Json) => i.menu_order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    const ones = r.body.filter((i: Json) => i.menu_order === 1).map((i: Json) => i.id);
    expect(ones).toEqual([...ones].sort((a, b) => a - b));
    expect(ones).toContain(item.loose.id);
  });

  test("edit context needs edit_theme_options: an editor may read menu items but not edit them", async () => {
    const editor = await createUser("edna", ["editor"]);
    const read = await list("", editor);
    expect(read.status).toBe(200);
    expect(read.headers.get("allow")).toBe("GET");
    const edit = await list("?context=edit", editor);
    expect(edit.status).toBe(403);
    expect(edit.body.code).toBe("rest_forbidden_context");
    const write = await post("/menu-items", { title: "x", url: "https://example.org/" }, editor);
    expect(write.status).toBe(403);
    expect(write.body.code).toBe("rest_cannot_create");
    const subscriber = await createUser("sid", ["subscriber"]);
    expect((await list("", subscriber)).status).toBe(403);
  });

  test("_embed follows wp:term to the menu and wp:menu-item-object to the page", async () => {
    const r = await s.request("GET", `${R}/menu-items/${item.about.id}?_embed`, { auth: "admin" });
    expect(r.body._embedded["wp:term"][0][0]).toMatchObject({ id: menu.id, name: "Main menu", slug: "main-menu" });
    expect(r.body._embedded["wp:menu-item-object"][0]).toMatchObject({ id: about.id, slug: "about" });
  });
});

const createUser = async (username: string, roles: string[]): Promise<RequestOptions["auth"]> => (await createUserWithPassword(s, username, roles)).auth;

describe("autosaves of menu items (WordPress's autosaves controller on a type whose prepared data holds no post fields)", () => {
  test("a published item gets one autosave per user, with empty title/content/excerpt; later autosaves reuse it", async () => {
    const id = item.home.id;
    const empty = await s.request("GET", `${R}/menu-items/${id}/autosaves`, { auth: "admin" });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    const first = await s.request("POST", `${R}/menu-items/${id}/autosaves`, { auth: "admin", body: { title: "Changed" } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ parent: id, slug: `${id}-autosave-v1`, author: 1, title: { raw: "", rendered: "" }, meta: { _lang_menu_item: [] } });
    expect(first.body.preview_link).toContain(`preview_id=${id}`);
    expect(first.body._links).toEqual({ parent: [{ href: `${HOST}/wp-json/core/v2/menu-items/${id}` }] });
    const again = await s.request("POST", `${R}/menu-items/${id}/autosaves`, { auth: "admin", body: { title: "Changed again" } });
    expect(again.body.id).toBe(first.body.id);
    const listed = await s.request("GET", `${R}/menu-items/${id}/autosaves`, { auth: "admin" });
    expect(ids(listed.body)).toEqual([first.body.id]);
    const latest = await s.request("GET", `${R}/menu-items/${id}/autosaves/424242`, { auth: "admin" });
    expect(latest.body.id).toBe(first.body.id);
    // The item itself is untouched.
    expect((await s.request("GET", `${R}/menu-items/${id}`, { auth: "admin" })).body.title.rendered).toBe("Home");
  });

  test("the author's own draft item is only touched: the answer is the item in the revision shape, parent 0, no links", async () => {
    const draft = await created("/menu-items", { title: "Draft item", url: "https://example.org/d", status: "draft" });
    const r = await s.request("POST", `${R}/menu-items/${draft.id}/autosaves`, { auth: "admin", body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: draft.id, parent: 0, title: { raw: "Draft item" } });
    expect(r.body._links).toBeUndefined();
    expect((await s.request("GET", `${R}/menu-items/${draft.id}/autosaves`, { auth: "admin" })).body).toEqual([]);
    await s.request("DELETE", `${R}/menu-items/${draft.id}?force=true`, { auth: "admin" });
  });

  test("the item's own rules and permissions apply", async () => {
    const bad = await s.request("POST", `${R}/menu-items/${item.home.id}/autosaves`, { auth: "admin", body: { menu_order: 0 } });
    expect(bad.body.data.params.menu_order).toBe("menu_order must be greater than or equal to 1");
    const noTitle = await s.request("POST", `${R}/menu-items/${item.home.id}/autosaves`, { auth: "admin", body: { title: "" } });
    expect(noTitle.body.code).toBe("rest_title_required");
    const anonymous = await s.request("GET", `${R}/menu-items/${item.home.id}/autosaves`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: "rest_cannot_read", message: "Sorry, you are not allowed to view autosaves of this post.", data: { status: 401 } });
    const write = await s.request("POST", `${R}/menu-items/${item.home.id}/autosaves`, { body: { title: "x" } });
    expect(write.body.code).toBe("rest_cannot_edit");
    const notItem = await s.request("GET", `${R}/menu-items/${about.id}/autosaves`, { auth: "admin" });
    expect(notItem.status).toBe(404);
    expect(notItem.body.code).toBe("rest_post_invalid_parent");
  });
});

describe("menus", () => {
  test("a second menu: one name per menu, the slug follows the name, locations and auto_add", async () => {
    const footer = await created("/menus", { name: "Footer", locations: ["footer"], auto_add: true });
    expect(footer).toMatchObject({ name: "Footer", slug: "footer", description: "", locations: ["footer"], auto_add: true });
    expect(footer._links["wp:menu-location"]).toEqual([{ embeddable: true, href: `${HOST}/wp-json/core/v2/menu-locations/footer` }]);
    const same = await post("/menus", { name: "footer" });
    expect(same.status).toBe(400);
    expect(same.body).toEqual({
      code: "menu_exists", message: "The menu name <strong>footer</strong> conflicts with another menu name. Please try another.",
      data: { status: 400, term_id: footer.id },
    });
    const badLocation = await post("/menus", { name: "Side", locations: ["sidebar"] });
    expect(badLocation.status).toBe(400);
    expect(badLocation.body.data.params.locations).toBe("Invalid menu location.");
    const missingName = await post("/menus", { description: "x" });
    expect(missingName.body).toMatchObject({ code: "rest_missing_callback_param", data: { params: ["name"] } });

    // Renaming moves the slug with it; like WordPress, an update without description clears it; a location moves to the menu that takes it.
    const renamed = await s.request("POST", `${R}/menus/${footer.id}`, { auth: "admin", body: { name: "Bottom links", description: "Small print" } });
    expect(renamed.body).toMatchObject({ name: "Bottom links", slug: "bottom-links", description: "Small print", locations: ["footer"] });
    const moved = await s.request("PUT", `${R}/menus/${menu.id}`, { auth: "admin", body: { locations: ["footer", "primary"], auto_add: false } });
    expect(moved.body).toMatchObject({ name: "Main menu", description: "", locations: ["footer", "primary"], auto_add: false });
    expect((await s.request("GET", `${R}/menus/${footer.id}`, { auth: "admin" })).body).toMatchObject({ locations: [], auto_add: true });
    await s.request("PUT", `${R}/menus/${menu.id}`, { auth: "admin", body: { description: "Primary navigation", locations: [] } });
    footerId = footer.id;
  });

  test("deleting a menu needs force, and takes its items with it", async () => {
    const extra = await created("/menu-items", { title: "Footer link", url: "https://example.org/f", menus: footerId });
    const soft = await s.request("DELETE", `${R}/menus/${footerId}`, { auth: "admin" });
    expect(soft.status).toBe(501);
    expect(soft.body.message).toBe("Menus do not support trashing. Set 'force=true' to delete.");
    const hard = await s.request("DELETE", `${R}/menus/${footerId}?force=true`, { auth: "admin" });
    expect(hard.body).toEqual({ deleted: true, previous: { id: footerId, description: "Small print", name: "Bottom links", slug: "bottom-links", meta: [], locations: [], auto_add: true } });
    expect((await s.request("GET", `${R}/menu-items/${extra.id}`, { auth: "admin" })).status).toBe(404);
    expect((await s.request("GET", `${R}/menus/${footerId}`, { auth: "admin" })).body.code).toBe("rest_term_invalid");
  });

  test("wp:term of an item embeds its menu through menus?post=", async () => {
    const r = await s.request("GET", `${R}/menus?post=${item.home.id}`, { auth: "admin" });
    expect(ids(r.body)).toEqual([menu.id]);
    expect((await s.request("GET", `${R}/menus?post=${item.loose.id}`, { auth: "admin" })).body).toEqual([]);
  });
});
let footerId = 0;

describe("batch/v1 and the index", () => {
  test("two menu items created in one batch", async () => {
    const r = await s.request("POST", "/wp-json/batch/v1", {
      auth: "admin",
      body: { requests: [
        { path: "/core/v2/menu-items", body: { title: "Batch A", url: "https://example.org/a", menus: menu.id, menu_order: 20 } },
        { path: "/core/v2/menu-items", body: { title: "Batch B", url: "https://example.org/b", menus: menu.id, menu_order: 21 } },
      ] },
    });
    expect(r.status).toBe(207);
    expect(r.body.responses.map((x: Json) => x.status)).toEqual([201, 201]);
    expect(r.body.responses.map((x: Json) => x.body.title.raw)).toEqual(["Batch A", "Batch B"]);
    expect(r.body.responses[0].headers.Location).toBe(`${HOST}/wp-json/core/v2/menu-items/${r.body.responses[0].body.id}`);
    const listed = (await list(`?menus=${menu.id}&menu_order=21`)).body;
    expect(listed.map((i: Json) => i.title.rendered)).toEqual(["Batch B"]);
  });

  test("the index lists the routes with WordPress's arguments and allow_batch", async () => {
    const index = (await s.request("GET", "/wp-json/core/v2")).body;
    const items = index.routes["/core/v2/menu-items"];
    expect(items.endpoints[0].allow_batch).toEqual({ v1: true });
    expect(items.endpoints[0].args.per_page).toMatchObject({ default: 100, minimum: 1, maximum: 100 });
    expect(items.endpoints[0].args.orderby).toMatchObject({ default: "menu_order" });
    expect(Object.keys(items.endpoints[0].args).slice(-4)).toEqual(["tax_relation", "menus", "menus_exclude", "menu_order"]);
    expect(items.endpoints[1].args.menu_order).toMatchObject({ default: 1, minimum: 1 });
    expect(index.routes["/core/v2/menu-items/(?P<id>[\\d]+)"].endpoints[1].args.menu_order).not.toHaveProperty("default");
    expect(index.routes["/core/v2/menu-items/(?P<id>[\\d]+)/autosaves"].endpoints[1].args.parent).toMatchObject({ minimum: 0 });
    expect(index.routes["/core/v2/menus"].endpoints[1].args.name.required).toBe(true);
    expect(index.routes["/core/v2/menus/(?P<id>[\\d]+)"].methods).toEqual(["GET", "POST", "PUT", "PATCH", "DELETE"]);
  });
});

describe("GraphQL", () => {
  test("menu { items } through one loader: statements do not grow from 10 to 50 items", async () => {
    const small = await created("/menus", { name: "Ten" });
    const large = await created("/menus", { name: "Fifty" });
    const fill = async (menuId: number, n: number) => {
      for (let start = 0; start < n; start += 25) {
        const requests = Array.from({ length: Math.min(25, n - start) }, (_, i) => (start + i) % 5 === 0
          ? { path: "/core/v2/menu-items", body: { type: "post_type", object_id: team.id, menus: menuId, menu_order: start + i + 1 } }
          : { path: "/core/v2/menu-items", body: { title: `Link ${start + i}`, url: `https://example.org/${start + i}`, menus: menuId, menu_order: start + i + 1 } });
        expect((await s.request("POST", "/wp-json/batch/v1", { auth: "admin", body: { requests } })).status).toBe(207);
      }
    };
    await fill(small.id, 10);
    await fill(large.id, 50);
    const query = `query($id: ID!) { menu(id: $id, idType: DATABASE_ID) { name items { id title { rendered } url typeLabel menu { slug } } } }`;
    const count = async (id: number, n: number) => {
      const before = s.db.statements();
      const r = await s.graphql<{ menu: { items: { title: { rendered: string }; url: string }[] } }>(query, { id }, { auth: "admin" });
      expect(r.errors).toBeUndefined();
      expect(r.data!.menu.items).toHaveLength(n);
      return { statements: s.db.statements() - before, items: r.data!.menu.items };
    };
    await count(small.id, 10); // after the writes above, the first read reads the site options again (kept until a write)
    const ten = await count(small.id, 10);
    const fifty = await count(large.id, 50);
    expect(fifty.statements).toBe(ten.statements);
    expect(ten.items[0]).toMatchObject({ title: { rendered: "Team" }, url: `${HOST}/about/team/` });
    expect(ten.items[1].title.rendered).toBe("Link 1");
  });

  test("menuItems with totals and cursors; mutations answer null with the error", async () => {
    const r = await s.graphql<{ menuItems: { totalCount: number; nodes: { id: number; menuOrder: number }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } }>(
      `query($menu: Int!) { menuItems(where: { menus: { terms: [$menu] } }, first: 2) { totalCount nodes { id: databaseId menuOrder } pageInfo { hasNextPage endCursor } } }`,
      { menu: menu.id }, { auth: "admin" });
    expect(r.errors).toBeUndefined();
    expect(r.data!.menuItems.nodes.map((n) => n.id)).toEqual([item.home.id, item.notUri.id]);
    expect(r.data!.menuItems.pageInfo.hasNextPage).toBe(true);
    const bad = await s.graphql(`mutation { createMenuItem(input: { title: "x", url: "https://example.org", menuOrder: 0 }) { id } }`, {}, { auth: "admin" });
    expect(bad.data).toEqual({ createMenuItem: null });
    expect(bad.errors?.[0].extensions).toMatchObject({ code: "rest_invalid_param", http: { status: 400 } });
    const orphan = await s.graphql<{ createMenuItem: { menu: null; menuId: null; meta: { langMenuItem: { name: string; value: boolean }[] } } }>(
      `mutation { createMenuItem(input: { title: "Switcher", url: "#pll_switcher", meta: { langMenuItem: [{ name: "show_flags", value: true }] } }) { menu { id } menuId meta { langMenuItem { name value } } } }`,
      {}, { auth: "admin" });
    expect(orphan.data!.createMenuItem).toEqual({ menu: null, menuId: null, meta: { langMenuItem: [{ name: "show_flags", value: true }] } });
  });
});
