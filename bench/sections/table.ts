// The issue's table: each REST row loaded with wrk at each connection count, with req/s, p50 and
// p99, and the ratio to WordPress: measured in the same run when the wordpress section ran, else
// the figures recorded in the issue.
import { load, rotatingGetScript, uniquePostScript, type Load } from "../lib/load-wrk.ts";
import { ADMIN_PASSWORD } from "../lib/site-500.ts";
import type { ChildProcess } from "node:child_process";
import { sampleRss, type Stack, type TreeRss } from "../lib/stack-process.ts";
import { TARGET_VS_WORDPRESS, WORDPRESS_REQ_PER_SEC, type RowName } from "../wordpress-baseline.ts";

export const ADMIN_AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
export const BATCH_SIZE = 25;

/** What the rows are sent to: our stack (core/v2) or WordPress (wp/v2), with the administrator's credentials. */
export interface Target { name: string; url: string; namespace: "core/v2" | "wp/v2"; auth: string; child?: ChildProcess }

export const ours = (stack: Stack): Target => ({ name: "ours", url: stack.url, namespace: "core/v2", auth: ADMIN_AUTH, child: stack.child });

/** A post as a client creates it: a unique title (Lua expression over `key`), some content, published. */
const createBody = (suffix: string) =>
  `'{"title":"Bench post ' .. key .. '${suffix}","content":"<p>Written by npm run bench.</p>","status":"publish"}'`;

export interface Row { name: RowName; label: string; connections: number[]; write: boolean; request(target: Target, ids: number[]): { path: string; script?: string } }

const posts = (t: Target) => `/wp-json/${t.namespace}/posts`;
const writeHeaders = (t: Target) => ({ "Content-Type": "application/json", Authorization: t.auth });

export const ROWS: Row[] = [
  { name: "posts", label: "GET posts (10 per page)", connections: [1, 10, 50], write: false, request: (t) => ({ path: posts(t) }) },
  { name: "posts100", label: "GET posts?per_page=100", connections: [1, 10, 50], write: false, request: (t) => ({ path: `${posts(t)}?per_page=100` }) },
  { name: "embed", label: "GET posts?_embed", connections: [1, 10, 50], write: false, request: (t) => ({ path: `${posts(t)}?_embed` }) },
  // Every seeded post in turn, as a site's visitors spread over its posts (a read cache must earn its hits).
  { name: "post", label: "GET posts/{id}", connections: [1, 10, 50], write: false, request: (t, ids) => ({ path: `${posts(t)}/${ids[0]}`, script: rotatingGetScript(ids.map((id) => `${posts(t)}/${id}`)) }) },
  { name: "create", label: "POST posts (create)", connections: [1, 10], write: true, request: (t) => ({ path: posts(t), script: uniquePostScript(createBody(""), writeHeaders(t)) }) },
  {
    // A batch item's path is the route's, without the REST root, as in WordPress's batch/v1.
    name: "batch", label: `POST batch/v1 (${BATCH_SIZE} creates)`, connections: [1, 10], write: true,
    request: (t) => ({
      path: "/wp-json/batch/v1",
      script: uniquePostScript(
        `'{"requests":[' .. table.concat((function() local t = {} for k = 1, ${BATCH_SIZE} do t[k] = '{"path":"/${t.namespace}/posts","body":' .. ${createBody(" ' .. k .. '")} .. '}' end return t end)(), ",") .. ']}'`,
        writeHeaders(t)),
    }),
  },
];

export interface Measured { row: Row; connections: number; load: Load; rss?: TreeRss }
export interface RowCheck { ok: boolean; note: string }

/** One request as wrk will send it, checked before the row is loaded (a row of errors is no figure). */
async function check(target: Target, row: Row, path: string): Promise<RowCheck> {
  const key = `check-${Date.now()}`;
  const item = (suffix: string) => ({ title: `Bench post ${key}${suffix}`, content: "<p>Written by npm run bench.</p>", status: "publish" });
  const body = row.name === "create" ? item("")
    : row.name === "batch" ? { requests: Array.from({ length: BATCH_SIZE }, (_, k) => ({ path: `/${target.namespace}/posts`, body: item(` ${k + 1}`) })) } : undefined;
  const response = await fetch(`${target.url}${path}`, body
    ? { method: "POST", headers: { "content-type": "application/json", authorization: target.auth }, body: JSON.stringify(body) }
    : {});
  const text = await response.text();
  const cache = response.headers.get("x-cache");
  if (response.status >= 300) return { ok: false, note: `HTTP ${response.status}: ${text.slice(0, 200)}` };
  if (row.name === "batch") {
    const statuses = (JSON.parse(text) as { responses: { status: number }[] }).responses.map((r) => r.status);
    if (!statuses.every((s) => s === 201)) return { ok: false, note: `batch item statuses ${statuses.join(",")}` };
  }
  return { ok: true, note: cache ? `X-Cache ${cache}` : "" };
}

