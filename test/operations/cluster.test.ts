// `npm start` with WORKERS=2 on the embedded database: one process owns PGlite and the subgraphs,
// two router processes share the public port (router/cluster.ts). Each client here holds its own
// keep-alive connection, and the cluster hands connections to workers in turn, so clients reach
// different processes, as browsers do.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-test-"));
const ADMIN = `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}`;
let npm: ChildProcess;
let output = "";
let url: string;
let workerPids: number[];

/** Waits until what `npm start` printed from offset `from` on matches `pattern`; rejects if it exits first. */
function printed(pattern: RegExp, from = 0, timeoutMs = 150_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(output.slice(from));
      if (!match) return;
      npm.stdout!.off("data", check);
      clearTimeout(timer);
      resolve(match);
    };
    const timer = setTimeout(() => reject(new Error(`not printed within ${timeoutMs} ms: ${pattern}\n${output}`)), timeoutMs);
    npm.stdout!.on("data", check);
    npm.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
    check();
  });
}

const pidsIn = (line: string) => line.split(", ").map(Number);
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

interface Answer { status: number; worker: string; cache: string; body: any }

/** A client with one keep-alive connection of its own. */
function client() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(new URL(pathname, url), {
        method, agent, headers: { ...headers, ...(text ? { "content-type": "application/json", "content-length": Buffer.byteLength(text) } : {}) },
      }, (res) => {
        let data = "";
        res.setEncoding("utf8").on("data", (chunk: string) => { data += chunk; }).on("end", () => resolve({
          status: res.statusCode!, worker: String(res.headers["x-router-worker"]), cache: String(res.headers["x-cache"]),
          body: data && /json/.test(res.headers["content-type"] ?? "") ? JSON.parse(data) : data,
        }));
      });
      req.on("error", reject);
      req.end(text);
    });
  return { request, close: () => agent.destroy() };
}
type Client = ReturnType<typeof client>;

beforeAll(async () => {
  const { DATABASE_URL, CONTENT_URL, EXTENSIONS_URL, GATEWAY_URL, ...inherited } = process.env;
  npm = spawn("npm", ["start"], {
    cwd: root,
    env: {
      ...inherited, WORKERS: "2", DATA_DIR: dataDir, PORT: "0", CONTENT_PORT: "0", EXTENSIONS_PORT: "0", GATEWAY_PORT: "0",
      LOG_LEVEL: "warn", ADMIN_APP_PASSWORD: "abcd EFGH ijkl MNOP qrst UVWX",
    },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true, // its own process group, so afterAll can end every process of it
  });
  npm.stdout!.on("data", (chunk: Buffer) => { output += chunk.toString(); });
  const [, router, pids] = await printed(/GraphQL \(Apollo Sandbox\): (\S+)\/graphql[\s\S]*router workers ([\d, ]+) \(/);
  url = router;
  workerPids = pidsIn(pids);
}, 180_000);

afterAll(() => {
  if (npm?.exitCode === null && npm.pid) process.kill(-npm.pid, "SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("the banner names one database process and two router workers; clients are answered by both", async () => {
  expect(workerPids).toHaveLength(2);
  expect(workerPids.every(alive)).toBe(true);
  const clients = Array.from({ length: 4 }, client);
  const answers = await Promise.all(clients.map((c) => c.request("GET", "/ready")));
  for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { status: "ready" } });
  expect(new Set(answers.map((a) => a.worker)).size).toBe(2);
  for (const c of clients) c.close();
});

