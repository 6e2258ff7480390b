// PGlite has no autovacuum daemon (single-user Postgres): without lib/pglite-autoanalyze.js a table
// that grows through the API is never analyzed, and the planner keeps the plans of an empty table
// (a batch's slug check then filtered every post instead of reading its prefixes from the index).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db.ts";
import { applyMigrations } from "../../lib/migrate.ts";

const insertPosts = async (db: Database, count: number) => {
  const author = await db.prisma.user.create({ data: { login: "writer", email: "writer@example.test", name: "Writer", nicename: "writer" } });
  await db.prisma.$executeRawUnsafe(`
    INSERT INTO "Post" ("type", "status", "title", "slug", "authorId", "date", "dateGmt", "modified", "modifiedGmt")
    SELECT 'post', 'publish', 'Post ' || g, 'post-' || g, $1, now(), now(), now(), now() FROM generate_series(1, $2::int) AS g`, author.id, count);
};
const statistics = async (db: Database) => (await db.prisma.$queryRawUnsafe<{ reltuples: number }[]>(`SELECT reltuples::int AS reltuples FROM pg_class WHERE relname = 'Post'`))[0].reltuples;

/** The table's row count as the planner knows it, once it reaches `rows` (or after 5 s). */
async function analyzed(db: Database, rows: number): Promise<number> {
  for (let waited = 0; (await statistics(db)) < rows && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return statistics(db);
}

describe.each([["on its own thread", true], ["on the main thread", false]])("PGlite %s", (_, thread) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase("memory:", { thread, analyzeEveryMs: 50 });
    await applyMigrations(db);
  });
  afterAll(() => db.close());

  it("analyzes a table that grew, so the slug check reads the index as the site grows", async () => {
    await insertPosts(db, 3000);
    expect(await analyzed(db, 3000)).toBe(3000);

    // The query takenSlugs sends (subgraphs/content/posts/posts.ts) for a batch of two titles.
    const plan = (await db.prisma.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN SELECT slug FROM "Post" WHERE type = $1 AND (slug LIKE $2 OR slug LIKE $3) AND id <> $4`, "post", "post-12%", "post-7%", 0,
    )).map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/Index Cond: \(\(type = 'post'::text\) AND \(slug >= 'post-12'::text\)/);
  });
});

describe("PGlite data directory", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "auto-analyze-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("analyzes, after a start, the tables that hold rows but were never analyzed (a restart forgets what changed)", async () => {
    const first = await openDatabase(`file:${dir}`, { analyzeEveryMs: 10_000_000 });
    await applyMigrations(first);
    await insertPosts(first, 2000);
    expect(await statistics(first)).toBe(-1);
    await first.close();

    const again = await openDatabase(`file:${dir}`, { analyzeEveryMs: 50 });
    try {
      expect(await analyzed(again, 2000)).toBe(2000);
    } finally {
      await again.close();
    }
  });
});
