// `npm run bench`: figures measured side by side in one run, printed as ratios (never asserted in
// tests). How to run and read it: bench/README.md. Sections (BENCH_SECTIONS, comma-separated):
//   table      the issue's REST table on `npm start` over a 500-post site, ratio to WordPress
//   ratios     router vs subgraph, REST vs GraphQL, Hive Gateway vs our router
//   footprint  RSS of the stack at rest and under load, cold start to /ready
//   in-process batch/v1 vs separate creates, SQL statements per list length (memory database)
//   wordpress  (not by default) the same rows on the real WordPress in the same run, which the table
//              then divides by instead of the issue's figures (setup: bench/README.md)
// BENCH_SECONDS: seconds per wrk run (default 20, as in the issue; 5 for a quick look).
// BENCH_CACHE: read cache modes to measure reads in, "off,on" by default (off = READ_CACHE_TTL_MS=0).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { load } from "./lib/load-wrk.ts";
import { freshSite, SITE } from "./lib/site-500.ts";
import { root, sampleRss, startStack, type Stack, type TreeRss } from "./lib/stack-process.ts";
import { measureInProcess } from "./sections/in-process.ts";
import { measureRatios } from "./sections/ratios.ts";
import { startWordPress, wordpressMissing } from "./lib/stack-wordpress.ts";
import { formatBatchRatio, formatTable, measureRows, ROWS, type Measured } from "./sections/table.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? "table,ratios,footprint,in-process").split(",").map((s) => s.trim()));
/**
 * How the stack answers repeated anonymous reads: `off` executes every request (no cache, no
 * coalescing: what the system itself costs per request); `coalesce` shares identical reads in
 * flight at once but keeps nothing (what Hive Gateway does by default); `on` is npm start's default.
 */
const MODES = {
  off: { env: { READ_CACHE_TTL_MS: "0", READ_COALESCING: "0" }, title: "off, coalescing off (READ_CACHE_TTL_MS=0 READ_COALESCING=0: every request executed)" },
  coalesce: { env: { READ_CACHE_TTL_MS: "0" }, title: "off, coalescing on (READ_CACHE_TTL_MS=0: identical reads in flight share one execution)" },
  on: { env: {}, title: "on (the default: cache and coalescing)" },
  // Not by default: `off` with PGlite on the main thread instead of its own (before the database thread).
  "off-main": { env: { READ_CACHE_TTL_MS: "0", READ_COALESCING: "0", DATABASE_THREAD: "0" }, title: "off, coalescing off, PGlite on the main thread (DATABASE_THREAD=0)" },
} as const;
type Mode = keyof typeof MODES;
/** BENCH_ROWS=create,batch measures only those rows of the table (row names in bench/sections/table.ts). */
const ROW_NAMES = process.env.BENCH_ROWS?.split(",").map((s) => s.trim());
const rows = (write: boolean) => ROWS.filter((r) => r.write === write && (!ROW_NAMES || ROW_NAMES.includes(r.name)));
const CACHE_MODES = (process.env.BENCH_CACHE ?? "off,coalesce,on").split(",").map((s) => s.trim()).filter((m): m is Mode => m in MODES);
const log = (line: string) => console.log(line);
const mb = (n: number) => `${n.toFixed(0)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function header(): void {
  const pkg = JSON.parse(fs.readFileSync(`${root}/package.json`, "utf8")) as { scripts: Record<string, string> };
  let commit = "?";
  try { commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim(); } catch { /* not a checkout */ }
  log(`npm run bench — ${new Date().toISOString()}, commit ${commit}, Node ${process.version}, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  log(`npm start runs: ${pkg.scripts.start}${process.env.WORKERS ? ` (WORKERS=${process.env.WORKERS})` : ""}`);
  log(`wrk ${SECONDS} s per run, keep-alive; site: ${SITE.posts} posts, ${SITE.authors} authors, ${SITE.categories} categories, ${SITE.tags} tags, ${SITE.images} images\n`);
}

/** The stack's RSS once it has settled after start (no request yet). */
async function restingRss(stack: Stack): Promise<TreeRss> {
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return sampleRss(stack.child).stop();
}

