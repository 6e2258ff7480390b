// bench:redirects — how redirect matching scales with the number of rules: the same requests
// served against 10 and 10,000 enabled rules (in-memory PGlite, the extensions subgraph's
// serveRedirect domain function, hit counting and logging off so the match itself is measured).
// Half the requests hit a plain rule, half miss; 1% of the rules are regex rules. Prints the
// per-request times and their ratio, measured side by side in one run.
import { performance } from "node:perf_hooks";
import { openDatabase } from "../lib/db.ts";
import { applyMigrations } from "../lib/migrate.ts";
import { compiledRules, firstSourceMatch, serveRedirect } from "../subgraphs/extensions/redirection/matcher.ts";
import { readOptions } from "../subgraphs/extensions/redirection/settings.ts";
import { bumpRulesVersion } from "../subgraphs/extensions/redirection/settings.ts";

const REQUESTS = 2000;

async function measure(ruleCount: number): Promise<{ perRequest: number; perMatch: number }> {
  const db = await openDatabase("memory:");
  await applyMigrations(db);
  const ctx = { prisma: db.prisma };
  const { options } = await readOptions(ctx);
  await db.prisma.redirectionOptions.update({ where: { id: 1 }, data: { values: JSON.parse(JSON.stringify({ ...options, track_hits: false, expire_redirect: -1, expire_404: -1 })) as Record<string, string | number | boolean> } });
  const regexEvery = 100;
  const data = Array.from({ length: ruleCount }, (_, i) => {
    const regex = i % regexEvery === regexEvery - 1;
    return regex
      ? { url: `^/archive-${i}/(\\d+)$`, matchUrl: "regex", regex: true, groupId: 1, position: i, actionType: "url", actionCode: 301, actionData: "/a/$1", matchType: "url" }
      : { url: `/page-${i}`, matchUrl: `/page-${i}`, regex: false, groupId: 1, position: i, actionType: "url", actionCode: 301, actionData: `/new-${i}`, matchType: "url" };
  });
  for (let i = 0; i < data.length; i += 1000) await db.prisma.redirectionItem.createMany({ data: data.slice(i, i + 1000) });
  await bumpRulesVersion(ctx);
  const request = (n: number) => ({ url: n % 2 === 0 ? `/page-${(n * 7) % ruleCount - ((n * 7) % ruleCount) % regexEvery}` : `/missing-${n}`, method: "GET", host: "example.test", remoteAddr: "127.0.0.1" });
  for (let n = 0; n < 200; n++) await serveRedirect(ctx, request(n)); // warm-up (compiles the rules once)
  const start = performance.now();
  for (let n = 0; n < REQUESTS; n++) await serveRedirect(ctx, request(n));
  const perRequest = (performance.now() - start) / REQUESTS;
  // The matching step alone (compiled rules in memory, no database): what grows with the rules.
  const { options: current, rulesVersion } = await readOptions(ctx);
  const rules = await compiledRules(db.prisma, current, rulesVersion);
  const MATCHES = 20_000;
  const matchStart = performance.now();
  let found = 0;
  for (let n = 0; n < MATCHES; n++) if (firstSourceMatch(rules, request(n).url)) found++;
  const perMatch = (performance.now() - matchStart) / MATCHES;
  if (found === 0) throw new Error("no request matched: the benchmark measures nothing");
  await db.close();
  return { perRequest, perMatch };
}

const small = await measure(10);
const large = await measure(10_000);
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
console.log(`redirect serving, ${REQUESTS} requests each (half hits, half misses; 1% regex rules)`);
console.log(`  serveRedirect (options read + match):  10 rules ${us(small.perRequest)}   10,000 rules ${us(large.perRequest)}   ratio ${(large.perRequest / small.perRequest).toFixed(2)}`);
console.log(`  matching alone (compiled, in memory):  10 rules ${us(small.perMatch)}   10,000 rules ${us(large.perMatch)}   ratio ${(large.perMatch / small.perMatch).toFixed(2)}`);
