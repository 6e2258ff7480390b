// `npm run bench:faults`: fault and load checks on real processes, printed as figures (a script, never
// part of `npm test`). Each section starts its own processes on loopback ports and fresh data, and
// removes them afterwards. Every loop is bounded in count and in time.
// 1. kill -9 during a write burst loses no acknowledged write (PGlite, and PostgreSQL when it answers).
// 2. A subgraph stopped mid-load: partial data, errors only for its fields, time to full answers.
// 3. SIGTERM during load: requests already in flight complete.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./lib/ports.ts";

const root = path.resolve(import.meta.dirname, "..");
const PASSWORD = "faults faults faults faults faults";
const ADMIN = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}`;
const PG_BASE = "postgres://postgres@127.0.0.1:5432/test";
// The bench's own environment: none of the caller's database or subgraph settings leak in.
const { DATABASE_URL: _d, CONTENT_URL: _c, EXTENSIONS_URL: _e, GATEWAY_URL: _g, ...inherited } = process.env;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children = new Set<ChildProcess>();
const tempDirs: string[] = [];
const schemas: string[] = [];


/** `npm run <script>` in its own process group (so kill -9 reaches node, not only npm); resolves once `ready` is printed. */
async function start(script: string, env: Record<string, string>, ready: RegExp, timeoutMs = 120_000): Promise<ChildProcess> {
  const child = spawn("npm", ["run", "--silent", script], {
    cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"],
    env: { ...inherited, LOG_LEVEL: "warn", ADMIN_APP_PASSWORD: PASSWORD, SECRET_KEY: "faults-bench-secret-key-0123456789abcdef", ...env },
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => { output += chunk.toString(); });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script}: not ready within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) { clearTimeout(timer); resolve(); }
    });
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`${script} exited (${code}) before it was ready:\n${output}`)); });
  });
  return child;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Waits (bounded) for the process to end; resolves with its exit code, or "still running". */
function waitExit(child: ChildProcess, timeoutMs: number): Promise<number | string | null> {
  if (exited(child)) return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("still running"), timeoutMs);
    child.once("exit", (code, signal) => { clearTimeout(timer); resolve(code ?? signal); });
  });
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (exited(child) || !child.pid) return;
  try { process.kill(-child.pid, "SIGKILL"); } catch { /* already gone */ }
  await waitExit(child, 10_000);
}

function cleanup(): void {
  for (const child of children) if (child.pid && !exited(child)) { try { process.kill(-child.pid, "SIGKILL"); } catch { /* gone */ } }
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
}
process.on("exit", cleanup);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 2000 });
  try { await client.connect(); await client.query("SELECT 1"); return true; } catch { return false; } finally { await client.end().catch(() => {}); }
}

function freshSchema(): string {
  const schema = `bench_faults_${crypto.randomBytes(4).toString("hex")}`;
  schemas.push(schema);
  return schema;
}

async function dropSchemas(): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } catch (error) { console.log(`  (could not drop bench schemas: ${String(error)})`); } finally { await client.end().catch(() => {}); }
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-faults-"));
  tempDirs.push(dir);
  return dir;
}

const jsonHeaders = { "content-type": "application/json" };
const withTimeout = (ms: number) => AbortSignal.timeout(ms);

// ---------------------------------------------------------------------------------------------
// 1. kill -9 during a write burst
// ---------------------------------------------------------------------------------------------

async function killDuringBurst(label: string, env: Record<string, string>): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const systemEnv = { ...env, PORT: String(port), CONTENT_PORT: "0", EXTENSIONS_PORT: "0", GATEWAY_PORT: "0" };
  let system = await start("start", systemEnv, /subgraph gateway\s+\S+/);

  const CONCURRENCY = 8;
  const MAX_REQUESTS = 5000; // bounds the burst in count…
  const BURST_MS = 30_000; // …and in time, should the kill never come
  const KILL_AFTER_ACKS = 1000; // kill once this many writes are acknowledged (or at KILL_AFTER_MS)
  const KILL_AFTER_MS = 15_000;
  const acknowledged: number[] = [];
  let sent = 0;
  let refused = 0;
  let killed = false;
  const began = performance.now();
  const worker = async () => {
    while (sent < MAX_REQUESTS && performance.now() - began < BURST_MS) {
      const n = sent++;
      try {
        const response = await fetch(`${base}/wp-json/core/v2/posts`, {
          method: "POST", headers: { ...jsonHeaders, authorization: ADMIN },
          body: JSON.stringify({ title: `burst ${n}`, content: `written by the kill -9 bench, ${n}`, status: "publish" }),
          signal: withTimeout(15_000),
        });
        const text = await response.text();
        if (response.status === 201) acknowledged.push((JSON.parse(text) as { id: number }).id);
        else refused++;
      } catch {
        if (killed) return; // the process is gone: the connection errors are the kill, not a refusal
        refused++;
      }
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, worker);
  const killer = (async () => {
    while (!killed && acknowledged.length < KILL_AFTER_ACKS && performance.now() - began < KILL_AFTER_MS) await sleep(10);
    killed = true;
    await killGroup(system);
  })();
  await Promise.all([killer, ...workers]);
  const burstMs = performance.now() - began;

  const restartBegan = performance.now();
  system = await start("start", systemEnv, /subgraph gateway\s+\S+/);
  const restartMs = performance.now() - restartBegan;
  let lost = 0;
  const missing: number[] = [];
  for (let i = 0; i < acknowledged.length; i += 16) {
    const answers = await Promise.all(acknowledged.slice(i, i + 16).map(async (id) => {
      const response = await fetch(`${base}/wp-json/core/v2/posts/${id}?context=edit`, { headers: { authorization: ADMIN }, signal: withTimeout(15_000) });
      await response.arrayBuffer();
      return { id, ok: response.status === 200 };
    }));
    for (const answer of answers) if (!answer.ok) { lost++; missing.push(answer.id); }
  }
  const total = await fetch(`${base}/wp-json/core/v2/posts?per_page=1`, { headers: { authorization: ADMIN } });
  await total.arrayBuffer();
  console.log(`  ${label}: sent ${sent} creates (concurrency ${CONCURRENCY}) in ${(burstMs / 1000).toFixed(1)} s, kill -9 after ${acknowledged.length} acknowledged; restarted in ${(restartMs / 1000).toFixed(1)} s`);
  console.log(`  ${label}: acknowledged ${acknowledged.length}, lost ${lost}${missing.length ? ` (ids ${missing.slice(0, 20).join(", ")})` : ""}; refused or failed before the kill ${refused}; posts stored now ${total.headers.get("x-wp-total")}`);
  await killGroup(system);
}

// ---------------------------------------------------------------------------------------------
// 2. A subgraph stopped mid-load
// ---------------------------------------------------------------------------------------------

// A content field (posts) and a nullable extensions field (languageSettings, asked as the admin so a
// full answer has no error), so a missing extensions subgraph can null only its own field.
const CROSS_QUERY = "{ posts(perPage: 5) { totalCount nodes { id } } languageSettings { defaultLang browser } }";
const EXTENSIONS_FIELDS = new Set(["languageSettings"]);

interface GraphAnswer { data?: Record<string, unknown> | null; errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[] }

async function ask(router: string): Promise<{ status: number; body?: GraphAnswer; error?: string }> {
  try {
    const response = await fetch(`${router}/graphql`, { method: "POST", headers: { ...jsonHeaders, authorization: ADMIN }, body: JSON.stringify({ query: CROSS_QUERY }), signal: withTimeout(10_000) });
    return { status: response.status, body: await response.json() as GraphAnswer };
  } catch (error) { return { status: 0, error: String(error) }; }
}

const PARTIAL_SCOPED = "partial: content data, errors with the extensions field's path";
const PARTIAL_UNSCOPED = "partial: content data, extensions field null, error without a path";
type Kind = "full" | typeof PARTIAL_SCOPED | typeof PARTIAL_UNSCOPED | "wrong";
function classify(answer: Awaited<ReturnType<typeof ask>>): Kind {
  const body = answer.body;
  const posts = body?.data?.posts as { totalCount?: number } | undefined;
  if (!body || typeof posts?.totalCount !== "number") return "wrong";
  if (!body.errors?.length) return body.data?.languageSettings ? "full" : "wrong";
  if (![...EXTENSIONS_FIELDS].every((field) => body.data?.[field] === null)) return "wrong";
  if (body.errors.every((e) => e.path !== undefined && EXTENSIONS_FIELDS.has(String(e.path[0])))) return PARTIAL_SCOPED;
  if (body.errors.every((e) => e.path === undefined)) return PARTIAL_UNSCOPED;
  return "wrong";
}

function lastFullBeforeKill(samples: { at: number; kind: Kind }[], killedAt: number, restartAt: number): string {
  const after = samples.filter((s) => s.at > killedAt && s.at < restartAt && s.kind === "full");
  return after.length ? `+${((after.at(-1)!.at - killedAt) / 1000).toFixed(2)} s` : "none after the kill";
}

async function subgraphStoppedMidLoad(): Promise<void> {
  const dbUrl = `${PG_BASE}?schema=${freshSchema()}`;
  const ports = { content: await freePort(), extensions: await freePort(), gateway: await freePort(), router: await freePort() };
  const common = { DATABASE_URL: dbUrl, CONTENT_PORT: String(ports.content), EXTENSIONS_PORT: String(ports.extensions), GATEWAY_PORT: String(ports.gateway) };
  // One after the other: each applies the migrations to the shared schema on start.
  const content = await start("start:content", common, /ready at/);
  let extensions = await start("start:extensions", common, /ready at/);
  const gateway = await start("start:gateway", common, /ready at/);
  const sub = (port: number) => `http://127.0.0.1:${port}/graphql`;
  const router = await start("start", {
    ...common, PORT: String(ports.router),
    CONTENT_URL: sub(ports.content), EXTENSIONS_URL: sub(ports.extensions), GATEWAY_URL: sub(ports.gateway),
  }, /Router ready at/);
  const base = `http://127.0.0.1:${ports.router}`;

  type Sample = { at: number; kind: Kind; answer: Awaited<ReturnType<typeof ask>> };
  const samples: Sample[] = [];
  let stop = false;
  const began = performance.now();
  const LOAD_MS = 60_000; // hard bound on the load loop
  const MAX_SAMPLES = 50_000;
  const load = async () => {
    while (!stop && samples.length < MAX_SAMPLES && performance.now() - began < LOAD_MS) {
      const answer = await ask(base);
      samples.push({ at: performance.now(), kind: classify(answer), answer });
    }
  };
  const loaders = Array.from({ length: 4 }, load);

  await sleep(3_000);
  const killedAt = performance.now();
  await killGroup(extensions);
  await sleep(4_000);
  const restartAt = performance.now();
  extensions = await start("start:extensions", common, /ready at/);
  const readyAt = performance.now();
  // Full answers again: the first full answer after the restart began, then 2 s more of load.
  let recoveredAt: number | undefined;
  for (let i = 0; i < 2000 && performance.now() - restartAt < 30_000; i++) {
    const full = samples.find((s) => s.at > readyAt && s.kind === "full");
    if (full) { recoveredAt = full.at; break; }
    await sleep(20);
  }
  await sleep(2_000);
  stop = true;
  await Promise.all(loaders);

  const count = (from: number, to: number) => {
    const tally = new Map<string, number>();
    for (const s of samples) if (s.at >= from && s.at < to) tally.set(s.kind, (tally.get(s.kind) ?? 0) + 1);
    return [...tally].map(([kind, n]) => `${kind} ${n}`).join(", ") || "none";
  };
  const down = samples.filter((s) => s.at > killedAt + 200 && s.at < restartAt);
  const example = down.find((s) => s.kind !== "full" && s.kind !== "wrong")?.answer.body;
  const wrong = samples.find((s) => s.kind === "wrong")?.answer;
  console.log(`  answers with every subgraph up:     ${count(0, killedAt)}`);
  console.log(`  answers while extensions was down:  ${count(killedAt, restartAt)}`);
  if (example) {
    console.log(`  e.g. posts.totalCount ${(example.data?.posts as { totalCount: number }).totalCount}, errors ${JSON.stringify(example.errors?.map((e) => ({ path: e.path, code: e.extensions?.code, message: e.message })))}`);
  }
  if (wrong) console.log(`  e.g. of a wrong answer: HTTP ${wrong.status} ${wrong.error ?? JSON.stringify(wrong.body).slice(0, 300)}`);
  console.log(`  answers after the restart began:    ${count(restartAt, Infinity)}`);
  console.log(`  extensions process start to ready ${((readyAt - restartAt) / 1000).toFixed(2)} s; kill to last full answer ${lastFullBeforeKill(samples, killedAt, restartAt)}; subgraph ready to first full answer ${recoveredAt ? `${((recoveredAt - readyAt) / 1000).toFixed(2)} s` : "never (within 30 s)"}`);
  const afterRecovery = recoveredAt === undefined ? [] : samples.filter((s) => s.at > recoveredAt!);
  console.log(`  after recovery: ${afterRecovery.filter((s) => s.kind === "full").length} of ${afterRecovery.length} answers full`);
  for (const child of [router, extensions, gateway, content]) await killGroup(child);
}