async function footprint(dataDir: string, atRest: TreeRss | undefined, underLoad: Measured[]): Promise<void> {
  log("\n## Footprint");
  let peak: { rss: TreeRss; label: string } | undefined;
  for (const m of underLoad) if (m.rss && (!peak || m.rss.serverMb > peak.rss.serverMb)) peak = { rss: m.rss, label: `${m.row.label} @${m.connections}` };
  if (!atRest || !peak) {
    // Run on its own: one start for the resting figure, and the table's heaviest read row for the loaded one.
    const stack = await startStack(dataDir);
    try {
      atRest = await restingRss(stack);
      const sampler = sampleRss(stack.child);
      await load({ url: `${stack.url}/wp-json/core/v2/posts?per_page=100`, connections: 50, seconds: SECONDS });
      peak = { rss: sampler.stop(), label: "GET posts?per_page=100 @50" };
    } finally { await stack.stop(); }
  }
  const describe = (r: TreeRss) => `${mb(r.serverMb)} in ${r.processes} process${r.processes === 1 ? "" : "es"} (npm's own launcher process another ${mb(r.launcherMb)})`;
  log(`RSS at rest: ${describe(atRest)}`);
  log(`RSS under load (peak, during ${peak.label}): ${describe(peak.rss)} (target ≤ 300 MB)`);
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const stack = await startStack(dataDir);
    starts.push(stack.readyMs);
    await stack.stop();
  }
  log(`Cold start, spawn of npm start to /ready 200 on the existing data directory: median ${(median(starts) / 1000).toFixed(2)} s of ${starts.map((s) => (s / 1000).toFixed(2)).join(", ")} s (target ≤ 3 s)`);
}

/** The same rows on WordPress, before our stack starts, so neither competes with the other for the cores. */
async function measureWordPress(): Promise<Measured[] | undefined> {
  const missing = wordpressMissing();
  if (missing) { log(`## WordPress: skipped, ${missing} (setup: bench/README.md)`); return undefined; }
  const wordpress = await startWordPress(log);
  try {
    log("## WordPress (nginx, php-fpm with 6 workers and opcache, MariaDB)");
    const target = { name: "WordPress", url: wordpress.url, namespace: "wp/v2" as const, auth: wordpress.auth };
    const measured = await measureRows(target, [...rows(false), ...(SECTIONS.has("table") ? rows(true) : [])], SECONDS, log);
    log(`\n${formatTable(measured, null)}`);
    return measured;
  } finally {
    await wordpress.stop();
  }
}

header();
const wordpress = SECTIONS.has("wordpress") ? await measureWordPress() : undefined;
const onStack = ["table", "ratios", "footprint"].some((s) => SECTIONS.has(s));
if (onStack) {
  const dataDir = await freshSite(log);
  try {
    const measured: Measured[] = [];
    let atRest: TreeRss | undefined;
    const modes = SECTIONS.has("table") || SECTIONS.has("ratios") ? CACHE_MODES : [];
    for (const [i, mode] of modes.entries()) {
      const stack = await startStack(dataDir, MODES[mode].env);
      try {
        if (i === 0) log(`(first start on the copied site, including any migration newer than the cached site and any build npm start runs first: ${(stack.readyMs / 1000).toFixed(2)} s)`);
        atRest ??= await restingRss(stack);
        if (SECTIONS.has("table")) {
          log(`\n## Reads, read cache ${MODES[mode].title}`);
          const reads = await measureRows(stack, rows(false), SECONDS, log);
          measured.push(...reads);
          log(`\n${formatTable(reads, wordpress)}`);
        }
        if (SECTIONS.has("ratios")) {
          log(`\n## Ratios, read cache ${MODES[mode].title}`);
          await measureRatios(stack, SECONDS, log);
        }
        // Writes once, last, so the reads of every mode saw the same 500 posts.
        if (SECTIONS.has("table") && i === modes.length - 1) {
          log("\n## Writes (as the administrator, Basic auth with an application password)");
          const writes = await measureRows(stack, rows(true), SECONDS, log);
          measured.push(...writes);
          log(`\n${formatTable(writes, wordpress)}`);
          const batch = formatBatchRatio(writes, wordpress);
          if (batch) log(`\nbatch/v1 vs single creates, in posts/s:\n${batch}`);
        }
      } finally {
        await stack.stop();
      }
    }
    if (SECTIONS.has("footprint")) await footprint(dataDir, atRest, measured);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (SECTIONS.has("in-process")) {
  log("\n## In process (memory database)");
  await measureInProcess(log);
}
