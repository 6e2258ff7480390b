// `npm run bench:scale-out`: what more processes buy, measured side by side in one run.
//   embedded    `npm start` on the 500-post PGlite site with WORKERS=1 (everything in one process)
//               and WORKERS=2 (the database and subgraphs in one process, two router workers on the
//               shared port): GET posts with the read cache off and on, and POST creates, at 10 and
//               50 connections; CPU time per request and cores busy (summed over every process, so
//               the figures mean something on a loaded machine too), RSS at rest and at its peak.
//   postgresql  separate processes on PostgreSQL: 2 content subgraphs, extensions, gateway and
//               2 routers, each router in front of its own content process. The same load sent to
//               1 router, then split over 2 (both at once, req/s summed).
// SCALE_OUT_SECTIONS (default "embedded,postgresql"), BENCH_SECONDS per wrk run (default 10).
// PostgreSQL: DATABASE_URL if it is a postgres:// URL, else postgres://postgres@127.0.0.1:5432/test;
// the section works in a fresh schema bench_<hex>, dropped at the end, and is skipped if nobody answers.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import pg from "pg";
import { load, uniquePostScript, type Load } from "./lib/load-wrk.ts";
import { ADMIN_PASSWORD, freshSite } from "./lib/site-500.ts";
import { freePort, processTree, sampleRss, spawnGroup, startStack, stopGroup, treeRss, waitFor200, type TreeRss } from "./lib/stack-process.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SECTIONS = new Set((process.env.SCALE_OUT_SECTIONS ?? "embedded,postgresql").split(",").map((s) => s.trim()));
const CONNECTIONS = [10, 50];
const log = (line: string) => console.log(line);
const ADMIN_AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
const POSTS = "/wp-json/core/v2/posts";

/** What is loaded: a list page (what a read cache serves most), and creates with unique titles. */
interface Case { name: "list" | "create"; label: string; script?: string }
const LIST: Case = { name: "list", label: "GET posts (10 per page)" };
const CREATE: Case = {
  name: "create", label: "POST posts (create)",
  script: uniquePostScript(`'{"title":"Scale-out post ' .. key .. '","content":"<p>Written by npm run bench:scale-out.</p>","status":"publish"}'`, { "Content-Type": "application/json", Authorization: ADMIN_AUTH }),
};
const fixed = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const ratio = (after: number, before: number) => `${(after / before).toFixed(2)}x`;
const mb = (r: TreeRss) => `${r.serverMb.toFixed(0)} MB (${r.processes} processes)`;

log(`npm run bench:scale-out — ${new Date().toISOString()}, Node ${process.version}, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}; wrk ${SECONDS} s per run, keep-alive`);

/** One request of the case, as wrk will send it: a case that fails gives no figure worth printing. */
async function probe(url: string, row: Case): Promise<string | undefined> {
  const response = await fetch(url, row.name === "create"
    ? { method: "POST", headers: { "content-type": "application/json", authorization: ADMIN_AUTH }, body: JSON.stringify({ title: "Scale-out probe", status: "publish" }) }
    : {});
  const text = await response.text();
  return response.ok ? undefined : `HTTP ${response.status}: ${text.slice(0, 300)}`;
}

/** One wrk run against a layout, with what it cost: CPU time of the whole process tree and its RSS. */
interface Run {
  row: Case; connections: number; load: Load; rss: TreeRss;
  /** CPU time per answered request: summed over every process, and of the busiest process alone. */
  cpuMsPerRequest: number; busiestMsPerRequest: number;
  /** CPU seconds per second of the run: the cores this layout got on this (maybe loaded) machine. */
  coresBusy: number;
}
/** One layout of `npm start` on a fresh copy of the 500-post site. */
interface Layout { workers: number; cache: "off" | "on"; readyMs: number; atRest: TreeRss; peak: TreeRss; runs: Run[] }

