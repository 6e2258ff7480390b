// A list filtered by one term (?categories=3, posts(where: { categories: { terms: [3] } })) reads
// its total from the counts the database keeps per term, type and status (PostTermCount, kept by
// triggers: migration post_term_counts). After every kind of write the kept counts must equal a
// count of the rows, and the totals the counts of the posts themselves.
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json";
const admin = { auth: "admin" as const };
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

async function createTerm(taxonomy: "categories" | "tags", name: string): Promise<number> {
  const r = await s.request("POST", `${R}/core/v2/${taxonomy}`, { ...admin, body: { name } });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function createPost(body: Record<string, unknown>): Promise<number> {
  const r = await s.request("POST", `${R}/core/v2/posts`, { ...admin, body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function updatePost(id: number, body: Record<string, unknown>): Promise<void> {
  const r = await s.request("POST", `${R}/core/v2/posts/${id}`, { ...admin, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const sql = <T = unknown>(query: string, ...values: unknown[]) => s.db.prisma.$queryRawUnsafe<T[]>(query, ...values);

/** Posts of the type in the term (of the taxonomy) in these statuses, counted over the rows. */
async function counted(termId: number, statuses: string[], taxonomy = "category"): Promise<number> {
  const [row] = await sql<{ n: number }>(`
    SELECT count(*)::int AS n FROM "Post" p JOIN "PostTerm" pt ON pt."postId" = p."id" JOIN "Term" t ON t."id" = pt."termId"
    WHERE pt."termId" = $1 AND t."taxonomy" = $2 AND p."type" = 'post' AND p."status" = ANY($3::text[])`, termId, taxonomy, statuses);
  return row.n;
}

/** Every kept count that differs from a count of PostTerm × Post (a counter left at 0 is fine). */
const drift = () => sql(`
  SELECT coalesce(k."termId", r."termId") AS "termId", coalesce(k."type", r."type") AS "type",
    coalesce(k."status", r."status") AS "status", k."count" AS kept, r.n::int AS real
  FROM "PostTermCount" k
  FULL JOIN (SELECT pt."termId", p."type", p."status", count(*) AS n FROM "PostTerm" pt JOIN "Post" p ON p."id" = pt."postId" GROUP BY 1, 2, 3) r
    ON r."termId" = k."termId" AND r."type" = k."type" AND r."status" = k."status"
  WHERE coalesce(k."count", 0) <> coalesce(r.n, 0)`);

const total = async (query: string): Promise<number> => {
  const r = await s.request("GET", `${R}/core/v2/posts?${query}&per_page=1`, admin);
  expect(r.status, `${query}: ${r.text}`).toBe(200);
  return Number(r.headers.get("x-wp-total"));
};

/** The kept counts agree with the rows, and each category's list totals (REST and GraphQL) with counts of its posts. */
async function expectTotalsRight(categoryIds: number[]): Promise<void> {
  expect(await drift()).toEqual([]);
  for (const id of categoryIds) {
    for (const status of ["publish", "draft", "trash", "publish,draft"]) {
      expect(await total(`categories=${id}&status=${status}`), `categories=${id}&status=${status}`).toBe(await counted(id, status.split(",")));
    }
    const g = await s.graphql<{ posts: { totalCount: number } }>(
      "query($id: Int!) { posts(where: { categories: { terms: [$id] }, status: [PUBLISH, DRAFT] }) { totalCount } }", { id }, admin);
    expect(g.data?.posts.totalCount, `GraphQL categories ${id}`).toBe(await counted(id, ["publish", "draft"]));
  }
}

test("category list totals follow creates, batches, status changes, category changes, deletes and a term's deletion", async () => {
  const defaultCategory = 1;
  const [a, b, c] = [await createTerm("categories", "Alpha"), await createTerm("categories", "Beta"), await createTerm("categories", "Gamma")];
  const tag = await createTerm("tags", "Tagged");
  const all = [defaultCategory, a, b, c];
  await expectTotalsRight(all);

  // Single creates.
  const p1 = await createPost({ title: "One", status: "publish", categories: [a] });
  const p2 = await createPost({ title: "Two", status: "draft", categories: [a, b] });
  const p3 = await createPost({ title: "Three", status: "publish" });
  const p4 = await createPost({ title: "Four", status: "publish", categories: [a, c], tags: [tag] });
  await expectTotalsRight(all);

  // batch/v1's creates, one multi-row write (createPosts); a refused one writes nothing.
  const batch = await s.request("POST", `${R}/batch/v1`, { ...admin, body: { requests: [
    ...[[a], [b], [a, c], [], [c], [a, b, c]].map((categories, i) => ({
      path: "/core/v2/posts", body: { title: `Batched ${i}`, status: i % 3 ? "publish" : "draft", categories, tags: [tag] },
    })),
    { path: "/core/v2/posts", body: { title: "Refused", categories: [a], author: 999999 } },
  ] } });
  expect(batch.status).toBe(207);
  const batched = batch.body.responses.filter((r: { status: number }) => r.status === 201).map((r: { body: { id: number } }) => r.body.id);
  expect(batched).toHaveLength(6);
  await expectTotalsRight(all);
  expect(await counted(a, ["publish", "draft"])).toBe(6);

  // Status changes: draft → publish, publish → trash (a delete without force).
  await updatePost(p2, { status: "publish" });
  await updatePost(batched[0], { status: "publish", title: "Published now" });
  expect((await s.request("DELETE", `${R}/core/v2/posts/${p1}`, admin)).status).toBe(200);
  await updatePost(p4, { title: "Only the title changes" });
  await expectTotalsRight(all);
  expect(await counted(a, ["trash"])).toBe(1);

  // Category changes on update, and a status change with them.
  await updatePost(p3, { categories: [b, c] });
  await updatePost(p2, { categories: [c], status: "draft" });
  await updatePost(batched[2], { categories: [] });
  await updatePost(batched[5], { tags: [] });
  await expectTotalsRight(all);

  // Deletes for good: the post's terms go with it (a trashed one, and one in two categories).
  expect((await s.request("DELETE", `${R}/core/v2/posts/${p1}?force=true`, admin)).status).toBe(200);
  expect((await s.request("DELETE", `${R}/core/v2/posts/${p4}?force=true`, admin)).status).toBe(200);
  expect(await sql(`SELECT * FROM "PostTerm" WHERE "postId" IN (${p1}, ${p4})`)).toEqual([]);
  await expectTotalsRight(all);

  // A term's deletion takes its links (by cascade) and its kept counts.
  expect(await counted(c, ["publish", "draft"])).toBeGreaterThan(0);
  expect((await s.request("DELETE", `${R}/core/v2/categories/${c}?force=true`, admin)).status).toBe(200);
  expect(await sql(`SELECT * FROM "PostTermCount" WHERE "termId" = ${c}`)).toEqual([]);
  await expectTotalsRight(all);

  // Tags are kept the same way; a term of another taxonomy than the filter's matches nothing.
  expect(await total(`tags=${tag}&status=publish,draft`)).toBe(await counted(tag, ["publish", "draft"], "post_tag"));
  expect(await total(`tags=${tag}&status=publish,draft`)).toBeGreaterThan(0);
  expect(await total(`categories=${tag}&status=publish,draft`)).toBe(0);
  expect(await total(`tags=${a}&status=publish,draft`)).toBe(0);
});

test("writes the code does not make (multi-row SQL) keep the counts too", async () => {
  const [x, y] = [await createTerm("categories", "Ex"), await createTerm("categories", "Why")];
  const ids = [];
  for (let i = 0; i < 6; i++) ids.push(await createPost({ title: `Raw ${i}`, status: i % 2 ? "publish" : "draft", categories: i % 3 ? [x, y] : [x] }));
  await expectTotalsRight([x, y]);
  await sql(`UPDATE "Post" SET "status" = CASE WHEN "status" = 'publish' THEN 'draft' ELSE 'publish' END WHERE "id" = ANY($1::int[])`, ids);
  await expectTotalsRight([x, y]);
  await sql(`UPDATE "Post" SET "type" = 'page' WHERE "id" = $1`, ids[0]);
  await expectTotalsRight([x, y]);
  await sql(`UPDATE "PostTerm" SET "termId" = $1 WHERE "termId" = $2 AND "postId" = ANY($3::int[]) AND NOT EXISTS (SELECT 1 FROM "PostTerm" o WHERE o."postId" = "PostTerm"."postId" AND o."termId" = $1)`, y, x, ids.slice(0, 3));
  await expectTotalsRight([x, y]);
  await sql(`DELETE FROM "Post" WHERE "id" = ANY($1::int[])`, ids.slice(0, 4));
  await expectTotalsRight([x, y]);
  await sql(`DELETE FROM "Term" WHERE "id" = ANY($1::int[])`, [x, y]);
  expect(await sql(`SELECT * FROM "PostTermCount" WHERE "termId" = ANY($1::int[])`, [x, y])).toEqual([]);
  expect(await drift()).toEqual([]);
});

test("simultaneous status and category changes of the same posts leave the counts right", async () => {
  const [x, y] = [await createTerm("categories", "Busy one"), await createTerm("categories", "Busy two")];
  const ids = [];
  for (let i = 0; i < 8; i++) ids.push(await createPost({ title: `Busy ${i}`, status: "draft", categories: [x] }));
  const answers = await Promise.all(ids.flatMap((id, i) => [
    s.request("POST", `${R}/core/v2/posts/${id}`, { ...admin, body: { status: i % 2 ? "publish" : "private" } }),
    s.request("POST", `${R}/core/v2/posts/${id}`, { ...admin, body: { categories: i % 3 ? [x, y] : [y] } }),
    ...(i % 4 === 0 ? [s.request("DELETE", `${R}/core/v2/posts/${id}`, admin)] : []),
  ]));
  // None waits on another in a cycle (a deadlock would answer 500).
  expect(answers.map((r) => r.status).filter((status) => status !== 200), JSON.stringify(answers.filter((r) => r.status !== 200).map((r) => r.body))).toEqual([]);
  await expectTotalsRight([x, y]);
});

// PostgreSQL only (PGlite has one connection): a link written while another transaction changes the
// post's status is counted in the status the post ends with, whichever of the two commits first.
test.skipIf(!process.env.DATABASE_URL?.startsWith("postgres"))("a link and a status change in two open transactions", async () => {
  const [x, y] = [await createTerm("categories", "Race one"), await createTerm("categories", "Race two")];
  const post = await createPost({ title: "Raced", status: "draft", categories: [x] });
  const url = new URL(s.config.databaseUrl);
  const schema = url.searchParams.get("schema")!;
  url.searchParams.delete("schema");
  const connect = async () => {
    const client = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
    await client.connect();
    return client;
  };
  const [first, second] = [await connect(), await connect()];
  const pause = () => new Promise((resolve) => setTimeout(resolve, 300));
  try {
    for (const [status, write] of [
      ["publish", `INSERT INTO "PostTerm" ("postId", "termId") VALUES (${post}, ${y})`],
      ["draft", `DELETE FROM "PostTerm" WHERE "postId" = ${post} AND "termId" = ${y}`],
    ]) {
      // The status change first: the link's write waits for it and counts the new status.
      await first.query("BEGIN");
      await second.query("BEGIN");
      await first.query(`UPDATE "Post" SET "status" = $1 WHERE "id" = $2`, [status, post]);
      const linked = second.query(write);
      await pause();
      await first.query("COMMIT");
      await linked;
      await second.query("COMMIT");
      expect(await drift(), write).toEqual([]);
    }
    for (const [status, write] of [
      ["publish", `INSERT INTO "PostTerm" ("postId", "termId") VALUES (${post}, ${y})`],
      ["draft", `DELETE FROM "PostTerm" WHERE "postId" = ${post} AND "termId" = ${y}`],
    ]) {
      // The link first: the status change waits for it and moves it too.
      await first.query("BEGIN");
      await second.query("BEGIN");
      await second.query(write);
      const changed = first.query(`UPDATE "Post" SET "status" = $1 WHERE "id" = $2`, [status, post]);
      await pause();
      await second.query("COMMIT");
      await changed;
      await first.query("COMMIT");
      expect(await drift(), write).toEqual([]);
    }
  } finally {
    await first.end();
    await second.end();
  }
  await expectTotalsRight([x, y]);
});

test("only a filter of one term and nothing else reads the kept count", async () => {
  const [x, y] = [await createTerm("categories", "Read one"), await createTerm("categories", "Read two")];
  for (let i = 0; i < 5; i++) await createPost({ title: `Kept ${i}`, status: "publish", categories: i < 3 ? [x] : [x, y] });
  const real = await counted(x, ["publish"]);
  expect(real).toBe(5);
  // Put the kept count off on purpose: the lists that read it show it, the others still count.
  await sql(`UPDATE "PostTermCount" SET "count" = "count" + 1000 WHERE "termId" = $1 AND "type" = 'post' AND "status" = 'publish'`, x);
  try {
    expect(await total(`categories=${x}`)).toBe(real + 1000);
    expect(await total(`categories=${x}&tax_relation=OR`)).toBe(real + 1000);
    expect(await total(`categories=${x}&author=1`)).toBe(real);
    expect(await total(`categories=${x},${y}`)).toBe(real);
    expect(await total(`categories=${x}&categories_exclude=${y}`)).toBe(3);
    expect(await total(`categories=${x}&search=Kept`)).toBe(real);
    expect(await total(`categories=${x}&tags=${y}`)).toBe(0);
  } finally {
    await sql(`UPDATE "PostTermCount" SET "count" = "count" - 1000 WHERE "termId" = $1 AND "type" = 'post' AND "status" = 'publish'`, x);
  }
  expect(await drift()).toEqual([]);
});
