// The issue's table, our side: each REST row loaded with wrk at each connection count, with
// req/s, p50 and p99, and the ratio to WordPress's figures recorded in the issue.
import { load, rotatingGetScript, uniquePostScript, type Load } from "../lib/load-wrk.ts";
import { ADMIN_PASSWORD } from "../lib/site-500.ts";
import { sampleRss, type Stack, type TreeRss } from "../lib/stack-process.ts";
import { TARGET_VS_WORDPRESS, WORDPRESS_REQ_PER_SEC, type RowName } from "../wordpress-baseline.ts";

export const ADMIN_AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
const WRITE_HEADERS = { "Content-Type": "application/json", Authorization: ADMIN_AUTH };
const POSTS = "/wp-json/core/v2/posts";
/** A batch item's path is the route's, without the REST root (as in WordPress's batch/v1). */
const ROUTE = "/core/v2/posts";
export const BATCH_SIZE = 25;

/** A post as a client creates it: a unique title (Lua expression over `key`), some content, published. */
const createBody = (suffix: string) =>
  `'{"title":"Bench post ' .. key .. '${suffix}","content":"<p>Written by npm run bench.</p>","status":"publish"}'`;

export interface Row { name: RowName; label: string; connections: number[]; write: boolean; script(ids: number[]): { path: string; script?: string } }

export const ROWS: Row[] = [
  { name: "posts", label: "GET posts (10 per page)", connections: [1, 10, 50], write: false, script: () => ({ path: POSTS }) },
  { name: "posts100", label: "GET posts?per_page=100", connections: [1, 10, 50], write: false, script: () => ({ path: `${POSTS}?per_page=100` }) },
  { name: "embed", label: "GET posts?_embed", connections: [1, 10, 50], write: false, script: () => ({ path: `${POSTS}?_embed` }) },
  // Every seeded post in turn, as a site's visitors spread over its posts (a read cache must earn its hits).
  { name: "post", label: "GET posts/{id}", connections: [1, 10, 50], write: false, script: (ids) => ({ path: `${POSTS}/${ids[0]}`, script: rotatingGetScript(ids.map((id) => `${POSTS}/${id}`)) }) },
  { name: "create", label: "POST posts (create)", connections: [1, 10], write: true, script: () => ({ path: POSTS, script: uniquePostScript(createBody(""), WRITE_HEADERS) }) },
  {
    name: "batch", label: `POST batch/v1 (${BATCH_SIZE} creates)`, connections: [1, 10], write: true,
    script: () => ({
      path: "/wp-json/batch/v1",
      script: uniquePostScript(
        `'{"requests":[' .. table.concat((function() local t = {} for k = 1, ${BATCH_SIZE} do t[k] = '{"path":"${ROUTE}","body":' .. ${createBody(" ' .. k .. '")} .. '}' end return t end)(), ",") .. ']}'`,
        WRITE_HEADERS),
    }),
  },
];

export interface Measured { row: Row; connections: number; load: Load; rss: TreeRss }
export interface RowCheck { ok: boolean; note: string }

/** One request as wrk will send it, checked before the row is loaded (a row of errors is no figure). */
async function check(stack: Stack, row: Row, path: string): Promise<RowCheck> {
  const key = `check-${Date.now()}`;
  const item = (suffix: string) => ({ title: `Bench post ${key}${suffix}`, content: "<p>Written by npm run bench.</p>", status: "publish" });
  const body = row.name === "create" ? item("")
    : row.name === "batch" ? { requests: Array.from({ length: BATCH_SIZE }, (_, k) => ({ path: ROUTE, body: item(` ${k + 1}`) })) } : undefined;
  const response = await fetch(`${stack.url}${path}`, body
    ? { method: "POST", headers: { "content-type": "application/json", authorization: ADMIN_AUTH }, body: JSON.stringify(body) }
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
export async function measureRows(stack: Stack, rows: Row[], seconds: number, log: (line: string) => void): Promise<Measured[]> {
  const ids: number[] = [];
  for (let page = 1; ids.length < 500; page++) {
    const response = await fetch(`${stack.url}${POSTS}?per_page=100&page=${page}&_fields=id`);
    const batch = (await response.json()) as { id: number }[];
    if (!Array.isArray(batch) || batch.length === 0) break;
    ids.push(...batch.map((p) => p.id));
  }
  const measured: Measured[] = [];
  for (const row of rows) {
    const { path, script } = row.script(ids);
    const checked = await check(stack, row, path);
    if (!checked.ok) { log(`  ${row.label}: skipped, the request fails: ${checked.note}`); continue; }
    for (const connections of row.connections) {
      const sampler = sampleRss(stack.child);
      const result = await load({ url: `${stack.url}${path}`, connections, seconds, script });
      measured.push({ row, connections, load: result, rss: sampler.stop() });
      const faults = result.non2xx || result.errors ? `, ${result.non2xx} non-2xx, ${result.errors} socket errors` : "";
      log(`  ${row.label} @${connections}: ${result.reqPerSec.toFixed(1)} req/s, p50 ${ms(result.p50Ms)}, p99 ${ms(result.p99Ms)}${faults}${checked.note ? ` (${checked.note})` : ""}`);
    }
  }
  return measured;
}

/** NaN (no answer completed within the run) shows as "–". */
const ms = (n: number) => (Number.isNaN(n) ? "–" : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const fixed = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** The issue's table as Markdown: one line per row, values per connection count separated by " / ". */
export function formatTable(measured: Measured[]): string {
  const lines = [
    "| case | conns | req/s | p50 ms | p99 ms | WordPress req/s | ours / WordPress (target) | p99 / p50 at max conns |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of ROWS) {
    const runs = measured.filter((m) => m.row.name === row.name);
    if (runs.length === 0) continue;
    const wordpress = WORDPRESS_REQ_PER_SEC[row.name];
    const join = (f: (m: Measured) => string) => runs.map(f).join(" / ");
    const last = runs.at(-1)!.load;
    lines.push(`| ${row.label} | ${join((m) => String(m.connections))} | ${join((m) => fixed(m.load.reqPerSec))} | ${join((m) => ms(m.load.p50Ms))} | ${join((m) => ms(m.load.p99Ms))} | ${join((m) => String(wordpress[m.connections] ?? "–"))} | ${join((m) => (wordpress[m.connections] ? (m.load.reqPerSec / wordpress[m.connections]).toFixed(1) : "–"))} (≥ ${TARGET_VS_WORDPRESS[row.name]}) | ${(last.p99Ms / last.p50Ms).toFixed(1)} |`);
  }
  return lines.join("\n");
}

/** batch/v1 against the same creates sent one by one: posts/s of each, at each connection count. */
export function formatBatchRatio(measured: Measured[]): string | null {
  const lines: string[] = [];
  for (const run of measured.filter((m) => m.row.name === "batch")) {
    const single = measured.find((m) => m.row.name === "create" && m.connections === run.connections);
    const wordpressPostsPerSec = WORDPRESS_REQ_PER_SEC.batch[run.connections] * BATCH_SIZE;
    const postsPerSec = run.load.reqPerSec * BATCH_SIZE;
    lines.push(`  @${run.connections}: batch ${fixed(postsPerSec)} posts/s${single ? `, single creates ${fixed(single.load.reqPerSec)} posts/s, batch / single ${(postsPerSec / single.load.reqPerSec).toFixed(1)}x (target ≥ 5)` : ""}, batch / WordPress's batch ${(postsPerSec / wordpressPostsPerSec).toFixed(1)}x (target ≥ 5)`);
  }
  return lines.length ? lines.join("\n") : null;
}
