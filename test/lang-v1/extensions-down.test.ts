// REST reads of core/v2 posts, pages, categories and tags select Polylang's registered fields
// (`lang`, `translations`) from the extensions subgraph in the same GraphQL request. When that
// subgraph is down, the reads still answer, without those fields (as WordPress without Polylang
// answers), instead of failing; writes that need the subgraph still fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let system: TestSystem;
let postId: number;

beforeAll(async () => {
  system = await startTestSystem();
  const language = await system.request("POST", "/wp-json/lang/v1/languages", { auth: "admin", body: { locale: "en_US" } });
  expect(language.status).toBeLessThan(300);
  const post = await system.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: "Hello", status: "publish", lang: "en" } });
  expect(post.status).toBe(201);
  postId = post.body.id;
});
afterAll(async () => { await system?.stop(); });

describe("the extensions subgraph down", () => {
  it("GET posts, a post, pages and categories still answer, without lang and translations", async () => {
    const before = await system.request("GET", "/wp-json/core/v2/posts");
    expect(before.status).toBe(200);
    expect(before.body[0]).toMatchObject({ id: postId, lang: "en" });

    await system.subgraphs.find((s) => s.name === "extensions")!.stop();

    const list = await system.request("GET", "/wp-json/core/v2/posts");
    expect(list.status).toBe(200);
    expect(list.headers.get("x-wp-total")).toBe(before.headers.get("x-wp-total"));
    expect(list.body.map((p: { id: number }) => p.id)).toEqual(before.body.map((p: { id: number }) => p.id));
    const { lang: _lang, translations: _translations, ...rest } = before.body[0];
    expect(list.body[0]).toEqual(rest);
    expect(list.body[0]).not.toHaveProperty("lang");
    expect(list.body[0]).not.toHaveProperty("translations");

    const one = await system.request("GET", `/wp-json/core/v2/posts/${postId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: postId, title: { rendered: "Hello" } });
    expect(one.body).not.toHaveProperty("lang");

    const edit = await system.request("GET", `/wp-json/core/v2/posts/${postId}?context=edit`, { auth: "admin" });
    expect(edit.status).toBe(200);
    expect(edit.body).not.toHaveProperty("translations");

    for (const path of ["/wp-json/core/v2/pages", "/wp-json/core/v2/categories", "/wp-json/core/v2/tags"]) {
      const response = await system.request("GET", path);
      expect(response.status, path).toBe(200);
      expect(Array.isArray(response.body), path).toBe(true);
    }
    const categories = await system.request("GET", "/wp-json/core/v2/categories");
    expect(categories.body.length).toBeGreaterThan(0);
    expect(categories.body[0]).not.toHaveProperty("lang");

    // Embedded term lists (read together, their registered fields loaded in bulk) degrade too.
    const embedded = await system.request("GET", `/wp-json/core/v2/posts/${postId}?_embed=wp:term`);
    expect(embedded.status).toBe(200);
    expect(embedded.body._embedded["wp:term"][0][0]).toMatchObject({ id: 1, taxonomy: "category" });
    expect(embedded.body._embedded["wp:term"][0][0]).not.toHaveProperty("lang");

    // A write of the registered field needs the subgraph: it fails rather than pretending.
    const write = await system.request("POST", `/wp-json/core/v2/posts/${postId}`, { auth: "admin", body: { lang: "en" } });
    expect(write.status).toBeGreaterThanOrEqual(500);
  });
});
