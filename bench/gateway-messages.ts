// `npm run bench:gateway-messages`: the email gateway's message list at appliance scale. Two
// databases (PGlite in temporary directories, or two schemas of DATABASE_URL=postgres://…): one
// with 10,000 messages, one with 1,000,000 (BENCH_MESSAGES), written set-based (generate_series,
// with their address and URI-host rows). Each list query is timed on both side by side, the
// samples alternating between the two sizes, so a machine whose load changes during the run
// (a shared one) weighs on both alike. Prints each query's median at both sizes and the ratio
// (the goal: within 2×). Then ingest throughput through the real ingest path (storeMessages:
// checked records, one transaction per batch, accounting and restricted senders) on the large
// one. Asserts nothing; read the figures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase, type Database } from "../lib/db.ts";
import { applyMigrations } from "../lib/migrate.ts";
import { checkIngestBatch } from "../lib/gateway/ingest-record.ts";
import { storeMessages } from "../subgraphs/gateway/mail/ingest.ts";
import { listMessages, type MessageQuery } from "../subgraphs/gateway/mail/messages.ts";

const SMALL = 10_000;
const LARGE = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const RUNS = 11;
const SENDERS = 5_000;
const RECIPIENTS = 20_000;
const HOSTS = 2_000;
const DAYS = 90;
const T0 = Date.parse("2024-06-01T00:00:00Z");

/** Rows g in [from, to], deterministic: message g's sender, recipient, node, host and time derive from g. */
async function generate(db: Database, from: number, to: number): Promise<void> {
  const p = db.prisma;
  // Spread over DAYS days, newest at T0 + DAYS days; ids sort with time.
  const time = `(timestamp '2024-06-01' + ((g::bigint * 7919) % ${DAYS * 86_400}) * interval '1 second')`;
  await p.$executeRawUnsafe(`
    INSERT INTO "GatewayMessage" (id, "messageId", "receivedOn", sender, "headerFrom", "headerFromAddress", recipients, "senderIp", hostname, "nodeId",
      direction, subject, size, result, "deliveryResult", score, "hasAttachments", state, quarantined, "uriHosts")
    SELECT 'B' || lpad(g::text, 9, '0'), '<' || g || '@bench.example>', ${time},
      's' || (g % ${SENDERS}) || '@senders.example', 's' || (g % ${SENDERS}) || '@senders.example', 's' || (g % ${SENDERS}) || '@senders.example',
      ARRAY['r' || ((g * 31) % ${RECIPIENTS}) || '@corp.example'], '198.51.100.' || (g % 250), 'esg' || (g % 4) || '.corp.example', 'node-' || (g % 4),
      'inbound', 'Subject ' || (g % 997), 500 + (g * 13) % 100000,
      CASE WHEN g % 20 = 0 THEN 'spam' WHEN g % 97 = 0 THEN 'virus' ELSE 'clean' END,
      CASE WHEN g % 20 = 0 OR g % 97 = 0 THEN 'pending' ELSE 'delivered' END, (g % 100) / 10.0, g % 7 = 0,
      CASE WHEN g % 20 = 0 OR g % 97 = 0 THEN 'quarantined' ELSE 'none' END, g % 20 = 0 OR g % 97 = 0,
      ARRAY['h' || (g % ${HOSTS}) || '.links.example']
    FROM generate_series(${from}, ${to}) AS g`);
  await p.$executeRawUnsafe(`
    INSERT INTO "GatewayMessageAddress" ("messageId", address, domain, role, "receivedOn")
    SELECT 'B' || lpad(g::text, 9, '0'), 's' || (g % ${SENDERS}) || '@senders.example', 'senders.example', 'sender', ${time} FROM generate_series(${from}, ${to}) AS g
    UNION ALL
    SELECT 'B' || lpad(g::text, 9, '0'), 'r' || ((g * 31) % ${RECIPIENTS}) || '@corp.example', 'corp.example', 'recipient', ${time} FROM generate_series(${from}, ${to}) AS g`);
  await p.$executeRawUnsafe(`
    INSERT INTO "GatewayMessageUriHost" ("messageId", host, "receivedOn")
    SELECT 'B' || lpad(g::text, 9, '0'), 'h' || (g % ${HOSTS}) || '.links.example', ${time} FROM generate_series(${from}, ${to}) AS g`);
  // The counters ingest keeps: all messages, and per value of state, result, quarantined, direction.
  await p.$executeRawUnsafe(`
    INSERT INTO "GatewayMessageCounter" (name, value)
    SELECT name, count(*) FROM (
      SELECT unnest(ARRAY['messages', 'state:' || state, 'result:' || result, 'quarantined:' || quarantined::text, 'direction:' || direction]) AS name
      FROM "GatewayMessage" WHERE id BETWEEN 'B' || lpad('${from}', 9, '0') AND 'B' || lpad('${to}', 9, '0')
    ) AS c GROUP BY name
    ON CONFLICT (name) DO UPDATE SET value = "GatewayMessageCounter".value + EXCLUDED.value`);
}