test("a write through one worker is read at once through every other connection, cached answers included", async () => {
  const [writer, ...readers] = Array.from({ length: 5 }, client);
  const titles = async (reader: Client) => {
    const [rest, graphql] = await Promise.all([
      reader.request("GET", "/wp-json/core/v2/posts?per_page=100"),
      reader.request("POST", "/graphql", { query: "{ posts(perPage: 100) { nodes { databaseId title { rendered } } } }" }),
    ]);
    expect(rest.status).toBe(200);
    expect(graphql.status).toBe(200);
    return {
      rest: (rest.body as { id: number; title: { rendered: string } }[]).map((p) => `${p.id} ${p.title.rendered}`).sort(),
      graphql: (graphql.body.data.posts.nodes as { databaseId: number; title: { rendered: string } }[]).map((p) => `${p.databaseId} ${p.title.rendered}`).sort(),
      workers: [rest.worker, graphql.worker],
    };
  };
  // Every reader's worker holds the list in its cache before the write.
  for (const reader of readers) await titles(reader);
  const warm = await Promise.all(readers.map((r) => r.request("GET", "/wp-json/core/v2/posts?per_page=100")));
  expect(warm.map((a) => a.cache)).toEqual(readers.map(() => "HIT"));
  expect(new Set(warm.map((a) => a.worker)).size).toBe(2);

  const created = await writer.request("POST", "/wp-json/core/v2/posts", { title: "Seen everywhere", status: "publish" }, { authorization: ADMIN });
  expect(created.status).toBe(201);
  for (const reader of readers) {
    const seen = await titles(reader);
    expect(seen.rest).toContain(`${created.body.id} Seen everywhere`);
    expect(seen.graphql).toContain(`${created.body.id} Seen everywhere`);
  }

  const renamed = await writer.request("POST", `/wp-json/core/v2/posts/${created.body.id}`, { title: "Renamed everywhere" }, { authorization: ADMIN });
  expect(renamed.status).toBe(200);
  for (const reader of readers) {
    const seen = await titles(reader);
    expect(seen.rest).toContain(`${created.body.id} Renamed everywhere`);
    expect(seen.graphql).toContain(`${created.body.id} Renamed everywhere`);
  }

  // A GraphQL mutation invalidates the other workers' caches too.
  const deleted = await writer.request("POST", "/graphql", { query: `mutation { deletePost(id: ${created.body.id}, force: true) { deleted } }` }, { authorization: ADMIN });
  expect(deleted.body.errors).toBeUndefined();
  for (const reader of readers) {
    const seen = await titles(reader);
    expect(seen.rest.some((t) => t.startsWith(`${created.body.id} `))).toBe(false);
    expect(seen.graphql.some((t) => t.startsWith(`${created.body.id} `))).toBe(false);
  }
  for (const c of [writer, ...readers]) c.close();
});

test("a killed router worker is replaced, and the port keeps answering meanwhile", async () => {
  const [killed, survivor] = workerPids;
  const before = output.length;
  process.kill(killed, "SIGKILL");
  await printed(new RegExp(`Router worker ${killed} exited \\(SIGKILL\\); starting another\\.`), before);
  // Until the replacement listens, every connection reaches the survivor.
  const clients = Array.from({ length: 4 }, client);
  const meanwhile = await Promise.all(clients.map((c) => c.request("GET", "/wp-json/core/v2/posts")));
  expect(meanwhile.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  expect(new Set(meanwhile.map((a) => a.worker)).size).toBe(1);

  const [, now] = await printed(/Router workers now: ([\d, ]+)\./, before);
  const replaced = pidsIn(now);
  expect(replaced).toHaveLength(2);
  expect(replaced).toContain(survivor);
  expect(replaced).not.toContain(killed);
  const fresh = Array.from({ length: 4 }, client);
  const answers = await Promise.all(fresh.map((c) => c.request("GET", "/ready")));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  expect(new Set(answers.map((a) => a.worker)).size).toBe(2);
  workerPids = replaced;
  for (const c of [...clients, ...fresh]) c.close();
}, 180_000);

test("SIGTERM to npm stops every process of the cluster with exit code 0", async () => {
  const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
  npm.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(workerPids.filter(alive)).toEqual([]);
  await expect(fetch(`${url}/health`)).rejects.toThrow();
}, 60_000);