// ---------------------------------------------------------------------------------------------
// 3. SIGTERM during load
// ---------------------------------------------------------------------------------------------

interface Outcome { connectedAt?: number; status?: number; error?: string; body?: string }

/** One request on its own connection, so "in flight" is exact: the connection was accepted before the signal. */
function request(url: string, method: string, body: string | undefined, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = {};
    const req = http.request(url, { method, agent: false, headers: body ? { ...headers, "content-length": Buffer.byteLength(body) } : headers, timeout: 30_000 });
    req.on("socket", (socket) => socket.once("connect", () => { outcome.connectedAt = performance.now(); }));
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => { if (text.length < 300) text += chunk.toString(); });
      res.on("end", () => resolve({ ...outcome, status: res.statusCode, body: (res.statusCode ?? 0) >= 500 ? text.slice(0, 200) : undefined })); res.on("error", (e) => resolve({ ...outcome, error: e.message })); });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ ...outcome, error: e.code ?? e.message }));
    req.end(body);
  });
}

async function drainOnSigterm(): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const system = await start("start", { DATA_DIR: tempDir(), PORT: String(port), CONTENT_PORT: "0", EXTENSIONS_PORT: "0", GATEWAY_PORT: "0" }, /subgraph gateway\s+\S+/);
  // A mix of slower requests (writes with a password check, a cross-subgraph list) and quick reads.
  const kinds = [
    () => request(`${base}/wp-json/core/v2/posts`, "POST", JSON.stringify({ title: "drain", status: "publish" }), { ...jsonHeaders, authorization: ADMIN }),
    () => request(`${base}/graphql`, "POST", JSON.stringify({ query: "{ posts(perPage: 50) { nodes { id title author { name } categories { name } } } }" }), jsonHeaders),
    () => request(`${base}/wp-json/core/v2/posts?per_page=20`, "GET", undefined, {}),
  ];
  const outcomes: Outcome[] = [];
  let signalAt = Infinity;
  let n = 0;
  const began = performance.now();
  const MAX_REQUESTS = 20_000;
  const LOAD_MS = 40_000;
  const worker = async () => {
    // Keeps sending after the signal (bounded) so requests meet every phase of the shutdown.
    while (n < MAX_REQUESTS && performance.now() - began < LOAD_MS && performance.now() - signalAt < 1_000) {
      outcomes.push(await kinds[n++ % kinds.length]());
    }
  };
  const workers = Array.from({ length: 16 }, worker);
  await sleep(4_000);
  signalAt = performance.now();
  system.kill("SIGTERM"); // to npm, as `docker stop` does; npm forwards it to the server
  await Promise.all(workers);
  const code = await waitExit(system, 30_000);
  const stoppedMs = performance.now() - signalAt;
  if (code === "still running") await killGroup(system);

  const ok = (o: Outcome) => o.status !== undefined && o.status < 500;
  const before = outcomes.filter((o) => o.connectedAt !== undefined && o.connectedAt < signalAt);
  const after = outcomes.filter((o) => !(o.connectedAt !== undefined && o.connectedAt < signalAt));
  const reasons = (list: Outcome[]) => {
    const tally = new Map<string, number>();
    for (const o of list) if (!ok(o)) { const key = o.error ?? `HTTP ${o.status}`; tally.set(key, (tally.get(key) ?? 0) + 1); }
    return [...tally].map(([k, v]) => `${k} ${v}`).join(", ") || "none";
  };
  console.log(`  ${outcomes.length} requests (16 at a time, 1 in 3 a write); SIGTERM after ${((signalAt - began) / 1000).toFixed(1)} s; exit code ${code} after ${(stoppedMs / 1000).toFixed(2)} s`);
  console.log(`  connected before SIGTERM: ${before.length}, completed ${before.filter(ok).length}, failed ${before.filter((o) => !ok(o)).length} (${reasons(before)})`);
  const failedBefore = before.filter((o) => !ok(o));
  if (failedBefore.length) {
    const gaps = failedBefore.map((o) => signalAt - o.connectedAt!);
    console.log(`  the failed ones connected ${Math.min(...gaps).toFixed(1)}–${Math.max(...gaps).toFixed(1)} ms before the signal`);
    for (const body of new Set(failedBefore.flatMap((o) => o.body ? [o.body] : []))) console.log(`  5xx body: ${body}`);
  }
  console.log(`  sent after SIGTERM: ${after.length}, answered ${after.filter(ok).length}, refused ${after.filter((o) => !ok(o)).length} (${reasons(after)}) — refusals here are expected`);
}

// ---------------------------------------------------------------------------------------------

// FAULTS_SECTIONS=2,3 runs only those sections (all by default).
const only = (process.env.FAULTS_SECTIONS ?? "1,2,3").split(",").map((x) => x.trim());
const postgres = await postgresAnswers();
try {
  if (only.includes("1")) {
    console.log("1. kill -9 during a write burst");
    await killDuringBurst("PGlite", { DATA_DIR: tempDir() });
    if (postgres) await killDuringBurst("PostgreSQL", { DATA_DIR: tempDir(), DATABASE_URL: `${PG_BASE}?schema=${freshSchema()}` });
    else console.log(`  PostgreSQL: skipped (nothing answers at ${PG_BASE})`);
  }
  if (only.includes("2")) {
    console.log("2. extensions subgraph stopped mid-load (separate processes on PostgreSQL)");
    if (postgres) await subgraphStoppedMidLoad();
    else console.log(`  skipped: separate subgraph processes need PostgreSQL, and nothing answers at ${PG_BASE}`);
  }
  if (only.includes("3")) {
    console.log("3. SIGTERM during load (PGlite, one process)");
    await drainOnSigterm();
  }
} finally {
  for (const child of [...children]) await killGroup(child);
  await dropSchemas();
  cleanup();
}
