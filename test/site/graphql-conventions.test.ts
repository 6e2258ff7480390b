// The GraphQL API as a front end uses it (issue 7): WPGraphQL's conventions where they serve front
// ends — opaque global ids beside databaseId, node(id) / nodeByUri, idType lookups, enums and
// DateTime, Relay connections beside page/perPage, nullable list roots, menus assigned to a
// location readable by everyone — while REST keeps WordPress's rules and spellings.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json/core/v2";
type Json = Record<string, any>;

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** A query's data, failing the test on any error. */
async function data<T = Json>(query: string, variables: Json = {}, auth: "admin" | null = "admin"): Promise<T> {
  const r = await s.graphql<T>(query, variables, { auth: auth ?? undefined });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data!;
}
const visitor = <T = Json>(query: string, variables: Json = {}) => data<T>(query, variables, null);

async function rest(method: string, path: string, body?: Json, auth: "admin" | null = "admin") {
  return s.request(method, `${R}${path}`, { auth: auth ?? undefined, body });
}

let helloId: number;
let pageId: number;
let categoryId: number;
let menuId: number;
let hiddenMenuId: number;
let itemId: number;
const postIds: number[] = [];

beforeAll(async () => {
  s = await startTestSystem();
  const hello = (await rest("GET", "/posts?slug=hello-world")).body[0];
  helloId = hello.id;
  pageId = (await rest("GET", "/pages?slug=sample-page")).body[0].id;
  categoryId = (await rest("POST", "/categories", { name: "Front News" })).body.id;
  for (let i = 1; i <= 5; i++) {
    const r = await rest("POST", "/posts", { title: `Relay ${i}`, status: "publish", date: `2020-01-0${i}T10:00:00`, categories: [categoryId] });
    expect(r.status).toBe(201);
    postIds.push(r.body.id);
  }
  const menu = await rest("POST", "/menus", { name: "Primary nav", locations: ["primary"] });
  expect(menu.status).toBe(201);
  menuId = menu.body.id;
  hiddenMenuId = (await rest("POST", "/menus", { name: "Unassigned" })).body.id;
  const item = await rest("POST", "/menu-items", { title: "Home", url: "https://example.test/", menus: menuId, status: "publish" });
  expect(item.status).toBe(201);
  itemId = item.body.id;
  await rest("POST", "/menu-items", { title: "Hidden", url: "https://example.test/x", menus: hiddenMenuId, status: "publish" });
}, 120_000);
afterAll(async () => { await s?.stop(); });