/** CPU seconds (user + system) used so far by each process of the tree under `pid`. */
function cpuSeconds(pid: number): Map<number, number> {
  const used = new Map<number, number>();
  for (const each of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${each}/stat`, "utf8");
      // Fields after the command name: utime and stime are the 14th and 15th of the line.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      used.set(each, (Number(fields[11]) + Number(fields[12])) / 100); // USER_HZ
    } catch { /* ended meanwhile */ }
  }
  return used;
}

/**
 * The most requests per second `run` could reach on `cores` idle cores: each process is one
 * JavaScript thread (the busiest caps it), and all of them share the cores.
 */
const ceiling = (run: Run, cores: number) => Math.min(1000 / run.busiestMsPerRequest, (cores * 1000) / run.cpuMsPerRequest);

async function embeddedLayout(workers: number, cache: "off" | "on"): Promise<Layout> {
  const dataDir = await freshSite(log);
  const stack = await startStack(dataDir, { WORKERS: String(workers), ...(cache === "off" ? { READ_CACHE_TTL_MS: "0" } : {}) });
  try {
    log(`\n### WORKERS=${workers}, read cache ${cache}: ready in ${(stack.readyMs / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const atRest = treeRss(stack.child);
    // Every process compiles its hot paths (and every worker fills its cache) before the figures count.
    await load({ url: `${stack.url}${POSTS}`, connections: 10, seconds: 3 });
    const runs: Run[] = [];
    // Creates once per layout, with the cache off (they go to the database either way).
    for (const row of cache === "off" ? [LIST, CREATE] : [LIST]) {
      const failure = await probe(`${stack.url}${POSTS}`, row);
      if (failure) { log(`  ${row.label}: skipped, the request fails: ${failure}`); continue; }
      for (const connections of CONNECTIONS) {
        const sampler = sampleRss(stack.child);
        const [before, began] = [cpuSeconds(stack.child.pid!), performance.now()];
        const result = await load({ url: `${stack.url}${POSTS}`, connections, seconds: SECONDS, script: row.script });
        const used = [...cpuSeconds(stack.child.pid!)].map(([pid, seconds]) => seconds - (before.get(pid) ?? 0));
        const cpu = used.reduce((sum, seconds) => sum + seconds, 0);
        const run: Run = {
          row, connections, load: result, rss: sampler.stop(),
          cpuMsPerRequest: (cpu * 1000) / result.requests, busiestMsPerRequest: (Math.max(...used) * 1000) / result.requests,
          coresBusy: cpu / ((performance.now() - began) / 1000),
        };
        runs.push(run);
        const faults = result.non2xx || result.errors ? `, ${result.non2xx} non-2xx, ${result.errors} socket errors` : "";
        log(`  ${row.label} @${connections}: ${fixed(result.reqPerSec)} req/s, p99 ${fixed(result.p99Ms)} ms, ${run.cpuMsPerRequest.toFixed(2)} ms CPU per request (busiest process ${run.busiestMsPerRequest.toFixed(2)}), ${run.coresBusy.toFixed(2)} cores busy${faults}`);
      }
    }
    const peak = runs.reduce((top, m) => (m.rss.serverMb > top.serverMb ? m.rss : top), atRest);
    return { workers, cache, readyMs: stack.readyMs, atRest, peak, runs };
  } finally {
    await stack.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function embedded(): Promise<void> {
  log("\n## Embedded database (PGlite): one process vs a database process and two router workers");
  const layouts: Layout[][] = [];
  for (const cache of ["off", "on"] as const) layouts.push([await embeddedLayout(1, cache), await embeddedLayout(2, cache)]);
  const cores = os.availableParallelism();
  log(`\nCeiling: the req/s the CPU per request allows on ${cores} idle cores (the busiest process is one thread; all share the cores).`);
  log(`\n| case | conns | req/s 1 → 2 workers | 2 / 1 | CPU ms per request 1 → 2 | busiest process 1 → 2 | cores busy 1 → 2 | ceiling req/s 1 → 2 | p99 ms 1 → 2 |`);
  log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const [one, two] of layouts) {
    for (const a of one.runs) {
      const b = two.runs.find((m) => m.row.name === a.row.name && m.connections === a.connections);
      if (!b) continue;
      log(`| ${a.row.label}, read cache ${one.cache} | ${a.connections} | ${fixed(a.load.reqPerSec)} → ${fixed(b.load.reqPerSec)} | ${ratio(b.load.reqPerSec, a.load.reqPerSec)} | ${a.cpuMsPerRequest.toFixed(2)} → ${b.cpuMsPerRequest.toFixed(2)} | ${a.busiestMsPerRequest.toFixed(2)} → ${b.busiestMsPerRequest.toFixed(2)} | ${a.coresBusy.toFixed(2)} → ${b.coresBusy.toFixed(2)} | ${fixed(ceiling(a, cores))} → ${fixed(ceiling(b, cores))} | ${fixed(a.load.p99Ms)} → ${fixed(b.load.p99Ms)} |`);
    }
  }
  log("\n| layout | ready | RSS at rest | RSS peak under load |");
  log("|---|---:|---:|---:|");
  for (const l of layouts.flat()) log(`| WORKERS=${l.workers}, read cache ${l.cache} | ${(l.readyMs / 1000).toFixed(1)} s | ${mb(l.atRest)} | ${mb(l.peak)} |`);
}

const PG_URL = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : "postgres://postgres@127.0.0.1:5432/test";

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
  try { await client.connect(); return true; } catch { return false; } finally { await client.end().catch(() => {}); }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try { await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`); } finally { await client.end(); }
}

/** Sends `connections` spread over `urls` at once (wrk per URL); req/s summed, the worst p99. */
async function spread(urls: string[], connections: number, script?: string): Promise<Load> {
  const loads = await Promise.all(urls.map((url) => load({ url, connections: connections / urls.length, seconds: SECONDS, script })));
  return loads.reduce((sum, l) => ({
    reqPerSec: sum.reqPerSec + l.reqPerSec, p50Ms: Math.max(sum.p50Ms, l.p50Ms), p99Ms: Math.max(sum.p99Ms, l.p99Ms),
    requests: sum.requests + l.requests, non2xx: sum.non2xx + l.non2xx, errors: sum.errors + l.errors,
  }));
}

async function postgresql(): Promise<void> {
  log("\n## PostgreSQL: separate processes, 1 router vs 2 routers (each in front of its own content process)");
  if (!(await postgresAnswers())) { log(`skipped: nothing answers at ${PG_URL}`); return; }
  const schema = `bench_${crypto.randomBytes(4).toString("hex")}`;
  const url = new URL(PG_URL);
  url.searchParams.set("schema", schema);
  const common = { DATABASE_URL: url.toString(), SECRET_KEY: "scale-out-bench-secret-key-0123456789", ADMIN_APP_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: "silent", DATA_DIR: fs.mkdtempSync(`${os.tmpdir()}/bench-scale-out-`) };
  const groups: ReturnType<typeof spawnGroup>[] = [];
  /** One npm script as its own process group, ready once `healthUrl` answers 200. */
  const start = async (script: string, env: Record<string, string>, healthUrl: string) => {
    const group = spawnGroup("npm", ["run", "--silent", script], { ...common, ...env });
    groups.push(group);
    await waitFor200(healthUrl, group.child, group.output);
    return group;
  };
  try {
    // The demo content (20 posts) and the first-start install, before any server runs.
    const seed = spawnGroup("npm", ["run", "--silent", "seed"], common);
    const seeded = await new Promise<number | null>((resolve) => seed.child.once("exit", resolve));
    if (seeded !== 0) throw new Error(`npm run seed failed:\n${seed.output()}`);
    const port = async () => String(await freePort());
    const [content1, content2, extensions, gateway, router1, router2] = await Promise.all(Array.from({ length: 6 }, port));
    const subgraph = (p: string) => `http://127.0.0.1:${p}`;
    /** Where a router (and a subgraph asking a peer, e.g. extensions asking content about a post) finds each subgraph. */
    const urls = (content: string) => ({
      CONTENT_URL: `${subgraph(content)}/graphql`, EXTENSIONS_URL: `${subgraph(extensions)}/graphql`, GATEWAY_URL: `${subgraph(gateway)}/graphql`,
    });
    // The first alone: npm start rebuilds dist/ when sources are newer, and once is enough.
    await start("start:content", { CONTENT_PORT: content1, ...urls(content1) }, `${subgraph(content1)}/health`);
    await Promise.all([
      start("start:content", { CONTENT_PORT: content2, ...urls(content2) }, `${subgraph(content2)}/health`),
      start("start:extensions", { EXTENSIONS_PORT: extensions, ...urls(content1) }, `${subgraph(extensions)}/health`),
      start("start:gateway", { GATEWAY_PORT: gateway, ...urls(content1) }, `${subgraph(gateway)}/health`),
    ]);
    const router = (p: string, content: string) => start("start", { PORT: p, ...urls(content) }, `http://127.0.0.1:${p}/ready`);
    await Promise.all([router(router1, content1), router(router2, content2)]);
    const routers = [router1, router2].map((p) => `http://127.0.0.1:${p}${POSTS}`);

    const rows: string[] = [];
    for (const row of [LIST, CREATE]) {
      const { label, script } = row;
      const failure = (await probe(routers[0], row)) ?? (await probe(routers[1], row));
      if (failure) { log(`  ${label}: skipped, the request fails: ${failure}`); continue; }
      for (const connections of CONNECTIONS) {
        const one = await spread(routers.slice(0, 1), connections, script);
        const two = await spread(routers, connections, script);
        const faults = [one, two].some((l) => l.non2xx || l.errors) ? ` (non-2xx ${one.non2xx}/${two.non2xx}, socket errors ${one.errors}/${two.errors})` : "";
        log(`  ${label} @${connections}: 1 router ${fixed(one.reqPerSec)} req/s, 2 routers ${fixed(two.reqPerSec)} req/s${faults}`);
        rows.push(`| ${label} | ${connections} | ${fixed(one.reqPerSec)} | ${fixed(two.reqPerSec)} | ${ratio(two.reqPerSec, one.reqPerSec)} | ${fixed(one.p99Ms)} → ${fixed(two.p99Ms)} |`);
      }
    }
    log("\n| case | conns | 1 router req/s | 2 routers req/s | 2 / 1 | p99 ms 1 → 2 |\n|---|---:|---:|---:|---:|---:|");
    for (const row of rows) log(row);
    log(`\nRSS now: ${groups.map((g, i) => `${["content 1", "content 2", "extensions", "gateway", "router 1", "router 2"][i]} ${treeRss(g.child).serverMb.toFixed(0)} MB`).join(", ")}`);
  } finally {
    await Promise.all(groups.map((g) => stopGroup(g.child)));
    await dropSchema(schema).catch((error: unknown) => log(`(could not drop schema ${schema}: ${String(error)})`));
    fs.rmSync(common.DATA_DIR, { recursive: true, force: true });
  }
}

if (SECTIONS.has("embedded")) await embedded();
if (SECTIONS.has("postgresql")) await postgresql();
