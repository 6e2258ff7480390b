// Uniqueness is the database's, not a read-then-write: simultaneous publishes of one title get
// distinct slugs, and simultaneous creates of one term make it once (the rest: term_exists).
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

test("20 simultaneous publishes of one title get 20 distinct slugs", async () => {
  const answers = await Promise.all(Array.from({ length: 20 }, () =>
    s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: "Same Title Everywhere", status: "publish" } })));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  const slugs = answers.map((a) => a.body.slug as string);
  expect(new Set(slugs).size).toBe(20);
  expect(slugs).toContain("same-title-everywhere");
  expect(slugs).toContain("same-title-everywhere-20");
});

test("10 simultaneous creates of one category make one; the others answer term_exists, not 500", async () => {
  const answers = await Promise.all(Array.from({ length: 10 }, () =>
    s.request("POST", "/wp-json/core/v2/categories", { auth: "admin", body: { name: "Simultaneous" } })));
  const created = answers.filter((a) => a.status === 201);
  expect(created).toHaveLength(1);
  for (const a of answers.filter((x) => x.status !== 201)) {
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ code: "term_exists", data: { term_id: created[0].body.id } });
  }
});
