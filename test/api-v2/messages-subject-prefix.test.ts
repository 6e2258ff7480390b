// The case-insensitive subject prefix filter (subject[start]=…): the rows it finds are exactly
// the ILIKE's, on ASCII and other prefixes, at the edges of the subject key range that replaces
// it and for prefixes longer than the key; a subject of any length is ingested; and the page and
// count statements Prisma sends are answered through the (subjectKey, receivedOn, id) index of
// migration 20261124120000_message_subject_key (applied at start-up after the earlier ones).
// Runs on PGlite, and on PostgreSQL with DATABASE_URL=postgres://…
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { hydra, startGatewaySystem } from "./fixtures.ts";
import { mail } from "./messages-fixtures.ts";

let system: TestSystem;
let token: string;

const SUBJECTS = [
  "Invoice 1", "INVOICE 2", "invoice-x", "Invoicing", "Invoicf", "Inw", "Inv", " Invoice", "Re: Invoice",
  "Inv~", "Inv~x", "Inv}", "Inv@x", "Inva", "Inv[", "Ínvoice", "ínvoice 2", "100% sure", "1000 things", "a_b", "axb",
  // Longer than the key's 200 characters, differing only after them; and 998 characters of a
  // multi-byte script (an index row of the whole lowered subject would be over btree's limit).
  `${"Long ".repeat(50)}tail A`, `${"LONG ".repeat(50)}tail B`, "請".repeat(998),
];

beforeAll(async () => {
  ({ system, token } = await startGatewaySystem());
  const r = await system.request("POST", "/api/v2/messages/ingest", {
    headers: { "x-esg-auth-token": token }, body: SUBJECTS.map((subject, i) => mail(i, { id: `S${i}`, subject })),
  });
  expect(r.status, r.text).toBe(200);
});
afterAll(async () => { await system?.stop(); });

async function subjectsStarting(prefix: string): Promise<string[]> {
  const r = await system.request("GET", `/api/v2/messages?subject[start]=${encodeURIComponent(prefix)}&itemsPerPage=100&order[subject]=asc`, { headers: { "x-esg-auth-token": token, ...hydra } });
  expect(r.status, r.text).toBe(200);
  expect(r.body["hydra:totalItems"]).toBe(r.body["hydra:member"].length);
  return r.body["hydra:member"].map((m: { subject: string }) => m.subject).sort();
}

/** What a case-insensitive prefix match finds, computed here. */
const expected = (prefix: string) => SUBJECTS.filter((s) => s.toLowerCase().startsWith(prefix.toLowerCase())).sort();

describe("GET /api/v2/messages?subject[start]=…", () => {
  it("finds every subject starting with the prefix, in any case, and nothing else", async () => {
    expect(await subjectsStarting("invoice")).toEqual(["INVOICE 2", "Invoice 1", "invoice-x"]);
    expect(await subjectsStarting("INVOIC")).toEqual(expected("invoic"));
  });

  it("holds at the edges of the range: the last character's successor, punctuation, spaces, LIKE wildcards", async () => {
    for (const prefix of ["inv", "Inv~", "inv}", "inv@", "inv[", "inv", " inv", "re: ", "100%", "a_", "i"]) {
      expect(await subjectsStarting(prefix), prefix).toEqual(expected(prefix));
    }
  });

  it("matches non-ASCII prefixes case-insensitively (those keep the ILIKE alone)", async () => {
    expect(await subjectsStarting("ínvoice")).toEqual(["Ínvoice", "ínvoice 2"]);
    expect(await subjectsStarting("請請請")).toEqual(["請".repeat(998)]);
  });

  it("decides prefixes longer than the key by the whole subject", async () => {
    expect(await subjectsStarting(`${"long ".repeat(50)}tail a`)).toEqual([`${"Long ".repeat(50)}tail A`]);
    expect(await subjectsStarting(`${"long ".repeat(50)}TAIL`)).toEqual(expected(`${"long ".repeat(50)}tail`));
    expect(await subjectsStarting("long long")).toHaveLength(2);
  });
});

describe("the subject index", () => {
  it("the migrations are applied, in order", async () => {
    const rows = await system.db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`);
    const names = rows.map((r) => r.migration_name);
    expect(names).toEqual(fs.readdirSync("prisma/migrations").filter((n) => fs.existsSync(`prisma/migrations/${n}/migration.sql`)).sort());
    // The subject key's migration replaces the expression index, so it comes after it.
    expect(names.indexOf("20261124120000_message_subject_key")).toBeGreaterThan(names.indexOf("20261124000000_message_expression_indexes"));
    expect(names.indexOf("20261124000000_message_expression_indexes")).toBeGreaterThan(0);
  });

  it("answers the page and count statements the subject prefix filter sends", async () => {
    const sent: { query: string; params: string }[] = [];
    const prisma = system.db.prisma as unknown as { $on(event: "query", listener: (e: { query: string; params: string }) => void): void };
    let listening = true;
    prisma.$on("query", (e) => { if (listening) sent.push(e); });
    await subjectsStarting("Invoice");
    listening = false;
    const keyed = sent.filter((s) => /"subjectKey" >= \$\d+ AND "[^"]+"\."GatewayMessage"\."subjectKey" < \$\d+/.test(s.query));
    const page = keyed.find((s) => s.query.includes("ORDER BY"));
    const count = keyed.find((s) => s.query.includes("COUNT("));
    // The range replaces the ILIKE for an ASCII prefix.
    expect(keyed.some((s) => s.query.includes("ILIKE"))).toBe(false);
    for (const statement of [page, count]) {
      expect(statement, JSON.stringify(sent.map((s) => s.query))).toBeDefined();
      // Parameters in as literals (strings quoted, LIMIT/OFFSET numbers), then the plan with
      // sequential scans priced out, as on a table large enough for the planner to prefer the index.
      const params: string[] = JSON.parse(statement!.params);
      const literal = (v: string) => (/^\d+$/.test(v) ? v : `'${v.replace(/'/g, "''")}'`);
      const sql = statement!.query.replace(/\$(\d+)/g, (_m, n: string) => literal(params[Number(n) - 1]));
      const plan = await system.db.transaction(async (run) => {
        await run("SET LOCAL enable_seqscan = off");
        return run(`EXPLAIN ${sql}`);
      });
      expect(plan.map((r) => String(r["QUERY PLAN"])).join("\n")).toContain("GatewayMessage_subjectKey_receivedOn_id_idx");
    }
  });
});
