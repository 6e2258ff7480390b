// The router admits anonymous queries a few at a time (QUERY_CONCURRENCY, router/graph.ts): with a
// single place, a burst of reads, each of which may run several operations (`_embed`), is answered
// in full, each read as it is answered alone.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type TestResponse, type TestSystem } from "../helpers/system.ts";

describe("QUERY_CONCURRENCY=1: one anonymous query at a time", () => {
  let s: TestSystem;
  beforeAll(async () => {
    s = await startTestSystem({ QUERY_CONCURRENCY: "1" });
    for (let i = 0; i < 12; i++) await s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: `Admitted ${i}`, status: "publish" } });
  });
  afterAll(async () => { await s?.stop(); });

  test("a burst of anonymous reads, REST with embeds and GraphQL, each answers what it answers alone", async () => {
    const reads = [
      ...Array.from({ length: 12 }, (_, page) => ["GET", `/wp-json/core/v2/posts?per_page=1&page=${page + 1}&_embed`] as const),
      ...Array.from({ length: 6 }, (_, i) => ["POST", "/graphql", { query: `{ posts(perPage: ${i + 1}) { nodes { databaseId } } }` }] as const),
    ];
    const alone: TestResponse[] = [];
    for (const [method, path, body] of reads) alone.push(await s.request(method, path, { body }));
    // A signed-in read goes along with the burst, straight through.
    const together = await Promise.all([
      ...reads.map(([method, path, body]) => s.request(method, path, { body })),
      s.request("GET", "/wp-json/core/v2/posts?context=edit&per_page=1", { auth: "admin" }),
    ]);
    expect(together.map((r) => r.status)).toEqual([...alone.map(() => 200), 200]);
    together.slice(0, reads.length).forEach((r, i) => expect(r.body).toEqual(alone[i].body));
    expect(new Set(alone.slice(0, 12).map((r) => r.body[0].id)).size).toBe(12);
  });
});
