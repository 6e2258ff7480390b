// The read cache (router/read-cache.ts) keeps anonymous answers, and every write is visible on the
// very next read: each write below follows reads that were answered from the cache, and is read
// back at once, anonymously, over REST and GraphQL.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import Fastify from "fastify";
import { Worker } from "node:worker_threads";
import { createReadCache, registerReadCache } from "../../router/read-cache.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { loadConfig } from "../../lib/config.ts";

let s: TestSystem;
const R = "/wp-json/core/v2";
beforeAll(async () => { s = await startTestSystem({ READ_CACHE_TTL_MS: "60000" }); });
afterAll(async () => { await s?.stop(); });

const POSTS_QUERY = "{ posts(perPage: 100) { nodes { databaseId title { rendered } } } }";

/** An anonymous read, asked until the cache answers it (so the write that follows must invalidate). */
async function cachedRead(method: "GET" | "POST", path: string, body?: unknown) {
  const first = await s.request(method, path, { body });
  expect(first.status).toBe(200);
  const again = await s.request(method, path, { body });
  expect(again.headers.get("x-cache")).toBe("HIT");
  return again;
}

const restTitles = async () => (await s.request("GET", `${R}/posts?per_page=100`)).body.map((p: { title: { rendered: string } }) => p.title.rendered);
const graphqlTitles = async () => (await s.request("POST", "/graphql", { body: { query: POSTS_QUERY } })).body.data.posts.nodes.map((p: { title: { rendered: string } }) => p.title.rendered);
/** Both anonymous reads of the post list, from the cache first. */
const warmLists = async () => { await cachedRead("GET", `${R}/posts?per_page=100`); await cachedRead("POST", "/graphql", { query: POSTS_QUERY }); };

