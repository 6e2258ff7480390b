// core/v2/pages: the post-type routes with page attributes (parent, menu_order), L-page filters.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const P = "/wp-json/core/v2/pages";
let about: number;
let team: number;
beforeAll(async () => {
  s = await startTestSystem();
  about = (await s.request("POST", P, { auth: "admin", body: { title: "About", status: "publish", menu_order: 2 } })).body.id;
  team = (await s.request("POST", P, { auth: "admin", body: { title: "Team", status: "publish", parent: about, menu_order: 1 } })).body.id;
});
afterAll(async () => { await s?.stop(); });

describe("pages", () => {
  test("list published pages with page fields and links (no terms, sticky or format)", async () => {
    const r = await s.request("GET", P);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-wp-total")).toBe("3");
    expect(r.body.map((p: { slug: string }) => p.slug).sort()).toEqual(["about", "sample-page", "team"]);
    const child = r.body.find((p: { id: number }) => p.id === team);
    expect(Object.keys(child)).toEqual(["id", "date", "date_gmt", "guid", "modified", "modified_gmt", "slug", "status", "type", "link",
      "title", "content", "excerpt", "author", "featured_media", "parent", "menu_order", "comment_status", "ping_status", "template", "meta", "_links"]);
    expect(child.type).toBe("page");
    expect(child.parent).toBe(about);
    expect(Object.keys(child._links)).toEqual(["self", "collection", "about", "author", "replies", "version-history", "up", "wp:attachment", "curies"]);
    expect(child._links.up[0]).toEqual({ embeddable: true, href: `http://example.test/wp-json/core/v2/pages/${about}` });
  });

  test("parent, parent_exclude, menu_order filters and orderby menu_order", async () => {
    const top = await s.request("GET", `${P}?parent=0`);
    expect(top.body.map((p: { id: number }) => p.id)).not.toContain(team);
    expect(top.headers.get("x-wp-total")).toBe("2");
    const children = await s.request("GET", `${P}?parent_exclude=0`);
    expect(children.body.map((p: { id: number }) => p.id)).toEqual([team]);
    const second = await s.request("GET", `${P}?menu_order=2`);
    expect(second.body.map((p: { id: number }) => p.id)).toEqual([about]);
    const ordered = await s.request("GET", `${P}?orderby=menu_order&order=asc`);
    expect(ordered.body.map((p: { menu_order: number }) => p.menu_order)).toEqual([0, 1, 2]);
    const postOnly = await s.request("GET", `${P}?sticky=true`);
    expect(postOnly.status).toBe(200);
  });

  test("a parent that does not exist is refused with 400, and nothing is created", async () => {
    const before = (await s.request("GET", `${P}?status=any`, { auth: "admin" })).body.length;
    const r = await s.request("POST", P, { auth: "admin", body: { title: "Orphan", parent: 99999 } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: "rest_post_invalid_id", message: "Invalid post parent ID.", data: { status: 400 } });
    expect((await s.request("GET", `${P}?status=any`, { auth: "admin" })).body.length).toBe(before);
  });

  test("a page id is not a post, and the draft privacy policy is hidden from anonymous callers", async () => {
    expect((await s.request("GET", `/wp-json/core/v2/posts/${about}`)).status).toBe(404);
    const drafts = await s.request("GET", `${P}?status=draft`, { auth: "admin" });
    expect(drafts.body.map((p: { slug: string }) => p.slug)).toEqual(["privacy-policy"]);
    const anon = await s.request("GET", `${P}/${drafts.body[0].id}`);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe("rest_forbidden");
  });

  test("revisions and autosaves work for pages as for posts", async () => {
    await s.request("PATCH", `${P}/${about}`, { auth: "admin", body: { content: "About us" } });
    const revisions = await s.request("GET", `${P}/${about}/revisions`, { auth: "admin" });
    expect(revisions.body).toHaveLength(1);
    expect(revisions.body[0]._links.parent[0].href).toBe(`http://example.test/wp-json/core/v2/pages/${about}`);
    const auto = await s.request("POST", `${P}/${about}/autosaves`, { auth: "admin", body: { content: "Draft words" } });
    expect(auto.status).toBe(200);
    expect(auto.body.slug).toBe(`${about}-autosave-v1`);
  });

  test("GraphQL: nested parent pages resolve, and the batch route accepts pages", async () => {
    const r = await s.graphql<{ pages: { nodes: { title: { rendered: string }; parent: { title: { rendered: string } } | null }[] } }>(
      `{ pages(orderBy: MENU_ORDER, order: ASC) { nodes { title { rendered } parent { title { rendered } } } } }`);
    expect(r.data!.pages.nodes.find((n) => n.title.rendered === "Team")!.parent!.title.rendered).toBe("About");
    const batch = await s.request("POST", "/wp-json/batch/v1", { auth: "admin", body: { requests: [
      { path: "/core/v2/pages", body: { title: "B1", status: "publish" } },
      { path: `/core/v2/pages/${about}`, method: "PATCH", body: { menu_order: 5 } },
    ] } });
    expect(batch.body.responses.map((x: { status: number }) => x.status)).toEqual([201, 200]);
    expect(batch.body.responses[1].body.menu_order).toBe(5);
  });
});
