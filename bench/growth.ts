// `npm run bench:growth`: do post lists stay fast as the site grows? The whole system (router and
// subgraphs in one process, the anonymous read cache off) on a fresh database: PGlite in a
// temporary directory, or DATABASE_URL=postgres://… (a fresh schema, dropped at the end). Posts are
// seeded set-based (bench/lib/seed-posts.ts; indexes dropped and rebuilt, as an import would) to
// 1,000, then 10,000, then 100,000
// (GROWTH_SIZES=1000,10000,100000); at each size four REST lists are timed over HTTP as a visitor
// would ask them, median of RUNS after a warm-up:
//   page 1                 GET /wp-json/core/v2/posts
//   deep page              …?page=N, N the middle page of the list (offset ≈ half the posts)
//   search                 …?search=<word in 1 % of the titles>
//   term filter            …?categories=<one category of 20 (5 % of posts)>
// Prints per size the median request time, the SQL time inside it (Prisma's own durations) and
// the ratio to the first size (the goal: within 2×). Asserts nothing; read the figures.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { startSystem } from "../router/system.ts";
import { seedPosts, seedTaxonomy, TOPICS, withoutSecondaryIndexes } from "./lib/seed-posts.ts";

const SIZES = (process.env.GROWTH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const RUNS = Number(process.env.RUNS ?? 9);

const base = process.env.DATABASE_URL;
const schema = `bench_growth_${crypto.randomBytes(4).toString("hex")}`;
const dir = base?.startsWith("postgres") ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "growth-"));
const databaseUrl = dir ? `file:${dir}` : `${base}${base!.includes("?") ? "&" : "?"}schema=${schema}`;

const config = loadConfig({ LOG_LEVEL: "silent", READ_CACHE_TTL_MS: "0" }, {
  port: 0, databaseUrl, secretKey: crypto.randomBytes(32), subgraphPorts: { content: 0, extensions: 0, gateway: 0 },
});
const system = await startSystem(config);
let sqlMs = 0;
system.db.prisma.$on("query" as never, (e: { duration: number }) => { sqlMs += e.duration; });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median wall time and SQL time of a GET, and its X-WP-Total (to show what was listed). */
async function time(url: string): Promise<{ ms: number; sql: number; total: string }> {
  let total = "";
  const get = async () => {
    // A kept-alive connection may have been closed by the server while seeding: one retry.
    const response = await fetch(`${system.url}${url}`).catch(() => fetch(`${system.url}${url}`));
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    total = response.headers.get("x-wp-total") ?? "";
    await response.arrayBuffer();
  };
  for (let i = 0; i < 5; i++) await get();
  const walls: number[] = [];
  const sqls: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [t, s] = [performance.now(), sqlMs];
    await get();
    walls.push(performance.now() - t);
    sqls.push(sqlMs - s);
  }
  return { ms: median(walls), sql: median(sqls), total };
}

const site = await seedTaxonomy(system.db);
const topic = TOPICS[7];
const CASES: [name: string, url: (published: number) => string][] = [
  ["page 1", () => "/wp-json/core/v2/posts"],
  ["deep page (middle)", (published) => `/wp-json/core/v2/posts?page=${Math.max(1, Math.floor(published / 10 / 2))}`],
  [`search "${topic}"`, () => `/wp-json/core/v2/posts?search=${topic}`],
  ["term filter (1 category of 20)", () => `/wp-json/core/v2/posts?categories=${site.categoryIds[3]}`],
];

const results = new Map<string, { ms: number; sql: number; total: string }[]>();
let seeded = 0;
console.log(`database: ${dir ? "PGlite (temporary directory)" : "PostgreSQL"}; median of ${RUNS} runs per case; the machine may be shared, read ratios`);
for (const size of SIZES) {
  const t = performance.now();
  await withoutSecondaryIndexes(system.db, ["Post", "PostTerm"], () => seedPosts(system.db, site, seeded + 1, size, { analyze: false }));
  seeded = size;
  const published = size - Math.floor(size / 20) + 1; // every 20th is a draft; the install's hello-world
  console.log(`\n${size.toLocaleString("en")} posts (seeded in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  for (const [name, url] of CASES) {
    const r = await time(url(published));
    results.set(name, [...(results.get(name) ?? []), r]);
    const first = results.get(name)![0];
    console.log(`  ${name.padEnd(34)} ${r.ms.toFixed(1).padStart(8)} ms  (SQL ${r.sql.toFixed(1).padStart(7)} ms)  total ${r.total.padStart(6)}  ×${(r.ms / first.ms).toFixed(2)} of ${SIZES[0].toLocaleString("en")}`);
  }
}

console.log(`\nratio to ${SIZES[0].toLocaleString("en")} posts (request time; SQL time in brackets)`);
console.log(`${"case".padEnd(34)} ${SIZES.map((s) => s.toLocaleString("en").padStart(16)).join("")}`);
for (const [name, rows] of results) {
  console.log(`${name.padEnd(34)} ${rows.map((r) => `${(r.ms / rows[0].ms).toFixed(2)}× (${(r.sql / rows[0].sql).toFixed(1)}×)`.padStart(16)).join("")}`);
}

await system.stop();
if (dir) fs.rmSync(dir, { recursive: true, force: true });
else {
  const url = new URL(base!);
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
