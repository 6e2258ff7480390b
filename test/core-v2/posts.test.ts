// core/v2/posts over real HTTP, checked against what WordPress answers.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json";
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

const create = async (body: Record<string, unknown>) => {
  const r = await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body });
  expect(r.status).toBe(201);
  return r.body as { id: number; [k: string]: unknown };
};

describe("a fresh site", () => {
  test("lists the hello-world post with WordPress's fields, headers and links", async () => {
    const r = await s.request("GET", `${R}/core/v2/posts?slug=hello-world`);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-wp-total")).toBe("1");
    expect(r.headers.get("x-wp-totalpages")).toBe("1");
    expect(r.headers.get("allow")).toBe("GET");
    expect(r.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    const [post] = r.body;
    expect(Object.keys(post)).toEqual(["id", "date", "date_gmt", "guid", "modified", "modified_gmt", "slug", "status", "type", "link",
      "title", "content", "excerpt", "author", "featured_media", "comment_status", "ping_status", "sticky", "template", "format", "meta",
      "categories", "tags", "_links"]);
    expect(post.title).toEqual({ rendered: "Hello world!" });
    expect(post.content.rendered).toContain("<p>Welcome to WordPress.");
    expect(post.categories).toEqual([1]);
    expect(post._links.author[0]).toEqual({ embeddable: true, href: "http://example.test/wp-json/core/v2/users/1" });
  });

  test("answers the index with namespaces, authentication and routes derived from the table", async () => {
    const r = await s.request("GET", `${R}/`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["name", "description", "url", "home", "gmt_offset", "timezone_string", "namespaces", "authentication", "routes", "site_logo", "site_icon", "site_icon_url", "_links"]);
    // Every namespace of seed 000 §1.2, in the seed's order (batch/v1 is a root route, as in WordPress).
    expect(r.body.namespaces).toEqual([
      "forms-admin/v1", "oembed/1.0", "consent/v1", "consent-feedback/v1", "downloads", "forms-submissions",
      "forms-views", "redirection/v1", "seo/v1", "lang/v1", "forms/v2", "core/v2", "site-health/v1", "block-editor/v1",
    ]);
    expect(r.body.authentication.oauth2.token).toBe("http://example.test/oauth/token");
    expect(r.body.authentication["application-passwords"].endpoints.authorization).toBe("http://example.test/wp-admin/authorize-application.php");
    const item = r.body.routes["/core/v2/posts/(?P<id>[\\d]+)"];
    expect(item.methods).toEqual(["GET", "POST", "PUT", "PATCH", "DELETE"]);
    expect(item.endpoints[0].allow_batch).toEqual({ v1: true });
    expect(item.endpoints[0].args.context).toEqual({
      description: "Scope under which the request is made; determines fields present in response.",
      type: "string", enum: ["view", "embed", "edit"], default: "view", required: false,
    });
    expect(r.body.routes["/core/v2/posts"]._links.self[0].href).toBe("http://example.test/wp-json/core/v2/posts");
    expect(r.body.routes["/batch/v1"].endpoints[0].args.requests.maxItems).toBe(25);
    const ns = await s.request("GET", "/?rest_route=/core/v2");
    expect(ns.body.namespace).toBe("core/v2");
    expect(Object.keys(ns.body.routes)).toContain("/core/v2/posts/(?P<parent>[\\d]+)/revisions");
    const unknown = await s.request("GET", `${R}/core/v2?namespace=nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("rest_invalid_namespace");
  });
});

describe("errors in WordPress's shape", () => {
  test("unknown route and wrong method are rest_no_route 404", async () => {
    for (const [method, path] of [["GET", "/core/v2/nothing"], ["PATCH", "/core/v2/posts"]]) {
      const r = await s.request(method, R + path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: "rest_no_route", message: "No route was found matching the URL and request method.", data: { status: 404 } });
    }
  });

  test("bad query arguments are rest_invalid_param with params and details", async () => {
    const r = await s.request("GET", `${R}/core/v2/posts?per_page=500&order=sideways`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("rest_invalid_param");
    expect(r.body.data.params.per_page).toBe("per_page must be between 1 (inclusive) and 100 (inclusive)");
    expect(r.body.data.details.per_page.code).toBe("rest_out_of_bounds");
  });

  test("an anonymous draft listing is refused as a forbidden status, wrapped in rest_invalid_param", async () => {
    const r = await s.request("GET", `${R}/core/v2/posts?status=draft`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("rest_invalid_param");
    expect(r.body.data.params.status).toBe("Status is forbidden.");
    expect(r.body.data.details.status).toEqual({ code: "rest_forbidden_status", message: "Status is forbidden.", data: { status: 401 } });
  });

  test("missing post, bad JSON, anonymous create, bad credentials", async () => {
    const missing = await s.request("GET", `${R}/core/v2/posts/9999`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("rest_post_invalid_id");
    const json = await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", raw: "{bad", headers: { "content-type": "application/json" } });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe("rest_invalid_json");
    const anon = await s.request("POST", `${R}/core/v2/posts`, { body: { title: "x" } });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe("rest_cannot_create");
    // A wrong application password leaves the caller anonymous, as the recorded WordPress does.
    const wrong = { username: "admin", password: "aaaa bbbb cccc dddd eeee ffff" };
    const read = await s.request("GET", `${R}/core/v2/posts/1`, { auth: wrong });
    expect(read.status).toBe(200);
    expect(read.headers.get("allow")).toBe("GET");
    const write = await s.request("POST", `${R}/core/v2/posts`, { auth: wrong, body: { title: "x" } });
    expect(write.status).toBe(401);
    expect(write.body.code).toBe("rest_cannot_create");
  });

  test("a page past the last is rest_post_invalid_page_number", async () => {
    const r = await s.request("GET", `${R}/core/v2/posts?page=50`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("rest_post_invalid_page_number");
  });
});

describe("writing posts", () => {
  test("create → 201 with Location, edit context; status bogus is rejected before anything is written", async () => {
    const before = (await s.request("GET", `${R}/core/v2/posts?status=any&per_page=100`, { auth: "admin" })).body.length;
    const bogus = await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: "x", status: "bogus" } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.data.params.status).toBe("status is not one of publish, future, draft, pending, private, negated, wpca_except, and wpca_or.");
    const r = await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: "Created", content: "Body text", status: "publish", categories: "1" } });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`http://example.test/wp-json/core/v2/posts/${r.body.id}`);
    expect(r.body.title).toEqual({ raw: "Created", rendered: "Created" });
    expect(r.body.slug).toBe("created");
    expect(r.body.content.block_version).toBe(0);
    const after = (await s.request("GET", `${R}/core/v2/posts?status=any&per_page=100`, { auth: "admin" })).body.length;
    expect(after).toBe(before + 1);
  });

  test("update with PUT, _method override, trash then 410, force delete", async () => {
    const post = await create({ title: "To trash", status: "publish" });
    const put = await s.request("PUT", `${R}/core/v2/posts/${post.id}`, { auth: "admin", body: { title: "Renamed" } });
    expect(put.status).toBe(200);
    expect(put.body.title.raw).toBe("Renamed");
    const trash = await s.request("POST", `${R}/core/v2/posts/${post.id}?_method=DELETE`, { auth: "admin" });
    expect(trash.status).toBe(200);
    expect(trash.body.status).toBe("trash");
    expect(trash.body.slug).toBe("to-trash__trashed");
    const again = await s.request("DELETE", `${R}/core/v2/posts/${post.id}`, { auth: "admin" });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe("rest_already_trashed");
    const force = await s.request("DELETE", `${R}/core/v2/posts/${post.id}?force=true`, { auth: "admin" });
    expect(force.status).toBe(200);
    expect(force.body.deleted).toBe(true);
    expect(force.body.previous.title.raw).toBe("Renamed");
    expect(force.body.previous._links).toBeUndefined();
    expect((await s.request("GET", `${R}/core/v2/posts/${post.id}`, { auth: "admin" })).status).toBe(404);
  });

  test("password-protected content is hidden until the password is given; a wrong one is 403", async () => {
    const post = await create({ title: "Secret", content: "Hidden words", status: "publish", password: "pw" });
    const plain = await s.request("GET", `${R}/core/v2/posts/${post.id}`);
    expect(plain.body.content).toEqual({ rendered: "", protected: true });
    const right = await s.request("GET", `${R}/core/v2/posts/${post.id}?password=pw`);
    expect(right.body.content.rendered).toContain("Hidden words");
    const wrong = await s.request("GET", `${R}/core/v2/posts/${post.id}?password=nope`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe("rest_post_incorrect_password");
  });

  test("_fields, _envelope and _embed", async () => {
    const fields = await s.request("GET", `${R}/core/v2/posts/1?_fields=id,title.rendered`);
    expect(fields.body).toEqual({ id: 1, title: { rendered: "Hello world!" } });
    const env = await s.request("GET", `${R}/core/v2/posts/9999?_envelope`);
    expect(env.status).toBe(200);
    expect(env.body.status).toBe(404);
    expect(env.body.body.code).toBe("rest_post_invalid_id");
    const embed = await s.request("GET", `${R}/core/v2/posts/1?_embed`);
    expect(embed.body._embedded.author[0].name).toBe("admin");
    expect(embed.body._embedded["wp:term"][0][0].name).toBe("Uncategorized");
  });
});

describe("revisions and autosaves", () => {
  test("create makes no revision; each content change does; an unchanged save does not", async () => {
    const post = await create({ title: "Rev", content: "one", status: "publish" });
    const list = async () => s.request("GET", `${R}/core/v2/posts/${post.id}/revisions`, { auth: "admin" });
    expect((await list()).body).toEqual([]);
    await s.request("POST", `${R}/core/v2/posts/${post.id}`, { auth: "admin", body: { content: "two" } });
    await s.request("POST", `${R}/core/v2/posts/${post.id}`, { auth: "admin", body: { status: "publish" } });
    await s.request("POST", `${R}/core/v2/posts/${post.id}`, { auth: "admin", body: { content: "three" } });
    const revisions = await list();
    expect(revisions.body.map((r: { content: { rendered: string } }) => r.content.rendered)).toEqual(["<p>three</p>\n", "<p>two</p>\n"]);
    expect(revisions.headers.get("x-wp-total")).toBe("2");
    expect(revisions.body[0].slug).toBe(`${post.id}-revision-v1`);
    const anon = await s.request("GET", `${R}/core/v2/posts/${post.id}/revisions`);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe("rest_cannot_read");
    // As in WordPress, nobody may delete a revision (delete_post on a revision is do_not_allow).
    const id = revisions.body[1].id;
    for (const query of ["", "?force=true"]) {
      const refused = await s.request("DELETE", `${R}/core/v2/posts/${post.id}/revisions/${id}${query}`, { auth: "admin" });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this revision.", data: { status: 403 } });
      expect(refused.headers.get("allow")).toBe("GET");
    }
    expect((await list()).body).toHaveLength(2);
  });

  test("an author's draft autosave updates the draft; a published post gets an autosave revision", async () => {
    const draft = await create({ title: "Draft", content: "v1", status: "draft" });
    const onDraft = await s.request("POST", `${R}/core/v2/posts/${draft.id}/autosaves`, { auth: "admin", body: { content: "v2" } });
    expect(onDraft.body).toMatchObject({ id: draft.id });
    expect(onDraft.status).toBe(200);
    expect(onDraft.body.id).toBe(draft.id);
    expect(onDraft.body.parent).toBe(0);
    expect((await s.request("GET", `${R}/core/v2/posts/${draft.id}?context=edit`, { auth: "admin" })).body.content.raw).toBe("v2");
    expect((await s.request("GET", `${R}/core/v2/posts/${draft.id}/revisions`, { auth: "admin" })).body).toEqual([]);

    const published = await create({ title: "Live", content: "live", status: "publish" });
    const auto = await s.request("POST", `${R}/core/v2/posts/${published.id}/autosaves`, { auth: "admin", body: { title: "Live", content: "edited" } });
    expect(auto.body.parent).toBe(published.id);
    expect(auto.body.slug).toBe(`${published.id}-autosave-v1`);
    expect((await s.request("GET", `${R}/core/v2/posts/${published.id}`)).body.content.rendered).toContain("live");
    const autosaves = await s.request("GET", `${R}/core/v2/posts/${published.id}/autosaves`, { auth: "admin" });
    expect(autosaves.body.map((a: { id: number }) => a.id)).toEqual([auto.body.id]);
    const latest = await s.request("GET", `${R}/core/v2/posts/${published.id}/autosaves/12345`, { auth: "admin" });
    expect(latest.body.id).toBe(auto.body.id);
  });
});

describe("batch/v1", () => {
  test("runs sub-requests in order and answers 207 with each result", async () => {
    const r = await s.request("POST", `${R}/batch/v1`, {
      auth: "admin",
      body: { requests: [
        { path: "/core/v2/posts", body: { title: "Batch one", status: "publish" } },
        { method: "PUT", path: "/core/v2/posts/99999", body: { title: "nope" } },
        { path: "/core/v2/posts/1/revisions" },
      ] },
    });
    expect(r.status).toBe(207);
    const [one, two, three] = r.body.responses;
    expect(one.status).toBe(201);
    expect(one.body.title.raw).toBe("Batch one");
    expect(one.headers.Location).toMatch(/\/core\/v2\/posts\/\d+$/);
    expect(two).toMatchObject({ status: 404, body: { code: "rest_post_invalid_id" } });
    expect(three.status).toBe(404);
    expect(three.body.code).toBe("rest_no_route");
  });

  test("require-all-validate executes nothing when one item is invalid", async () => {
    const before = (await s.request("GET", `${R}/core/v2/posts?per_page=100`)).body.length;
    const r = await s.request("POST", `${R}/batch/v1`, {
      auth: "admin",
      body: { validation: "require-all-validate", requests: [
        { path: "/core/v2/posts", body: { title: "Should not exist", status: "publish" } },
        { path: "/core/v2/posts", body: { title: "Bad", status: "bogus" } },
      ] },
    });
    expect(r.status).toBe(207);
    expect(r.body.failed).toBe("validation");
    expect(r.body.responses[0]).toBeNull();
    expect(r.body.responses[1].status).toBe(400);
    expect((await s.request("GET", `${R}/core/v2/posts?per_page=100`)).body.length).toBe(before);
  });

  test("more than 25 requests is rejected", async () => {
    const requests = Array.from({ length: 26 }, () => ({ path: "/core/v2/posts", body: { title: "x" } }));
    const r = await s.request("POST", `${R}/batch/v1`, { auth: "admin", body: { requests } });
    expect(r.status).toBe(400);
    expect(r.body.data.params.requests).toBe("requests must contain at most 25 items.");
  });
});

describe("GraphQL", () => {
  test("nested post fields resolve and SQL statements do not grow with the list", async () => {
    const tag = await s.request("POST", `${R}/core/v2/tags`, { auth: "admin", body: { name: "alpha" } });
    expect(tag.status).toBe(201);
    const requests = Array.from({ length: 25 }, (_, i) => ({ path: "/core/v2/posts", body: { title: `Bulk ${i}`, status: "publish", tags: [tag.body.id] } }));
    for (let i = 0; i < 4; i++) expect((await s.request("POST", `${R}/batch/v1`, { auth: "admin", body: { requests } })).status).toBe(207);
    const query = `query($n: Int) { posts(perPage: $n) { totalCount nodes { id title { rendered } author { name } categories { name } tags { name } } } }`;
    const count = async (n: number) => {
      const before = s.db.statements();
      const r = await s.graphql<{ posts: { nodes: { tags: { name: string }[] }[] } }>(query, { n });
      expect(r.errors).toBeUndefined();
      expect(r.data!.posts.nodes).toHaveLength(n);
      return s.db.statements() - before;
    };
    await count(10); // after the writes above, the first read reads the site options again (kept until a write)
    const ten = await count(10);
    const hundred = await count(100);
    expect(hundred).toBe(ten);

    // REST `_embed` fetches every linked author and term list in one GraphQL document, too.
    const embedded = async (n: number) => {
      const before = s.db.statements();
      const r = await s.request("GET", `${R}/core/v2/posts?per_page=${n}&_embed`);
      expect(r.body).toHaveLength(n);
      expect(r.body[0]._embedded["wp:term"][1][0].name).toBe("alpha");
      return s.db.statements() - before;
    };
    expect(await embedded(100)).toBe(await embedded(10));
    const r = await s.graphql<{ posts: { nodes: { tags: { name: string }[] }[] } }>(query, { n: 1 });
    expect(r.data!.posts.nodes[0].tags).toEqual([{ name: "alpha" }]);
  });

  test("cursor pagination with first/after", async () => {
    const page = async (after?: string) => (await s.graphql<{ posts: { nodes: { id: string }[]; pageInfo: { endCursor: string; hasNextPage: boolean } } }>(
      `query($after: String) { posts(first: 2, after: $after) { nodes { id } pageInfo { endCursor hasNextPage } } }`, { after })).data!.posts;
    const first = await page();
    const second = await page(first.pageInfo.endCursor);
    expect(first.nodes).toHaveLength(2);
    expect(second.nodes[0].id).not.toBe(first.nodes[1].id);
    expect(first.pageInfo.hasNextPage).toBe(true);
  });

  test("the credential check is not part of the public graph", async () => {
    const r = await s.graphql(`{ authenticateApplicationPassword(username: "admin", password: "x") { userId } }`);
    expect(r.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});