const TABLES = ["GatewayMessage", "GatewayMessageAddress", "GatewayMessageUriHost"];

/** Bulk load without the secondary indexes, then build them once (as a bulk import would). */
async function generateBulk(db: Database, from: number, to: number): Promise<void> {
  const p = db.prisma;
  const indexes = await p.$queryRawUnsafe<{ indexname: string; indexdef: string }[]>(
    `SELECT indexname::text AS indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1::text[]) AND indexname NOT LIKE '%_pkey'`, TABLES);
  for (const { indexname } of indexes) await p.$executeRawUnsafe(`DROP INDEX "${indexname}"`);
  const step = 100_000;
  for (let a = from; a <= to; a += step) {
    await generate(db, a, Math.min(to, a + step - 1));
    process.stderr.write(`  ${Math.min(to, a + step - 1).toLocaleString("en")} rows\r`);
  }
  process.stderr.write("\n");
  for (const { indexdef } of indexes) await p.$executeRawUnsafe(indexdef);
  await settle(db);
}

/**
 * VACUUM ANALYZE, as autovacuum leaves a table after inserts (PostgreSQL vacuums insert-only
 * tables since 13): statistics, and the visibility map that lets an index-only scan (the subject
 * prefix's count and page ids) skip the table.
 */
async function settle(db: Database): Promise<void> {
  for (const table of TABLES) await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE "${table}"`);
}

const day = (d: number) => new Date(T0 + d * 86_400_000).toISOString();
const QUERIES: { name: string; query: MessageQuery }[] = [
  { name: "newest first, page 1 (no filter)", query: { page: 1, itemsPerPage: 30 } },
  { name: "sender eq, newest first", query: { page: 1, itemsPerPage: 30, filter: { sender: [{ operator: "eq", value: "s42@senders.example" }] } } },
  { name: "recipient eq (address rows)", query: { page: 1, itemsPerPage: 30, filter: { recipient: [{ operator: "eq", value: "r4242@corp.example" }] } } },
  { name: "URI host eq (§1.12)", query: { page: 1, itemsPerPage: 30, filter: { uriHost: [{ operator: "eq", value: "h7.links.example" }] } } },
  { name: "cluster node + one day (§1.12)", query: { page: 1, itemsPerPage: 30, filter: { nodeId: [{ operator: "eq", value: "node-1" }], receivedOn: [{ operator: "gte", value: day(40) }, { operator: "lt", value: day(41) }] } } },
  { name: "virus verdict, newest first", query: { page: 1, itemsPerPage: 30, filter: { result: [{ operator: "eq", value: "virus" }] } } },
  { name: "quarantined, by size desc", query: { page: 1, itemsPerPage: 30, filter: { quarantined: [{ operator: "eq", value: "true" }] }, order: [{ field: "size", direction: "desc" }] } },
  { name: "subject start, oldest first", query: { page: 1, itemsPerPage: 30, filter: { subject: [{ operator: "start", value: "Subject 99" }] }, order: [{ field: "receivedOn", direction: "asc" }] } },
];

const ADMIN = { gateway: { userId: 0, username: "bench", roles: ["admin"] } };

type Sample = () => Promise<unknown>;
const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];

/** RUNS timings of each of the two, alternating (after one warm-up each); the medians. */
async function sideBySide(small: Sample, large: Sample): Promise<[number, number]> {
  await small();
  await large();
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    for (const [k, run] of [small, large].entries()) {
      const start = performance.now();
      await run();
      samples[k].push(performance.now() - start);
    }
  }
  return [median(samples[0]), median(samples[1])];
}

const list = (db: Database, query: MessageQuery) => () => listMessages({ db, identity: ADMIN }, query);
const total = async (db: Database, query: MessageQuery) => (await listMessages({ db, identity: ADMIN }, query)).totalItems;

/** The keyset cursor of page `depth` (100 a page): a deep page by keyset costs what page 1 does, by offset it does not. */
async function cursorOfPage(db: Database, depth: number): Promise<string | null> {
  let after: string | null = null;
  for (let i = 1; i < depth; i++) after = (await listMessages({ db, identity: ADMIN }, { page: 1, itemsPerPage: 100, after })).endCursor;
  return after;
}

/** One of the two databases: PGlite in a temporary directory, or a schema of DATABASE_URL's database. */
async function benchDatabase(name: string): Promise<{ db: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL?.startsWith("postgres") ? new URL(process.env.DATABASE_URL) : undefined;
  if (url) {
    const schema = `bench_${name}_${process.pid}`;
    url.searchParams.set("schema", schema);
    const db = await openDatabase(url.toString());
    return { db, drop: async () => { await db.prisma.$executeRawUnsafe(`DROP SCHEMA "${schema}" CASCADE`); await db.close(); } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-gateway-${name}-`));
  const db = await openDatabase(`file:${dir}`);
  return { db, drop: async () => { await db.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

async function ingestThroughput(db: Database): Promise<{ perSecond: number; messages: number }> {
  const batches = 6;
  const size = 500;
  const records = Array.from({ length: batches * size }, (_, i) => ({
    id: `ING${i}`, receivedOn: new Date(T0 + i * 1000).toISOString(), sender: `n${i % 50}@news.example`,
    recipients: [`u${i % 700}@corp.example`], headerFrom: `"News" <n${i % 50}@news.example>`, subject: `Ingested ${i}`,
    hostname: "esg1.corp.example", nodeId: "node-0", direction: i % 10 ? "inbound" : "outbound", size: 2000 + i,
    result: i % 25 ? "clean" : "spam", deliveryResult: i % 25 ? "delivered" : "pending", quarantined: i % 25 === 0,
    uris: [`https://l${i % 30}.example/x`], analysis: [{ engine: "antispam", result: "clean" }],
  }));
  const start = performance.now();
  for (let b = 0; b < batches; b++) {
    const { records: good } = checkIngestBatch(records.slice(b * size, (b + 1) * size));
    await storeMessages({ db }, good);
  }
  const seconds = (performance.now() - start) / 1000;
  return { perSecond: records.length / seconds, messages: records.length };
}

async function main(): Promise<void> {
  const began = performance.now();
  const small = await benchDatabase("small");
  const large = await benchDatabase("large");
  try {
    await applyMigrations(small.db);
    await applyMigrations(large.db);
    const load = () => os.loadavg()[0].toFixed(1);
    console.log(`Database: ${process.env.DATABASE_URL?.startsWith("postgres") ? "PostgreSQL (two schemas)" : "PGlite (two temporary directories)"}; ${RUNS} runs per query and size, alternating, median. Load average ${load()}.`);
    await generate(small.db, 1, SMALL);
    await settle(small.db);
    const g0 = performance.now();
    console.log(`Writing ${LARGE.toLocaleString("en")} messages (set-based insert, indexes built once)…`);
    await generate(large.db, 1, SMALL);
    await generateBulk(large.db, SMALL + 1, LARGE);
    console.log(`  done in ${((performance.now() - g0) / 1000).toFixed(1)} s`);

    console.log(`\n${"query".padEnd(36)} ${"10k ms".padStart(8)} ${"1M ms".padStart(8)} ${"ratio".padStart(6)}  totals (10k → ${LARGE.toLocaleString("en")})`);
    const row = (name: string, [a, b]: [number, number], totals = "") =>
      console.log(`${name.padEnd(36)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(8)} ${(b / a).toFixed(2).padStart(6)}${b / a > 2 ? " !" : "  "} ${totals}`);
    for (const q of QUERIES) {
      const ms = await sideBySide(list(small.db, q.query), list(large.db, q.query));
      row(q.name, ms, `${await total(small.db, q.query)} → ${await total(large.db, q.query)}`);
    }
    const depth = 50;
    const [afterSmall, afterLarge] = [await cursorOfPage(small.db, depth), await cursorOfPage(large.db, depth)];
    row(`page ${depth} of 100 by keyset (after)`, await sideBySide(list(small.db, { page: 1, itemsPerPage: 100, after: afterSmall }), list(large.db, { page: 1, itemsPerPage: 100, after: afterLarge })));
    row(`page ${depth} of 100 by offset (page=${depth})`, await sideBySide(list(small.db, { page: depth, itemsPerPage: 100 }), list(large.db, { page: depth, itemsPerPage: 100 })));

    const ingest = await ingestThroughput(large.db);
    console.log(`\nIngest (checked records, 500 per transaction, accounting + restrictions, on the ${LARGE.toLocaleString("en")}-row tables): ${ingest.perSecond.toFixed(0)} messages/s over ${ingest.messages}.`);
    console.log(`Total run: ${((performance.now() - began) / 1000).toFixed(0)} s; load average ${load()}.`);
  } finally {
    await small.drop();
    await large.drop();
  }
}

await main();
