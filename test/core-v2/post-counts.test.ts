// A list's total (X-WP-Total) without filters comes from the counts the database keeps per type and
// status (PostCount, kept by triggers); after every kind of write it must equal the posts listed.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json";
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

/** The total a list reports, and how many items its pages really hold. */
async function totals(query: string): Promise<{ reported: number; listed: number }> {
  let listed = 0;
  let reported = 0;
  for (let page = 1; ; page++) {
    const r = await s.request("GET", `${R}/core/v2/posts?${query}&per_page=100&page=${page}`, { auth: "admin" });
    if (r.status === 400) break;
    reported = Number(r.headers.get("x-wp-total"));
    listed += r.body.length;
    if (r.body.length < 100) break;
  }
  return { reported, listed };
}

const expectTotalsRight = async (expected: Record<string, number>) => {
  for (const [query, count] of Object.entries(expected)) expect(await totals(query), query).toEqual({ reported: count, listed: count });
};

test("list totals stay right through creates, batches, status changes, trashing and deleting", async () => {
  await expectTotalsRight({ "status=publish": 1, "status=draft": 0, "status=any": 1 });

  const batch = await s.request("POST", `${R}/batch/v1`, { auth: "admin", body: { requests: [
    ...Array.from({ length: 7 }, (_, i) => ({ path: "/core/v2/posts", body: { title: `Published ${i}`, status: "publish" } })),
    ...Array.from({ length: 4 }, (_, i) => ({ path: "/core/v2/posts", body: { title: `Draft ${i}` } })),
    { path: "/core/v2/posts", body: { title: "Refused", author: 999999 } },
  ] } });
  const ids = batch.body.responses.filter((r: { status: number }) => r.status === 201).map((r: { body: { id: number } }) => r.body.id);
  expect(ids).toHaveLength(11);
  const single = await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: "Single", status: "publish" } });
  await s.request("POST", `${R}/core/v2/pages`, { auth: "admin", body: { title: "A page", status: "publish" } });
  await expectTotalsRight({ "status=publish": 9, "status=draft": 4, "status=any": 13 });

  await s.request("POST", `${R}/core/v2/posts/${ids[7]}`, { auth: "admin", body: { status: "publish" } });
  await s.request("POST", `${R}/core/v2/posts/${ids[0]}`, { auth: "admin", body: { status: "private" } });
  await s.request("POST", `${R}/core/v2/posts/${ids[1]}`, { auth: "admin", body: { title: "Only the title changes" } });
  await s.request("DELETE", `${R}/core/v2/posts/${ids[2]}`, { auth: "admin" });
  await s.request("DELETE", `${R}/core/v2/posts/${single.body.id}?force=true`, { auth: "admin" });
  await expectTotalsRight({ "status=publish": 7, "status=draft": 3, "status=private": 1, "status=trash": 1, "status=any": 11 });
  // The same lists with a filter are counted over the posts, and agree.
  await expectTotalsRight({ "status=publish&author=1": 7, "status=publish&search=Published": 4 });
});