/** Runs the given rows at each of their connection counts; the tree's RSS is sampled during each run. */
export async function measureRows(stack: Stack, rows: Row[], seconds: number, log: (line: string) => void): Promise<(Measured & { rss: TreeRss })[]>;
export async function measureRows(target: Target, rows: Row[], seconds: number, log: (line: string) => void): Promise<Measured[]>;
export async function measureRows(on: Stack | Target, rows: Row[], seconds: number, log: (line: string) => void): Promise<Measured[]> {
  const target = "namespace" in on ? on : ours(on);
  const ids: number[] = [];
  for (let page = 1; ids.length < 500; page++) {
    const response = await fetch(`${target.url}${posts(target)}?per_page=100&page=${page}&_fields=id`);
    const batch = (await response.json()) as { id: number }[];
    if (!Array.isArray(batch) || batch.length === 0) break;
    ids.push(...batch.map((p) => p.id));
  }
  const measured: Measured[] = [];
  for (const row of rows) {
    const { path, script } = row.request(target, ids);
    const checked = await check(target, row, path);
    if (!checked.ok) { log(`  ${target.name}, ${row.label}: skipped, the request fails: ${checked.note}`); continue; }
    for (const connections of row.connections) {
      const sampler = target.child && sampleRss(target.child);
      const result = await load({ url: `${target.url}${path}`, connections, seconds, script });
      measured.push({ row, connections, load: result, rss: sampler?.stop() });
      const faults = result.non2xx || result.errors ? `, ${result.non2xx} non-2xx, ${result.errors} socket errors` : "";
      log(`  ${target.name}, ${row.label} @${connections}: ${result.reqPerSec.toFixed(1)} req/s, p50 ${ms(result.p50Ms)}, p99 ${ms(result.p99Ms)}${faults}${checked.note ? ` (${checked.note})` : ""}`);
    }
  }
  return measured;
}

/** NaN (no answer completed within the run) shows as "–". */
const ms = (n: number) => (Number.isNaN(n) ? "–" : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const fixed = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
/** A run in which no request completed has no rate: "–", as its latencies. */
const rate = (l: Load) => (l.requests ? fixed(l.reqPerSec) : "–");
const ratio = (a: number, b: number | undefined) => (a > 0 && b && b > 0 ? (a / b).toFixed(1) : "–");

/** WordPress's req/s for a row: from this run when it was measured, else as recorded in the issue. */
function wordpressFigure(name: RowName, connections: number, wordpress?: Measured[]): number | undefined {
  if (wordpress) return wordpress.find((m) => m.row.name === name && m.connections === connections)?.load.reqPerSec;
  return WORDPRESS_REQ_PER_SEC[name][connections];
}

/**
 * The issue's table as Markdown: one line per row, values per connection count separated by " / ".
 * `wordpress`: this run's WordPress figures to divide by; undefined for the issue's; null for none
 * (WordPress's own table).
 */
export function formatTable(measured: Measured[], wordpress?: Measured[] | null): string {
  const compare = wordpress !== null;
  const lines = [
    `| case | conns | req/s | p50 ms | p99 ms |${compare ? ` WordPress req/s (${wordpress ? "this run" : "issue 12"}) | ours / WordPress (target) |` : ""} p99 / p50 at max conns |`,
    `|---|---:|---:|---:|---:|${compare ? "---:|---:|" : ""}---:|`,
  ];
  for (const row of ROWS) {
    const runs = measured.filter((m) => m.row.name === row.name);
    if (runs.length === 0) continue;
    const theirs = (m: Measured) => wordpressFigure(row.name, m.connections, wordpress ?? undefined);
    const join = (f: (m: Measured) => string) => runs.map(f).join(" / ");
    const last = runs.at(-1)!.load;
    const comparison = compare
      ? ` ${join((m) => (theirs(m) === undefined ? "–" : fixed(theirs(m)!)))} | ${join((m) => ratio(m.load.reqPerSec, theirs(m)))} (≥ ${TARGET_VS_WORDPRESS[row.name]}) |`
      : "";
    lines.push(`| ${row.label} | ${join((m) => String(m.connections))} | ${join((m) => rate(m.load))} | ${join((m) => ms(m.load.p50Ms))} | ${join((m) => ms(m.load.p99Ms))} |${comparison} ${last.requests ? (last.p99Ms / last.p50Ms).toFixed(1) : "–"} |`);
  }
  return lines.join("\n");
}

/** batch/v1 against the same creates sent one by one: posts/s of each, at each connection count. */
export function formatBatchRatio(measured: Measured[], wordpress?: Measured[]): string | null {
  const lines: string[] = [];
  for (const run of measured.filter((m) => m.row.name === "batch")) {
    const single = measured.find((m) => m.row.name === "create" && m.connections === run.connections);
    const theirs = wordpressFigure("batch", run.connections, wordpress);
    const postsPerSec = run.load.reqPerSec * BATCH_SIZE;
    lines.push(`  @${run.connections}: batch ${fixed(postsPerSec)} posts/s${single ? `, single creates ${fixed(single.load.reqPerSec)} posts/s, batch / single ${ratio(postsPerSec, single.load.reqPerSec)}x (target ≥ 5)` : ""}, batch / WordPress's batch ${ratio(run.load.reqPerSec, theirs)}x (target ≥ 5)`);
  }
  return lines.length ? lines.join("\n") : null;
}
