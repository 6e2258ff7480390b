// What held when the system was attacked (issue 11), kept as tests: forged or expired identity
// headers refused by the subgraphs, no edit-context field shown to who may not edit, simultaneous
// edits each making a revision, and simultaneous batches each making their posts.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { IDENTITY_HEADER, signIdentity } from "../../lib/identity.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

const content = () => s.subgraphs.find((g) => g.name === "content")!.url;
const askContent = (headers: Record<string, string>) =>
  fetch(content(), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query: "{ viewerCan { createPosts } }" }) });

describe("identity headers", () => {
  test("a forged identity header (another key) is a 401, not a 500", async () => {
    const forged = await signIdentity({ site: { userId: 1, roles: ["administrator"] } }, Buffer.from("x".repeat(40)));
    const r = await askContent({ [IDENTITY_HEADER]: forged });
    expect(r.status).toBe(401);
    expect((await r.json()).errors[0].extensions.code).toBe("invalid_identity");
  });

  test("an expired identity header is a 401", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 5 * 60 * 1000 });
    const old = await signIdentity({ site: { userId: 1, roles: ["administrator"] } }, s.config.secretKey);
    vi.useRealTimers();
    expect((await askContent({ [IDENTITY_HEADER]: old })).status).toBe(401);
    const fresh = await signIdentity({ site: { userId: 1, roles: ["administrator"] } }, s.config.secretKey);
    expect((await (await askContent({ [IDENTITY_HEADER]: fresh })).json()).data.viewerCan.createPosts).toBe(true);
  });
});

describe("edit context", () => {
  test.each(["posts", "pages", "media", "menu-items", "menus", "users", "settings"])("a visitor asking %s?context=edit is refused, and sees no raw field", async (base) => {
    const r = await s.request("GET", `/wp-json/core/v2/${base}?context=edit`);
    expect([401, 403]).toContain(r.status);
    expect(r.text).not.toMatch(/"raw"|"email"|"password"/);
  });
});

describe("simultaneous writes", () => {
  test("50 simultaneous edits of one post each make a revision", async () => {
    const post = await s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: "Edited by many", status: "publish" } });
    const edits = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      s.request("POST", `/wp-json/core/v2/posts/${post.body.id}`, { auth: "admin", body: { content: `Version ${i}` } })));
    expect(edits.map((e) => e.status)).toEqual(Array(50).fill(200));
    const revisions = await s.request("GET", `/wp-json/core/v2/posts/${post.body.id}/revisions?per_page=1`, { auth: "admin" });
    expect(revisions.headers.get("x-wp-total")).toBe("50");
  });

  test("10 simultaneous batches of 25 creates make 250 distinct posts", async () => {
    const batches = await Promise.all(Array.from({ length: 10 }, (_, b) => s.request("POST", "/wp-json/batch/v1", {
      auth: "admin", body: { requests: Array.from({ length: 25 }, (_, i) => ({ path: "/core/v2/posts", body: { title: `Batch ${b}-${i}` } })) },
    })));
    const ids = batches.flatMap((b) => (b.body.responses as { status: number; body: { id: number } }[]).map((r) => { expect(r.status).toBe(201); return r.body.id; }));
    expect(new Set(ids).size).toBe(250);
  });
});
