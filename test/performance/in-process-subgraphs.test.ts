// The router calls the subgraphs of its own process in-process (router/local-subgraph.ts), and
// subgraphs elsewhere over HTTP with the signed identity header: both ways give the same answers,
// errors and identities, and the log shows which way each operation went.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../../bench/lib/ports.ts";
import { startRouter, type RunningRouter } from "../../router/server.ts";
import { SUBGRAPHS } from "../../router/system.ts";
import { ADMIN_APP_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";

interface LogLine { [key: string]: unknown; msg: string; name: string; requestId?: string }

let s: TestSystem;
/** A second router, alone, in front of the same subgraphs' HTTP servers (as Hive Gateway or a router worker would be). */
let remote: RunningRouter;
const lines: LogLine[] = [];
const logStream = { write: (line: string) => { lines.push(JSON.parse(line) as LogLine); } };
/** The content subgraph's request lines of one request. */
const contentLines = (requestId: string) => lines.filter((l) => l.requestId === requestId && l.name === "content" && l.msg === "request");

beforeAll(async () => {
  s = await startTestSystem({ LOG_LEVEL: "info" }, { logStream });
  remote = await startRouter({ ...s.config, port: 0 }, SUBGRAPHS.map((d, i) => ({ name: d.name, typeDefs: d.typeDefs, url: s.subgraphs[i].url })));
});
afterAll(async () => { await remote?.stop(); await s?.stop(); });

const admin = `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString("base64")}`;
/** One GraphQL request through a router, under a request id of our choosing. */
async function ask(base: string, requestId: string, query: string, signedIn = false) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-request-id": requestId, ...(signedIn ? { authorization: admin } : {}) },
    body: JSON.stringify({ query }),
  });
  return response.json() as Promise<{ data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
}

// The draft page a fresh site has (privacy-policy): only a signed-in editor sees it.
const DRAFTS = `{ pages(where: { status: [DRAFT] }) { nodes { slug status } } }`;
const MISSING = `{ post(id: "999999", idType: DATABASE_ID) { slug } posts(perPage: 1) { nodes { slug } } }`;

describe("a subgraph in the router's process", () => {
  test("is called in-process: no HTTP request reaches its server", async () => {
    const answer = await ask(s.url, "local-1", `{ posts { nodes { slug } } }`);
    expect(answer.data).toEqual({ posts: { nodes: [{ slug: "hello-world" }] } });
    const mine = contentLines("local-1");
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((l) => l.inProcess === true && l.method === undefined)).toBe(true);
  });

  test("gets the caller's identity as it is, and checks the caller's credentials in-process too", async () => {
    expect(await ask(s.url, "local-2", DRAFTS, true)).toEqual({ data: { pages: { nodes: [{ slug: "privacy-policy", status: "DRAFT" }] } } });
    // The credential check, then the query itself: neither an HTTP request.
    const mine = contentLines("local-2");
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.every((l) => l.inProcess === true && l.method === undefined)).toBe(true);
    expect((await ask(s.url, "local-3", DRAFTS)).errors?.[0].extensions?.code).toBeDefined();
  });

  test("is asked in-process by the router's own calls too: a site path's redirect matching", async () => {
    const response = await fetch(`${s.url}/no-such-page-here`, { headers: { "x-request-id": "local-redirect" } });
    expect(response.status).toBe(404);
    const mine = lines.filter((l) => l.requestId === "local-redirect" && l.name === "extensions" && l.msg === "request");
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((l) => l.inProcess === true && l.method === undefined)).toBe(true);
  });
});

describe("a subgraph in another process", () => {
  test("is fetched over HTTP, with the signed identity header", async () => {
    expect(await ask(remote.url, "remote-1", DRAFTS, true)).toEqual({ data: { pages: { nodes: [{ slug: "privacy-policy", status: "DRAFT" }] } } });
    const mine = contentLines("remote-1");
    // The credential check, then the query itself: both real HTTP requests to the subgraph.
    expect(mine.filter((l) => l.method === "POST" && l.url === "/graphql").length).toBeGreaterThanOrEqual(2);
    expect(mine.some((l) => l.inProcess)).toBe(false);
  });

  test("answers as the in-process way does, errors included", async () => {
    for (const [query, signedIn] of [[DRAFTS, false], [DRAFTS, true], [MISSING, false]] as const) {
      expect(await ask(remote.url, "remote-2", query, signedIn)).toEqual(await ask(s.url, "local-4", query, signedIn));
    }
  });
});

describe("/ready", () => {
  test("answers 200 when every subgraph's /health answers, and 503 naming the one that does not and why", async () => {
    const ready = await fetch(`${remote.url}/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready", subgraphs: { content: "ok", extensions: "ok", gateway: "ok" } }]);
    const closed = `http://127.0.0.1:${await freePort()}/graphql`;
    const partial = await startRouter({ ...s.config, port: 0 }, SUBGRAPHS.map((d, i) => ({ name: d.name, typeDefs: d.typeDefs, url: d.name === "gateway" ? closed : s.subgraphs[i].url })));
    try {
      const notReady = await fetch(`${partial.url}/ready`);
      expect([notReady.status, await notReady.json()]).toEqual([
        503, { status: "not ready", subgraphs: { content: "ok", extensions: "ok", gateway: expect.stringContaining("ECONNREFUSED") } },
      ]);
    } finally {
      await partial.stop();
    }
  });
});
