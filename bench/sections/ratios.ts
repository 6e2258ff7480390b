// What each layer costs, side by side on one running stack, with one GraphQL document: the one the
// REST route GET /wp-json/core/v2/posts itself executes (ListPosts in the route's posts.graphql),
// so the three comparisons ask the same of the content subgraph.
// (a) router overhead: the document through the router's /graphql vs straight to the content
//     subgraph's own /graphql (anonymous), latency at 1 connection; target ≤ 1.3x.
// (b) the REST route vs the same document through the router, latency at 1 connection; target ≤ 1.2x.
// (c) Hive Gateway on the exported supergraph and the same subgraph processes vs our router,
//     req/s at 10 connections; target ours / Hive ≥ 1. Twice: the same document on every request,
//     and pages 1–50 in turn. Hive's HTTP executor (@graphql-tools/executor-http) merges identical
//     queries in flight into one subgraph fetch, so identical concurrent requests flatter it; the
//     varied pages say what routing itself costs.
import fs from "node:fs";
import path from "node:path";
import { parse, print, separateOperations } from "graphql";
import { fixedPostScript, load, rotatingPostScript, type Load } from "../lib/load-wrk.ts";
import { startHive } from "../lib/stack-hive.ts";
import { root, type Stack } from "../lib/stack-process.ts";

const OPERATIONS = path.join(root, "router/rest/site/namespaces/core-v2/posts.graphql");
/** GET /wp-json/core/v2/posts's defaults: page 1 of 10 published posts, newest first. */
const variables = (page: number) => ({ where: { status: ["PUBLISH"] }, page, perPage: 10, order: "DESC", orderBy: "DATE" });

export function listPostsBody(page = 1): string {
  const query = print(separateOperations(parse(fs.readFileSync(OPERATIONS, "utf8"))).ListPosts);
  return JSON.stringify({ query, variables: variables(page), operationName: "ListPosts" });
}

/** One answer, checked: a load of errors is no figure. Returns the X-Cache header if any. */
async function checkGraphQL(url: string, body: string): Promise<string> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const answer = (await response.json()) as { data?: { posts?: { nodes?: unknown[] } }; errors?: unknown[] };
  if (answer.errors || answer.data?.posts?.nodes?.length !== 10) throw new Error(`${url} did not answer 10 posts: ${JSON.stringify(answer).slice(0, 300)}`);
  return response.headers.get("x-cache") ?? "";
}

const graphql = (url: string, connections: number, seconds: number, body: string) =>
  load({ url, connections, seconds, script: fixedPostScript(body, { "Content-Type": "application/json" }) });

const times = (a: number, b: number) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}x` : "– (no request completed)");
const line = (label: string, l: Load) => `${label.padEnd(48)} ${l.reqPerSec.toFixed(1).padStart(8)} req/s  p50 ${l.p50Ms.toFixed(2).padStart(7)} ms  p99 ${l.p99Ms.toFixed(2).padStart(7)} ms${l.non2xx || l.errors ? `  (${l.non2xx} non-2xx, ${l.errors} socket errors)` : ""}`;

export async function measureRatios(stack: Stack, seconds: number, log: (line: string) => void): Promise<void> {
  const body = listPostsBody();
  const router = `${stack.url}/graphql`;
  const subgraph = stack.subgraphUrls.content;
  const cache = await checkGraphQL(router, body);
  await checkGraphQL(router, body); // a second time, so a read cache holds it as it would for any repeated read
  await checkGraphQL(subgraph, body);
  if (cache) log(`  (the router answered X-Cache: ${cache} to the first GraphQL read)`);

  const viaRouter = await graphql(router, 1, seconds, body);
  const direct = await graphql(subgraph, 1, seconds, body);
  const rest = await load({ url: `${stack.url}/wp-json/core/v2/posts`, connections: 1, seconds });
  log(line("ListPosts, straight to the content subgraph @1", direct));
  log(line("ListPosts through the router /graphql @1", viaRouter));
  log(line("GET /wp-json/core/v2/posts @1", rest));
  log(`  (a) router / subgraph latency (p50): ${times(viaRouter.p50Ms, direct.p50Ms)} (target ≤ 1.3)`);
  log(`  (b) REST / GraphQL through the router latency (p50): ${times(rest.p50Ms, viaRouter.p50Ms)} (target ≤ 1.2)`);

  let hive;
  try {
    hive = await startHive(stack);
  } catch (error) {
    log(`  (c) Hive Gateway could not start, skipped: ${String(error).slice(0, 500)}`);
    return;
  }
  try {
    await checkGraphQL(hive.url, body);
    const pages = rotatingPostScript(Array.from({ length: 50 }, (_, i) => listPostsBody(i + 1)), { "Content-Type": "application/json" });
    const rotating = (url: string) => load({ url, connections: 10, seconds, script: pages });
    const theirs = await graphql(hive.url, 10, seconds, body);
    const ours = await graphql(router, 10, seconds, body);
    const theirsPages = await rotating(hive.url);
    const oursPages = await rotating(router);
    log(line("ListPosts page 1, Hive Gateway @10", theirs));
    log(line("ListPosts page 1, our router @10", ours));
    log(line("ListPosts pages 1-50 in turn, Hive Gateway @10", theirsPages));
    log(line("ListPosts pages 1-50 in turn, our router @10", oursPages));
    log(`  (c) ours / Hive Gateway throughput: ${times(ours.reqPerSec, theirs.reqPerSec)} on one document (Hive merges identical queries in flight), ${times(oursPages.reqPerSec, theirsPages.reqPerSec)} on varied pages (target ≥ 1)`);
  } finally {
    await hive.stop();
  }
}
