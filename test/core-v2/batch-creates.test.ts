// batch/v1 writes consecutive post creates as one bulk write (createPosts), and their languages as
// another (setPostLanguages): every item must answer exactly what the same request sent on its own
// answers, refusals included, in order.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type TestSystem, type TestResponse } from "../helpers/system.ts";
import { createUserWithPassword } from "../helpers/users.ts";
import { createContentContext } from "../../subgraphs/content/context.ts";
import { createPosts } from "../../subgraphs/content/posts/posts.ts";
import type { Post } from "../../generated/prisma/client.ts";

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
      { title: "Other", status: "publish", categories: [category.body.id, 999999, 1, category.body.id], tags: [tag.body.id, category.body.id] },
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
    // Unknown ids and a term of another taxonomy are ignored, repeats linked once, the order kept.
    expect(answers[4].body).toMatchObject({ categories: [category.body.id, 1], tags: [tag.body.id] });

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

  test("bulk slugs skip what the site has: a taken title is suffixed, a repeated one skips suffixes already taken", async () => {
    for (const slug of ["bulk-taken", "bulk-twice-2", "bulk-solo-2"]) {
      expect((await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: slug, slug, status: "publish" } })).status).toBe(201);
    }
    const r = await s.graphql<{ createPosts: { slug: string }[] }>(
      `mutation($inputs: [PostInput!]!) { createPosts(inputs: $inputs) { slug } }`,
      { inputs: ["Bulk taken", "Bulk twice", "Bulk solo", "Bulk twice", "Bulk taken"].map((title) => ({ title, status: "PUBLISH" })) },
      { auth: "admin" },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.createPosts.map((p) => p.slug)).toEqual(["bulk-taken-2", "bulk-twice", "bulk-solo", "bulk-twice-3", "bulk-taken-3"]);
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
  test("bulk creates answer every column of each new post as the database then reads it", async () => {
    // Only the id, the meta and the columns left to their defaults are read back from the INSERT:
    // the rest of the answer is what was written, which must be exactly what was stored.
    const ctx = createContentContext(s.db, { site: { userId: 1, roles: ["administrator"] } }, s.config);
    const parent = (await createPosts(ctx, "page", [{ title: "Rows parent", status: "publish" }]))[0] as Post;
    const made = [
      ...await createPosts(ctx, "post", [
        { title: "Row one", status: "publish", meta: { footnotes: "[{\"id\":\"a\"}]" }, content: "<p>Ünïcode — \"quoted\" \\ text</p>\r\n" },
        { title: "Row two", status: "draft", sticky: true, format: "aside", excerpt: "An excerpt", date: "2031-05-06T07:08:09" },
        { title: "", status: "pending", password: "secret", commentStatus: "closed", template: "", featuredMedia: 0 },
      ]),
      ...await createPosts(ctx, "page", [{ title: "Row child", status: "publish", parent: parent.id, menuOrder: 4 }, { title: "Row top" }]),
    ];
    expect(made.filter((p) => p instanceof Error).map((e) => (e as Error).message)).toEqual([]);
    for (const post of made as Post[]) expect(post).toStrictEqual(await s.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } }));
  });

  // Last in the file: it gives the site languages, which every later create would take.
  test("25 creates with languages and translations answer and store what 25 single creates do", async () => {
    const admin = { auth: "admin" as const };
    for (const locale of ["en_US", "fr_FR", "de_DE"]) expect((await s.request("POST", `${R}/lang/v1/languages`, { ...admin, body: { locale } })).status).toBe(200);
    const existing = async (body: Record<string, unknown>) => (await s.request("POST", `${R}/core/v2/posts`, { ...admin, body: { status: "publish", ...body } })).body.id as number;
    const bodies: Record<string, unknown>[] = [
      { title: "Default language" },
      { title: "French", lang: "fr" },
      { title: "German draft", lang: "de", status: "draft" },
      { title: "Unknown language", lang: "xx" },
      { title: "French of A", lang: "fr", translations: { en: "A" } },
      // A's group now has a French post: a second one is refused (and its create undone).
      { title: "French of A again", lang: "fr", translations: { en: "A" } },
      { title: "Plain", lang: "en" },
      // The map is the whole group: A leaves "French of A" for this German one (which dissolves that group).
      { title: "German of A", lang: "de", translations: { en: "A" } },
      { title: "English of B", translations: { fr: "B" } },
      { title: "Missing translation dropped", lang: "en", translations: { fr: 999999 } },
      { title: "Wrong language dropped", lang: "de", translations: { fr: "C" } },
      ...Array.from({ length: 14 }, (_, i) => ({ title: `Filler ${i}`, ...(i % 3 ? { lang: ["en", "fr", "de"][i % 3] } : {}) })),
    ];
    expect(bodies).toHaveLength(25);

    /** The bodies with fresh posts named A, B, C (A in English, B in French, C in German), so each run meets the same site. */
    const run = async (send: (bodies: Record<string, unknown>[]) => Promise<{ status: number; body: Record<string, unknown> }[]>) => {
      const named: Record<string, number> = { A: await existing({ title: "A", lang: "en" }), B: await existing({ title: "B", lang: "fr" }), C: await existing({ title: "C", lang: "en" }) };
      const resolved = bodies.map((body) => (body.translations
        ? { ...body, translations: Object.fromEntries(Object.entries(body.translations).map(([l, id]) => [l, named[id as string] ?? id])) }
        : body));
      const answers = await send(resolved);
      const reads = await Promise.all(answers.map((a) => (a.status === 201 ? s.request("GET", `${R}/core/v2/posts/${a.body.id}`, admin) : null)));
      const groups = await Promise.all(Object.values(named).map(async (id) => (await s.request("GET", `${R}/core/v2/posts/${id}`, admin)).body.translations));
      /** Ids as names: the run's own posts by their place in the batch, A/B/C by name. */
      const names = new Map<unknown, string>([...Object.entries(named).map(([name, id]) => [id, name] as const), ...answers.map((a, i) => [a.body.id, `#${i}`] as const)]);
      const named_ = (translations: unknown) => translations && Object.fromEntries(Object.entries(translations).map(([l, id]) => [l, names.get(id) ?? id]));
      return {
        answers: answers.map((a) => (a.status >= 400
          ? { status: a.status, code: a.body.code }
          : { status: a.status, title: (a.body.title as { raw: string }).raw, lang: a.body.lang, translations: named_(a.body.translations) })),
        stored: reads.map((r) => r && { lang: r.body.lang, translations: named_(r.body.translations) }),
        groups: groups.map(named_),
      };
    };

    const singles = await run(async (list) => {
      const out = [];
      for (const body of list) out.push(await s.request("POST", `${R}/core/v2/posts`, { ...admin, body: { status: "publish", ...body } }));
      return out;
    });
    const batch = await run(async (list) => {
      const response = await s.request("POST", `${R}/batch/v1`, { ...admin, body: { requests: list.map((body) => ({ path: "/core/v2/posts", body: { status: "publish", ...body } })) } });
      expect(response.status).toBe(207);
      return response.body.responses;
    });
    expect(batch).toEqual(singles);
    // What the comparison covers, as a reader checks it.
    expect(singles.answers.filter((a) => a.status >= 400)).toEqual([
      { status: 400, code: "pll_invalid_language" }, { status: 400, code: "pll_translation_conflict" },
    ]);
    expect(singles.answers[4]).toMatchObject({ lang: "fr", translations: { en: "A", fr: "#4" } });
    expect(singles.stored[4]).toEqual({ lang: "fr", translations: { fr: "#4" } });
    expect(singles.answers[8]).toMatchObject({ lang: "en", translations: { en: "#8", fr: "B" } });
    expect(singles.groups).toEqual([{ en: "A", de: "#7" }, { en: "#8", fr: "B" }, { en: "C" }]);
  });
  test("pages with languages in one batch (setPageLanguages): what single creates answer", async () => {
    const english = await s.request("POST", `${R}/core/v2/pages`, { auth: "admin", body: { title: "About", status: "publish", lang: "en" } });
    const bodies = [
      { title: "À propos", status: "publish", lang: "fr", translations: { en: english.body.id } },
      { title: "Über uns", status: "publish", lang: "de", translations: { en: english.body.id } },
      { title: "Kontakt", status: "publish" },
      { title: "Nowhere", status: "publish", lang: "xx" },
    ];
    const shape = (answers: { status: number; body: Record<string, unknown> }[]) => answers.map((a, i) => (a.status >= 400
      ? [a.status, a.body.code]
      : [a.status, a.body.lang, Object.entries(a.body.translations as Record<string, number>).map(([l, id]) => [l, id === a.body.id ? `#${i}` : id])]));
    const singles = [];
    for (const body of bodies) singles.push(await s.request("POST", `${R}/core/v2/pages`, { auth: "admin", body }));
    const singleGroup = (await s.request("GET", `${R}/core/v2/pages/${english.body.id}`, { auth: "admin" })).body.translations;
    await s.request("POST", `${R}/core/v2/pages/${english.body.id}`, { auth: "admin", body: { translations: {} } });
    const batch = await s.request("POST", `${R}/batch/v1`, { auth: "admin", body: { requests: bodies.map((body) => ({ path: "/core/v2/pages", body })) } });
    expect(shape(batch.body.responses)).toEqual(shape(singles));
    expect(shape(singles)).toEqual([
      [201, "fr", [["en", english.body.id], ["fr", "#0"]]], [201, "de", [["en", english.body.id], ["de", "#1"]]], [201, "en", [["en", "#2"]]], [400, "pll_invalid_language"],
    ]);
    const batchGroup = (await s.request("GET", `${R}/core/v2/pages/${english.body.id}`, { auth: "admin" })).body.translations;
    expect(Object.keys(batchGroup)).toEqual(Object.keys(singleGroup));
    expect(batchGroup.de).toBe(batch.body.responses[1].body.id);
  });

  test("setPostLanguages: each input as setPostLanguage writes it, a refused one null with its own error, statements not per input", async () => {
    const ids = [];
    for (let i = 0; i < 24; i++) ids.push((await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: `Bulk language ${i}`, status: "publish" } })).body.id as number);
    const set = (inputs: unknown[]) => s.graphql<{ setPostLanguages: ({ databaseId: number; language: { slug: string }; translations: { databaseId: number }[] } | null)[] }>(
      `mutation($inputs: [ObjectLanguageInput!]!) { setPostLanguages(inputs: $inputs) { databaseId language { slug } translations { databaseId } } }`, { inputs }, { auth: "admin" });
    const r = await set([
      { databaseId: ids[0], language: "fr" },
      { databaseId: 999999, language: "fr" },
      { databaseId: ids[1], language: "xx" },
      { databaseId: ids[2], language: "en", translations: [{ language: "fr", databaseId: ids[0] }] },
    ]);
    // Each answer is the post as its own write left it (the first joins a group only with the last write).
    expect(r.data!.setPostLanguages.map((p) => p && [p.databaseId, p.language.slug, p.translations.map((t) => t.databaseId)])).toEqual([
      [ids[0], "fr", [ids[0]]], null, null, [ids[2], "en", [ids[2], ids[0]]],
    ]);
    expect(r.errors!.map((e) => [e.extensions?.code, (e as { path?: unknown[] }).path])).toEqual([
      ["rest_post_invalid_id", ["setPostLanguages", 1]], ["pll_invalid_language", ["setPostLanguages", 2]],
    ]);
    // Language-only writes are multi-row: 20 inputs cost the statements 2 inputs cost.
    const statements = async (inputs: unknown[]) => {
      const before = s.db.statements();
      expect((await set(inputs)).errors).toBeUndefined();
      return s.db.statements() - before;
    };
    const two = await statements(ids.slice(4, 6).map((databaseId) => ({ databaseId, language: "de" })));
    expect(await statements(ids.slice(4, 24).map((databaseId) => ({ databaseId, language: "fr" })))).toBe(two);
  });
});