describe("answers from the cache", () => {
  test("a second anonymous read is a HIT with the same body and headers, under its own request id", async () => {
    const miss = await s.request("GET", `${R}/posts?slug=hello-world`);
    expect(miss.headers.get("x-cache")).toBe("MISS");
    const hit = await s.request("GET", `${R}/posts?slug=hello-world`);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(hit.text).toBe(miss.text);
    for (const name of ["x-wp-total", "x-wp-totalpages", "allow", "link", "content-type"]) expect(hit.headers.get(name)).toBe(miss.headers.get(name));
    expect(hit.headers.get("x-request-id")).not.toBe(miss.headers.get("x-request-id"));
  });

  test("the query string, the ?rest_route= form and GraphQL variables are part of the key", async () => {
    await cachedRead("GET", `${R}/posts?per_page=1`);
    expect((await s.request("GET", `${R}/posts?per_page=2`)).headers.get("x-cache")).toBe("MISS");
    expect((await s.request("GET", "/?rest_route=/core/v2/posts&per_page=1")).headers.get("x-cache")).toBe("MISS");
    const query = "query($skip: Int) { posts(offset: $skip) { nodes { databaseId } } }";
    expect((await cachedRead("POST", "/graphql", { query, variables: { skip: 0 } })).body.data.posts.nodes).toHaveLength(1);
    const skipped = await s.request("POST", "/graphql", { body: { query, variables: { skip: 1 } } });
    expect(skipped.headers.get("x-cache")).toBe("MISS");
    expect(skipped.body.data.posts.nodes).toHaveLength(0);
  });

  test("identical reads arriving together on the running system are answered once and SHARED with the others", async () => {
    // Whether the ten arrive within the first one's turn depends on the machine: a few tries, each on a new key.
    let shared = 0;
    for (let attempt = 1; attempt <= 3 && shared === 0; attempt++) {
      const path = `${R}/posts?per_page=${attempt + 3}&orderby=title`;
      const answers = await Promise.all(Array.from({ length: 10 }, () => s.request("GET", path)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      const kinds = answers.map((a) => a.headers.get("x-cache"));
      // Those that arrive after the first one has answered are HITs (this file's system keeps answers).
      expect(kinds.every((kind) => kind === "MISS" || kind === "SHARED" || kind === "HIT")).toBe(true);
      shared = kinds.filter((kind) => kind === "SHARED").length;
    }
    expect(shared).toBeGreaterThan(0);
  });

  test("a GraphQL GET is cached too, and a GET without Apollo's CSRF header is still refused", async () => {
    const path = `/graphql?query=${encodeURIComponent("{ site { name } }")}`;
    const first = await s.request("GET", path, { headers: { "apollo-require-preflight": "true" } });
    expect(first.body.data.site.name).toBeTruthy();
    expect((await s.request("GET", path, { headers: { "apollo-require-preflight": "true" } })).headers.get("x-cache")).toBe("HIT");
    expect((await s.request("GET", path)).status).toBe(400);
  });

  test("signed-in callers are never answered from the cache", async () => {
    const hello = (await s.request("GET", `${R}/posts?slug=hello-world`)).body[0];
    await cachedRead("GET", `${R}/posts/${hello.id}`);
    const admin = await s.request("GET", `${R}/posts/${hello.id}`, { auth: "admin" });
    expect(admin.headers.get("x-cache")).toBeNull();
    // The signed-in answer is the admin's own: private, and the methods an editor may use.
    expect(admin.headers.get("cache-control")).toContain("private");
    expect(admin.headers.get("allow")).toContain("POST");
    await cachedRead("POST", "/graphql", { query: "{ viewerCan { createPosts } }" });
    const graphql = await s.request("POST", "/graphql", { auth: "admin", body: { query: "{ viewerCan { createPosts } }" } });
    expect(graphql.headers.get("x-cache")).toBeNull();
    expect(graphql.body.data.viewerCan.createPosts).toBe(true);
  });
});

describe("every write is visible on the next anonymous read", () => {
  let id: number;

  test("creating a post (REST)", async () => {
    await warmLists();
    const r = await s.request("POST", `${R}/posts`, { auth: "admin", body: { title: "Fresh from REST", status: "publish" } });
    expect(r.status).toBe(201);
    id = r.body.id;
    expect(await restTitles()).toContain("Fresh from REST");
    expect(await graphqlTitles()).toContain("Fresh from REST");
  });

  test("updating it", async () => {
    await warmLists();
    await cachedRead("GET", `${R}/posts/${id}`);
    expect((await s.request("POST", `${R}/posts/${id}`, { auth: "admin", body: { title: "Renamed" } })).status).toBe(200);
    expect((await s.request("GET", `${R}/posts/${id}`)).body.title.rendered).toBe("Renamed");
    expect(await restTitles()).toContain("Renamed");
    expect(await graphqlTitles()).toContain("Renamed");
  });

  test("deleting it", async () => {
    await warmLists();
    await cachedRead("GET", `${R}/posts/${id}`);
    expect((await s.request("DELETE", `${R}/posts/${id}?force=true`, { auth: "admin" })).status).toBe(200);
    expect((await s.request("GET", `${R}/posts/${id}`)).status).toBe(404);
    expect(await restTitles()).not.toContain("Renamed");
    expect(await graphqlTitles()).not.toContain("Renamed");
  });

  test("changing a setting", async () => {
    await cachedRead("GET", "/wp-json/");
    await cachedRead("POST", "/graphql", { query: "{ site { name } }" });
    expect((await s.request("POST", `${R}/settings`, { auth: "admin", body: { title: "Renamed site" } })).status).toBe(200);
    expect((await s.request("GET", "/wp-json/")).body.name).toBe("Renamed site");
    expect((await s.graphql<{ site: { name: string } }>("{ site { name } }")).data?.site.name).toBe("Renamed site");
  });

  test("changing a menu", async () => {
    const menu = (await s.request("POST", `${R}/menus`, { auth: "admin", body: { name: "Cached menu", locations: ["primary"] } })).body;
    const item = (await s.request("POST", `${R}/menu-items`, { auth: "admin", body: { title: "Before", url: "https://example.org/", menus: menu.id, status: "publish" } })).body;
    const query = `{ menu(id: "primary", idType: LOCATION) { items { title { rendered } } } }`;
    const titles = async () => (await s.graphql<{ menu: { items: { title: { rendered: string } }[] } }>(query)).data?.menu.items.map((i) => i.title.rendered);
    await cachedRead("POST", "/graphql", { query });
    expect(await titles()).toEqual(["Before"]);
    expect((await s.request("POST", `${R}/menu-items/${item.id}`, { auth: "admin", body: { title: "After" } })).status).toBe(200);
    expect(await titles()).toEqual(["After"]);
  });

  test("a GraphQL mutation", async () => {
    await warmLists();
    const created = await s.graphql<{ createPost: { databaseId: number } }>(
      `mutation { createPost(input: { title: "Fresh from GraphQL", status: PUBLISH }) { databaseId } }`, {}, { auth: "admin" });
    expect(created.errors).toBeUndefined();
    expect(await restTitles()).toContain("Fresh from GraphQL");
    expect(await graphqlTitles()).toContain("Fresh from GraphQL");
  });
});

/** A promise held until `open()`: orders a read and a write exactly. */
const gate = () => { let open = () => {}; const closed = new Promise<void>((resolve) => { open = resolve; }); return { closed, open }; };
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("reads and writes that overlap", () => {
  /** A router with one resource whose read and write each wait at a gate, to order them exactly. */
  function harness() {
    const app = Fastify();
    registerReadCache(app, createReadCache({ ttlMs: 60_000 }), { restRoot: "wp-json", contextOf: () => undefined });
    const state = { title: "before", readGate: Promise.resolve(), writeGate: Promise.resolve() };
    app.get("/wp-json/thing", async () => { const seen = state.title; await state.readGate; return seen; });
    app.post("/wp-json/thing", async () => { await state.writeGate; state.title = "after"; return "ok"; });
    const read = () => app.inject({ method: "GET", url: "/wp-json/thing" });
    return { app, state, read, write: () => app.inject({ method: "POST", url: "/wp-json/thing" }) };
  }

  test("a read that started before a write does not keep its answer, however late it finishes", async () => {
    const { app, state, read, write } = harness();
    const held = gate();
    state.readGate = held.closed;
    const slow = read();
    await tick();
    await write();
    held.open();
    expect((await slow).body).toBe("before");
    state.readGate = Promise.resolve();
    const next = await read();
    expect([next.headers["x-cache"], next.body]).toEqual(["MISS", "after"]);
    await app.close();
  });

  test("a read made while a write is under way is forgotten when the write ends", async () => {
    const { app, state, read, write } = harness();
    const held = gate();
    state.writeGate = held.closed;
    const writing = write();
    await tick();
    expect((await read()).body).toBe("before");
    held.open();
    await writing;
    const next = await read();
    expect([next.headers["x-cache"], next.body]).toEqual(["MISS", "after"]);
    await app.close();
  });
});

describe("identical reads in flight at once", () => {
  /** A resource whose reads wait at a gate and count their executions; the cache keeps nothing (TTL 0). */
  function harness() {
    const app = Fastify();
    registerReadCache(app, createReadCache({ ttlMs: 0, coalesce: true }), { restRoot: "wp-json", contextOf: () => undefined });
    const state = { title: "before", executions: 0, status: 200, readGate: Promise.resolve() };
    app.get("/wp-json/thing", async (_request, reply) => {
      state.executions += 1;
      const [seen, status] = [state.title, state.status];
      await state.readGate;
      return reply.code(status).send(seen);
    });
    app.post("/wp-json/thing", async () => { state.title = "after"; return "ok"; });
    const read = (url = "/wp-json/thing") => app.inject({ method: "GET", url });
    return { app, state, read, write: () => app.inject({ method: "POST", url: "/wp-json/thing" }) };
  }
  const seen = (answer: { headers: Record<string, unknown>; body: string }) => [answer.headers["x-cache"], answer.body];

  test("are answered by one execution, the later ones SHARED; a different URL runs itself; nothing is kept after", async () => {
    const { app, state, read } = harness();
    const held = gate();
    state.readGate = held.closed;
    const first = read();
    await tick();
    const later = [read(), read(), read("/wp-json/thing?x=1")];
    await tick();
    held.open();
    expect(seen(await first)).toEqual(["MISS", "before"]);
    expect((await Promise.all(later)).map(seen)).toEqual([["SHARED", "before"], ["SHARED", "before"], ["MISS", "before"]]);
    expect(state.executions).toBe(2);
    expect(seen(await read())).toEqual(["MISS", "before"]);
    expect(state.executions).toBe(3);
    await app.close();
  });

  test("a read that arrives after a write does not get the answer of a read that started before it", async () => {
    const { app, state, read, write } = harness();
    const held = gate();
    state.readGate = held.closed;
    const first = read();
    await tick();
    await write();
    state.readGate = Promise.resolve();
    const later = await read();
    held.open();
    expect(seen(await first)).toEqual(["MISS", "before"]);
    expect(seen(later)).toEqual(["MISS", "after"]);
    await app.close();
  });

  test("when a write lands while the first read is out, or its answer is not a 200, the waiting reads run themselves", async () => {
    const { app, state, read, write } = harness();
    let held = gate();
    state.readGate = held.closed;
    let first = read();
    await tick();
    let waiting = read();
    await tick();
    await write();
    state.readGate = Promise.resolve();
    held.open();
    expect(seen(await first)).toEqual(["MISS", "before"]);
    expect(seen(await waiting)).toEqual(["MISS", "after"]);

    held = gate();
    state.readGate = held.closed;
    state.status = 503;
    first = read();
    await tick();
    waiting = read();
    await tick();
    state.status = 200;
    state.readGate = Promise.resolve();
    held.open();
    expect((await first).statusCode).toBe(503);
    expect([(await waiting).statusCode, ...seen(await waiting)]).toEqual([200, "MISS", "after"]);
    await app.close();
  });

  test("a read answered without any I/O (as on the embedded database in one process) still lets identical ones join it", async () => {
    const app = Fastify();
    registerReadCache(app, createReadCache({ ttlMs: 0, coalesce: true }), { restRoot: "wp-json", contextOf: () => undefined });
    let executions = 0;
    // How many of the clients' requests are written to their sockets, counted on the clients' thread.
    const sent = new Int32Array(new SharedArrayBuffer(4));
    app.get("/wp-json/busy", async () => {
      executions += 1;
      // CPU only: nothing lets the event loop read the next request meanwhile. It lasts until every
      // client has sent its request (2 s at most), so the others wait at its end on a loaded machine too.
      const until = Date.now() + 2000;
      while (Atomics.load(sent, 0) < 8 && Date.now() < until);
      return "done";
    });
    app.get("/wp-json/open", async () => "open");
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    // The clients run on their own thread, so they keep sending while this one is busy, as wrk does,
    // on connections opened first, as wrk's are: Node accepts one new connection per event-loop turn.
    const clients = new Worker(`
      const { parentPort, workerData } = require("node:worker_threads");
      const http = require("node:http");
      const sent = new Int32Array(workerData.sent);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const get = (path, onSent) => new Promise((resolve, reject) => {
        const request = http.get(workerData.url + path, { agent }, (response) => { response.resume().on("end", () => resolve(response.headers["x-cache"])); });
        request.on("finish", onSent ?? (() => {})).on("error", reject);
      });
      const eight = (path, onSent) => Promise.all(Array.from({ length: 8 }, () => get(path, onSent)));
      eight("/wp-json/open").then(() => eight("/wp-json/busy", () => Atomics.add(sent, 0, 1))).then((kinds) => parentPort.postMessage(kinds));
    `, { eval: true, workerData: { url, sent: sent.buffer } });
    const answers = await new Promise<string[]>((resolve, reject) => { clients.once("message", resolve); clients.once("error", reject); });
    await clients.terminate();
    expect(answers.filter((kind) => kind === "SHARED").length).toBeGreaterThan(0);
    expect(executions).toBeLessThan(8);
    await app.close();
  });

  test("READ_COALESCING: on by default, off for a router alone in front of remote subgraphs, 0 turns it off", () => {
    expect(loadConfig({}).readCoalescing).toBe(true);
    expect(loadConfig({ READ_COALESCING: "0" }).readCoalescing).toBe(false);
    const remote = { CONTENT_URL: "http://127.0.0.1:1/graphql", EXTENSIONS_URL: "http://127.0.0.1:2/graphql", GATEWAY_URL: "http://127.0.0.1:3/graphql" };
    expect(loadConfig(remote).readCoalescing).toBe(false);
    expect(loadConfig({ ...remote, READ_COALESCING: "1" }).readCoalescing).toBe(true);
    expect(() => loadConfig({ READ_COALESCING: "yes" })).toThrow(/READ_COALESCING/);
  });
});

describe("the cache itself", () => {
  const answer = (body: string) => ({ status: 200, headers: { "content-type": "application/json" }, body });

  test("an answer read before an invalidation is not stored", () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    const started = cache.generation;
    cache.invalidate();
    cache.set("k", answer("old"), started);
    expect(cache.get("k")).toBeUndefined();
    cache.set("k", answer("new"), cache.generation);
    expect(cache.get("k")?.body).toBe("new");
  });

  test("listeners hear local invalidations only, and an invalidation forgets everything", () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    let heard = 0;
    cache.onInvalidate(() => { heard += 1; });
    cache.set("k", answer("a"), cache.generation);
    cache.invalidate({ remote: true });
    expect(heard).toBe(0);
    expect(cache.get("k")).toBeUndefined();
    cache.invalidate();
    expect(heard).toBe(1);
  });

  test("answers expire, and entries and bytes are bounded", async () => {
    const short = createReadCache({ ttlMs: 30 });
    short.set("k", answer("a"), short.generation);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(short.get("k")).toBeUndefined();
    const few = createReadCache({ ttlMs: 60_000, maxEntries: 2 });
    for (const key of ["a", "b", "c"]) few.set(key, answer(key), few.generation);
    expect(few.get("a")).toBeUndefined();
    expect(few.get("c")?.body).toBe("c");
    const small = createReadCache({ ttlMs: 60_000, maxBytes: 4096 });
    small.set("big", answer("x".repeat(8192)), small.generation);
    expect(small.get("big")).toBeUndefined();
  });

  test("a TTL of 0 keeps nothing", () => {
    const off = createReadCache({ ttlMs: 0 });
    off.set("k", answer("a"), off.generation);
    expect(off.enabled).toBe(false);
    expect(off.get("k")).toBeUndefined();
  });
});

// Last: it stops the extensions subgraph.
describe("a subgraph that is down", () => {
  test("answers made meanwhile (REST without its registered fields, GraphQL with errors) are not kept", async () => {
    await s.subgraphs.find((g) => g.name === "extensions")!.stop();
    const path = `${R}/posts?per_page=3`;
    const degraded = await s.request("GET", path);
    expect(degraded.status).toBe(200);
    expect(degraded.body[0]).not.toHaveProperty("lang");
    expect((await s.request("GET", path)).headers.get("x-cache")).toBe("MISS");
    const query = "{ posts(perPage: 1) { nodes { slug } } languages { slug } }";
    const partial = await s.request("POST", "/graphql", { body: { query } });
    expect(partial.status).toBe(200);
    expect(partial.body.errors).toBeDefined();
    expect((await s.request("POST", "/graphql", { body: { query } })).headers.get("x-cache")).toBe("MISS");
  });
});
