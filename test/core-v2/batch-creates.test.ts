// batch/v1 writes consecutive post creates as one bulk write (createPosts): every item must answer
// exactly what the same request sent on its own answers, refusals included, in order.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type TestSystem, type TestResponse } from "../helpers/system.ts";
import { createUserWithPassword } from "../helpers/users.ts";

let s: TestSystem;
const R = "/wp-json";
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

/** A response with what necessarily differs between two runs (ids, the time of writing) taken out. */
function comparable(status: number, body: Record<string, unknown>, sent: Record<string, unknown>) {
  if (status >= 400) return { status, body };
  const id = body.id as number;
  const { id: _id, guid: _guid, link, modified: _m, modified_gmt: _mg, date, date_gmt, _links, ...rest } = body;
  const text = JSON.stringify({ link, _links }).replaceAll(new RegExp(`([/=])${id}\\b`, "g"), "$1ID");
  // Dates are compared when they were sent; otherwise they are "now", which moves between the runs.
  return { status, ...rest, ...(sent.date || sent.date_gmt ? { date, date_gmt } : {}), idLinks: JSON.parse(text) };
}

describe("batch/v1 creates as one write", () => {
  test("25 creates in one batch answer what 25 single creates answer, refusals in place", async () => {
    const author = await createUserWithPassword(s, "batch-author", ["author"]);
    const tag = await s.request("POST", `${R}/core/v2/tags`, { auth: "admin", body: { name: "batched" } });
    const category = await s.request("POST", `${R}/core/v2/categories`, { auth: "admin", body: { name: "Bulk" } });
    const bodies: Record<string, unknown>[] = [
      { title: "Same title", status: "publish" },
      { title: "Same title", status: "publish" },
      { title: "Same title", status: "draft" },
      { title: "Same title", status: "publish", slug: "same-title" },
      { title: "Other", status: "publish", categories: [category.body.id, 999999], tags: [tag.body.id, category.body.id] },
      { title: "Sticky", status: "publish", sticky: true, format: "aside" },
      { title: "Locked", status: "publish", password: "secret" },
      { title: "Sticky and locked", status: "publish", sticky: true, password: "secret" },
      { title: "Later", status: "publish", date: "2099-01-02T03:04:05" },
      { title: "Past", status: "future", date_gmt: "2001-02-03T04:05:06" },
      { title: "Bad date", status: "publish", date: "not a date" },
      { title: "By another", status: "publish", author: author.id },
      { title: "By nobody", status: "publish", author: 999999 },
      { title: "", status: "draft", content: "<p>Only content</p>", excerpt: "An excerpt" },
      { title: "Private", status: "private", comment_status: "closed", ping_status: "closed" },
      { title: "Pending", status: "pending", meta: { footnotes: "[]" } },
      { title: "Quote", status: "publish", format: "quote", template: "" },
      { title: "Featured", status: "publish", featured_media: 1 },
      { title: "No category", status: "publish", categories: [] },
      ...Array.from({ length: 6 }, (_, i) => ({ title: `Filler ${i}`, status: i % 2 ? "publish" : "draft", tags: [tag.body.id] })),
    ];
    expect(bodies).toHaveLength(25);

    const singles: TestResponse[] = [];
    for (const body of bodies) singles.push(await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body }));
    // Free the slugs again, so the batch meets the site the singles met.
    for (const r of singles) if (r.status === 201) await s.request("DELETE", `${R}/core/v2/posts/${r.body.id}?force=true`, { auth: "admin" });

    const batch = await s.request("POST", `${R}/batch/v1`, { auth: "admin", body: { requests: bodies.map((body) => ({ path: "/core/v2/posts", body })) } });
    expect(batch.status).toBe(207);
    const answers = batch.body.responses as { status: number; body: Record<string, unknown> }[];
    expect(answers.map((a) => a.status)).toEqual(singles.map((r) => r.status));
    expect(answers.map((a) => a.status).filter((st) => st >= 400)).toEqual([400, 400, 400]);
    answers.forEach((a, i) => expect(comparable(a.status, a.body, bodies[i])).toEqual(comparable(singles[i].status, singles[i].body, bodies[i])));
    expect(answers.slice(0, 4).map((a) => a.body.slug)).toEqual(["same-title", "same-title-2", "", "same-title-3"]);

    // What was stored reads back as the batch answered it.
    const created = answers.filter((a) => a.status === 201).map((a) => a.body);
    expect(new Set(created.map((p) => p.id)).size).toBe(created.length);
    for (const post of created) {
      const read = await s.request("GET", `${R}/core/v2/posts/${post.id}?context=edit`, { auth: "admin" });
      expect({ ...read.body, _links: undefined }).toEqual({ ...post, _links: undefined });
    }
  });

  test("a batch's creates in the GraphQL bulk form: a refused input is null with its own error, the others are written", async () => {
    const r = await s.graphql<{ createPosts: ({ databaseId: number; slug: string; categoryIds: number[] } | null)[] }>(
      `mutation($inputs: [PostInput!]!) { createPosts(inputs: $inputs) { databaseId slug categoryIds } }`,
      { inputs: [{ title: "Bulk one", status: "PUBLISH" }, { title: "Bulk two", author: 999999 }, { title: "Bulk one", status: "PUBLISH" }] },
      { auth: "admin" },
    );
    expect(r.data!.createPosts.map((p) => p?.slug ?? null)).toEqual(["bulk-one", null, "bulk-one-2"]);
    expect(r.data!.createPosts[0]!.categoryIds).toEqual([1]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0].extensions).toMatchObject({ code: "rest_invalid_author", status: 400 });
    expect((r.errors![0] as { path?: unknown[] }).path).toEqual(["createPosts", 1]);
  });

  test("a contributor's batch: each item is checked with the contributor's rights", async () => {
    const contributor = await createUserWithPassword(s, "batch-contributor", ["contributor"]);
    const batch = await s.request("POST", `${R}/batch/v1`, { auth: contributor.auth, body: { requests: [
      { path: "/core/v2/posts", body: { title: "Draft by contributor" } },
      { path: "/core/v2/posts", body: { title: "Published by contributor", status: "publish" } },
      { path: "/core/v2/posts", body: { title: "Pending by contributor", status: "pending" } },
    ] } });
    expect(batch.body.responses.map((a: { status: number }) => a.status)).toEqual([201, 403, 201]);
    expect(batch.body.responses[1].body.code).toBe("rest_cannot_publish");
    expect(batch.body.responses[2].body.author).toBe(contributor.id);
  });

  test("pages in one batch: parents and menu order as single creates give them", async () => {
    const parent = await s.request("POST", `${R}/core/v2/pages`, { auth: "admin", body: { title: "Parent page", status: "publish" } });
    const batch = await s.request("POST", `${R}/batch/v1`, { auth: "admin", body: { requests: [
      { path: "/core/v2/pages", body: { title: "Child", status: "publish", parent: parent.body.id, menu_order: 3 } },
      { path: "/core/v2/pages", body: { title: "Orphan", status: "publish", parent: 999999 } },
      { path: "/core/v2/pages", body: { title: "Child", status: "publish", parent: parent.body.id } },
    ] } });
    const [child, orphan, second] = batch.body.responses;
    expect([child.status, orphan.status, second.status]).toEqual([201, 400, 201]);
    expect(child.body).toMatchObject({ parent: parent.body.id, menu_order: 3, link: `${parent.body.link}child/`, comment_status: "closed" });
    expect(second.body.slug).toBe("child-2");
  });
});