describe("global ids, databaseId and node", () => {
  test("every entity's id is base64 of <kind>:<databaseId>, and node(id) loads it back as its type", async () => {
    const d = await data(`query($p: ID!, $c: ID!) {
      post(id: $p, idType: DATABASE_ID) { id databaseId author { id databaseId } categories { id databaseId } }
      page(id: $c, idType: DATABASE_ID) { id databaseId }
    }`, { p: String(helloId), c: String(pageId) });
    expect(d.post.id).toBe(b64(`post:${helloId}`));
    expect(d.post.databaseId).toBe(helloId);
    expect(d.post.author.id).toBe(b64(`user:${d.post.author.databaseId}`));
    expect(d.post.categories[0].id).toBe(b64(`term:${d.post.categories[0].databaseId}`));
    expect(d.page.id).toBe(b64(`post:${pageId}`));

    const nodes = await data(`query($a: ID!, $b: ID!, $c: ID!, $d: ID!, $e: ID!) {
      a: node(id: $a) { __typename id ... on Post { databaseId title { rendered } } }
      b: node(id: $b) { __typename ... on Page { databaseId } }
      c: node(id: $c) { __typename ... on Category { name } }
      d: node(id: $d) { __typename ... on User { databaseId } }
      e: node(id: $e) { __typename ... on MenuItem { databaseId } }
    }`, { a: d.post.id, b: d.page.id, c: b64(`term:${categoryId}`), d: d.post.author.id, e: b64(`post:${itemId}`) });
    expect(nodes.a).toEqual({ __typename: "Post", id: d.post.id, databaseId: helloId, title: { rendered: "Hello world!" } });
    expect(nodes.b).toEqual({ __typename: "Page", databaseId: pageId });
    expect(nodes.c).toEqual({ __typename: "Category", name: "Front News" });
    expect(nodes.d.__typename).toBe("User");
    expect(nodes.e).toEqual({ __typename: "MenuItem", databaseId: itemId });
  });

  test("node answers null for a malformed id, an unknown kind, a missing row and a draft a visitor may not read", async () => {
    const draft = (await rest("POST", "/posts", { title: "Secret draft", status: "draft" })).body.id;
    const d = await visitor(`query($draft: ID!) {
      bad: node(id: "not base64!") { id }
      kind: node(id: "${b64("comment:1")}") { id }
      missing: node(id: "${b64("post:999999")}") { id }
      draft: node(id: $draft) { id }
    }`, { draft: b64(`post:${draft}`) });
    expect(d).toEqual({ bad: null, kind: null, missing: null, draft: null });
    // The administrator may read the draft.
    expect((await data(`{ node(id: "${b64(`post:${draft}`)}") { id } }`)).node).toEqual({ id: b64(`post:${draft}`) });
  });

  test("the content subgraph resolves entity references by the global id and by databaseId (both federation keys)", async () => {
    const content = s.subgraphs.find((g) => g.name === "content")!.url;
    const representations = [
      { __typename: "Post", id: b64(`post:${helloId}`) }, { __typename: "Post", databaseId: helloId },
      { __typename: "Page", databaseId: pageId }, { __typename: "Category", id: b64(`term:${categoryId}`) },
      { __typename: "User", databaseId: 1 }, { __typename: "Menu", databaseId: menuId },
      // A global id of another kind names nothing.
      { __typename: "Post", id: b64(`term:${helloId}`) },
    ];
    const r = await fetch(content, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Post { databaseId } ... on Page { databaseId } ... on Category { databaseId } ... on User { databaseId } ... on Menu { databaseId } } }`,
        variables: { r: representations },
      }),
    });
    const body = await r.json();
    expect(body.errors).toBeUndefined();
    expect(body.data._entities).toEqual([
      { __typename: "Post", databaseId: helloId }, { __typename: "Post", databaseId: helloId },
      { __typename: "Page", databaseId: pageId }, { __typename: "Category", databaseId: categoryId },
      { __typename: "User", databaseId: 1 }, { __typename: "Menu", databaseId: menuId }, null,
    ]);
  });

  test("mutations take the global id or the database id", async () => {
    const created = await data(`mutation { createPost(input: { title: "Ids", status: DRAFT }) { id databaseId } }`);
    const byGlobal = await data(`mutation($id: ID!) { updatePost(id: $id, input: { title: "By global" }) { title { raw } } }`, { id: created.createPost.id });
    expect(byGlobal.updatePost.title.raw).toBe("By global");
    const byDatabase = await data(`mutation($id: ID!) { updatePost(id: $id, input: { title: "By database" }) { title { raw } } }`, { id: created.createPost.databaseId });
    expect(byDatabase.updatePost.title.raw).toBe("By database");
    // A global id of another kind names no post.
    const wrong = await s.graphql(`mutation { updatePost(id: "${b64(`term:${created.createPost.databaseId}`)}", input: { title: "x" }) { id } }`, {}, { auth: "admin" });
    expect(wrong.errors?.[0].extensions?.code).toBe("rest_post_invalid_id");
  });
});

describe("idType lookups and nodeByUri", () => {
  test("a post by DATABASE_ID, ID, SLUG and URI; a page by URI; terms by SLUG, NAME and URI; a user by SLUG", async () => {
    const d = await visitor(`query($db: ID!, $global: ID!) {
      db: post(id: $db, idType: DATABASE_ID) { databaseId uri }
      global: post(id: $global) { databaseId }
      slug: post(id: "hello-world", idType: SLUG) { databaseId }
      uri: post(id: "/hello-world/", idType: URI) { databaseId }
      page: page(id: "/sample-page/", idType: URI) { databaseId }
      catSlug: category(id: "front-news", idType: SLUG) { databaseId uri }
      catName: category(id: "Front News", idType: NAME) { databaseId }
      catUri: category(id: "/category/front-news/", idType: URI) { databaseId }
    }`, { db: helloId, global: b64(`post:${helloId}`) });
    expect(d.db).toEqual({ databaseId: helloId, uri: "/hello-world/" });
    for (const key of ["global", "slug", "uri"]) expect(d[key].databaseId).toBe(helloId);
    expect(d.page.databaseId).toBe(pageId);
    expect(d.catSlug).toEqual({ databaseId: categoryId, uri: "/category/front-news/" });
    expect(d.catName.databaseId).toBe(categoryId);
    expect(d.catUri.databaseId).toBe(categoryId);
    const author = await visitor(`{ post(id: "hello-world", idType: SLUG) { author { slug databaseId uri } } }`);
    const user = await visitor(`query($slug: ID!) { user(id: $slug, idType: SLUG) { databaseId } }`, { slug: author.post.author.slug });
    expect(user.user.databaseId).toBe(author.post.author.databaseId);
  });

  test("nodeByUri finds posts, pages, category archives and author archives, full URL or path", async () => {
    const home = (await visitor(`{ site { home } }`)).site.home;
    const d = await visitor(`query($full: String!) {
      post: nodeByUri(uri: $full) { __typename id uri }
      page: nodeByUri(uri: "/sample-page/") { __typename uri }
      category: nodeByUri(uri: "/category/front-news/") { __typename ... on Category { databaseId } }
      plain: nodeByUri(uri: "/?p=${helloId}") { __typename }
      nothing: nodeByUri(uri: "/no-such-thing/") { __typename }
      elsewhere: nodeByUri(uri: "https://elsewhere.example/hello-world/") { __typename }
      malformed: nodeByUri(uri: "/%E0%A4%A/") { __typename }
    }`, { full: `${home}/hello-world/` });
    expect(d.post).toEqual({ __typename: "Post", id: b64(`post:${helloId}`), uri: "/hello-world/" });
    expect(d.page).toEqual({ __typename: "Page", uri: "/sample-page/" });
    expect(d.category).toEqual({ __typename: "Category", databaseId: categoryId });
    expect(d.plain.__typename).toBe("Post");
    expect(d.nothing).toBeNull();
    expect(d.elsewhere).toBeNull();
    expect(d.malformed).toBeNull();
    const author = await visitor(`{ post(id: "hello-world", idType: SLUG) { author { uri } } }`);
    const byAuthorUri = await visitor(`query($u: String!) { nodeByUri(uri: $u) { __typename } }`, { u: author.post.author.uri });
    expect(byAuthorUri.nodeByUri.__typename).toBe("User");
  });

  test("logins and email addresses find nobody for a visitor", async () => {
    const r = await s.graphql(`{ user(id: "admin", idType: USERNAME) { databaseId } }`);
    expect(r.data?.user).toBeNull();
    expect(r.errors?.[0].extensions?.code).toBe("rest_user_invalid_id");
    const admin = await data(`{ user(id: "admin", idType: USERNAME) { databaseId } }`);
    expect(admin.user.databaseId).toBeGreaterThan(0);
  });
});

describe("nullable roots", () => {
  test("the issue's query as a visitor: one refused root is null with its error, the others answer", async () => {
    const r = await s.graphql<Json>(`{ site { name } posts { totalCount } siteSettings { title } }`);
    expect(r.data).not.toBeNull();
    expect(r.data!.site.name).toEqual(expect.any(String));
    expect(r.data!.posts.totalCount).toBeGreaterThan(0);
    expect(r.data!.siteSettings).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0].extensions?.code).toBe("rest_forbidden");
  });
});

describe("menus by location", () => {
  test("a visitor reads the menu assigned to a location and its items, by LOCATION and by where.location", async () => {
    const d = await visitor(`{
      menu(id: "primary", idType: LOCATION) { databaseId name locations items { title { rendered raw } url } }
      menuItems(where: { location: "primary" }) { totalCount nodes { databaseId } }
      all: menuItems { nodes { databaseId } }
      menus { nodes { databaseId } }
    }`);
    expect(d.menu).toEqual({ databaseId: menuId, name: "Primary nav", locations: ["primary"], items: [{ title: { rendered: "Home", raw: null }, url: "https://example.test/" }] });
    expect(d.menuItems).toEqual({ totalCount: 1, nodes: [{ databaseId: itemId }] });
    // Without a location a visitor still sees only located menus and their items.
    expect(d.all.nodes).toEqual([{ databaseId: itemId }]);
    expect(d.menus.nodes).toEqual([{ databaseId: menuId }]);
  });

  test("a menu assigned to no location stays closed to visitors over GraphQL", async () => {
    const r = await s.graphql(`query($id: ID!) { menu(id: $id, idType: DATABASE_ID) { name } }`, { id: hiddenMenuId });
    expect(r.data?.menu).toBeNull();
    expect(r.errors?.[0].extensions).toMatchObject({ code: "rest_cannot_view", status: 401 });
    expect((await data(`query($id: ID!) { menu(id: $id, idType: DATABASE_ID) { name } }`, { id: hiddenMenuId })).menu.name).toBe("Unassigned");
  });

  test("REST keeps WordPress's rule: menus and menu items need edit_theme_options or edit_posts, located or not", async () => {
    for (const path of ["/menus", `/menus/${menuId}`, "/menu-items", `/menu-items/${itemId}`, `/menu-items?menus=${menuId}`]) {
      const r = await rest("GET", path, undefined, null);
      expect(r.status, path).toBe(401);
      expect(r.body.code, path).toBe("rest_cannot_view");
    }
    expect((await rest("GET", `/menus/${menuId}`)).body.locations).toEqual(["primary"]);
  });
});

describe("enums and DateTime", () => {
  test("statuses, formats and discussion settings are enums; GMT dates are DateTime; REST answers WordPress's spellings", async () => {
    const d = await visitor(`query($id: ID!) { post(id: $id, idType: DATABASE_ID) { status format commentStatus pingStatus date dateGmt modifiedGmt } }`, { id: helloId });
    expect(d.post).toMatchObject({ status: "PUBLISH", format: "STANDARD", commentStatus: "OPEN" });
    expect(d.post.dateGmt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(d.post.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const r = (await rest("GET", `/posts/${helloId}`, undefined, null)).body;
    expect(r).toMatchObject({ status: "publish", format: "standard", comment_status: "open" });
    expect(r.date_gmt).toBe(d.post.dateGmt.replace("+00:00", ""));
  });

  test("enum filters and inputs: a draft written as DRAFT is listed by status [DRAFT] and read back by REST as draft", async () => {
    const created = await data(`mutation { createPost(input: { title: "Enum draft", status: DRAFT, format: ASIDE, commentStatus: CLOSED }) { databaseId status format commentStatus } }`);
    expect(created.createPost).toMatchObject({ status: "DRAFT", format: "ASIDE", commentStatus: "CLOSED" });
    const listed = await data(`{ posts(where: { status: [DRAFT], format: [ASIDE] }) { nodes { databaseId } } }`);
    expect(listed.posts.nodes.map((n: Json) => n.databaseId)).toContain(created.createPost.databaseId);
    const r = (await rest("GET", `/posts/${created.createPost.databaseId}?context=edit`)).body;
    expect(r).toMatchObject({ status: "draft", format: "aside", comment_status: "closed" });
    // An auto-draft status's GraphQL spelling maps to WordPress's hyphen.
    expect((await rest("GET", `/posts?status=auto-draft`)).status).toBe(200);
  });

  test("the default discussion settings are DiscussionStatus in GraphQL and WordPress's strings over REST, both ways", async () => {
    const set = await data(`mutation { updateSiteSettings(input: { defaultPingStatus: CLOSED }) { defaultPingStatus defaultCommentStatus } }`);
    expect(set.updateSiteSettings).toEqual({ defaultPingStatus: "CLOSED", defaultCommentStatus: "OPEN" });
    expect((await rest("GET", "/settings")).body).toMatchObject({ default_ping_status: "closed", default_comment_status: "open" });
    const back = await rest("POST", "/settings", { default_ping_status: "open" });
    expect(back.body.default_ping_status).toBe("open");
    expect((await data(`{ siteSettings { defaultPingStatus } }`)).siteSettings.defaultPingStatus).toBe("OPEN");
    expect((await rest("POST", "/settings", { default_ping_status: "sometimes" })).body.code).toBe("rest_invalid_param");
  });
});

describe("Relay connections", () => {
  const q = `query($first: Int, $after: String, $last: Int, $before: String) {
    posts(where: { categories: { terms: [${"$CAT"}] } }, orderBy: DATE, order: ASC, first: $first, after: $after, last: $last, before: $before) {
      totalCount edges { cursor node { databaseId } } nodes { databaseId }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;
  const ids = (conn: Json) => conn.nodes.map((n: Json) => n.databaseId);

  test("first/after pages forwards and last/before backwards, edges match nodes, pageInfo tells what is left", async () => {
    const query = q.replace("$CAT", String(categoryId));
    const one = (await visitor(query, { first: 2 })).posts;
    expect(ids(one)).toEqual(postIds.slice(0, 2));
    expect(one.edges.map((e: Json) => e.node.databaseId)).toEqual(ids(one));
    expect(one.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: one.edges[0].cursor, endCursor: one.edges[1].cursor });
    const two = (await visitor(query, { first: 2, after: one.pageInfo.endCursor })).posts;
    expect(ids(two)).toEqual(postIds.slice(2, 4));
    const tail = (await visitor(query, { last: 2 })).posts;
    expect(ids(tail)).toEqual(postIds.slice(3, 5));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = (await visitor(query, { last: 2, before: tail.pageInfo.startCursor })).posts;
    expect(ids(before)).toEqual(postIds.slice(1, 3));
    expect(before.totalCount).toBe(5);
  });

  test("every list is a connection with edges and pageInfo", async () => {
    const d = await data(`query($parent: Int!) {
      posts(first: 1) { edges { cursor } pageInfo { endCursor } }
      pages(first: 1) { edges { cursor } pageInfo { endCursor } }
      mediaItems { edges { cursor } pageInfo { hasNextPage } }
      categories(first: 1) { edges { cursor node { databaseId } } pageInfo { endCursor } }
      tags { edges { cursor } pageInfo { hasNextPage } }
      users(first: 1) { edges { cursor node { databaseId } } pageInfo { endCursor } }
      menus(last: 1) { edges { cursor } pageInfo { hasPreviousPage } }
      menuItems(first: 1) { edges { cursor } pageInfo { endCursor } }
      postRevisions(parent: $parent) { edges { cursor } pageInfo { hasNextPage } }
    }`, { parent: helloId });
    for (const [name, conn] of Object.entries(d)) expect((conn as Json).pageInfo, name).toBeDefined();
    expect(d.posts.edges).toHaveLength(1);
    expect(d.users.edges).toHaveLength(1);
    expect(d.menus.pageInfo.hasPreviousPage).toBe(true);
  });

  test("mixing directions and out-of-bounds sizes are 400 rest_invalid_param naming the argument", async () => {
    const mixed = await s.graphql(`{ posts(first: 1, last: 1) { totalCount } }`);
    expect(mixed.errors?.[0].extensions).toMatchObject({ code: "rest_invalid_param", status: 400 });
    const big = await s.graphql(`{ posts(last: 101) { totalCount } }`);
    expect(big.errors?.[0].message).toBe("Invalid parameter(s): last");
  });
});
