// The case-insensitive subject prefix filter (subject[start]=…): the rows it finds are exactly
// the ILIKE's, on ASCII and other prefixes and at the edges of the LOWER(subject) range it adds,
// and the statement Prisma sends is answered through the expression index of migration
// 20261124000000_message_expression_indexes (applied at start-up after the init migration).
// Runs on PGlite, and on PostgreSQL with DATABASE_URL=postgres://…
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { hydra, startGatewaySystem } from "./fixtures.ts";
import { mail } from "./messages-fixtures.ts";

let system: TestSystem;
let token: string;

const SUBJECTS = [
  "Invoice 1", "INVOICE 2", "invoice-x", "Invoicing", "Invoicf", "Inw", "Inv", " Invoice", "Re: Invoice",
  "Inv~", "Inv~x", "Inv}", "Inv@x", "Inva", "Inv[", "Ínvoice", "ínvoice 2", "100% sure", "1000 things", "a_b", "axb",
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
  });
});

describe("the subject index", () => {
  it("both migrations are applied, in order", async () => {
    const rows = await system.db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(["20261122000000_init", "20261124000000_message_expression_indexes"]);
  });

  it("answers the statement the subject prefix filter sends", async () => {
    const sent: { query: string; params: string }[] = [];
    const prisma = system.db.prisma as unknown as { $on(event: "query", listener: (e: { query: string; params: string }) => void): void };
    let listening = true;
    prisma.$on("query", (e) => { if (listening) sent.push(e); });
    await subjectsStarting("Invoice");
    listening = false;
    const statement = sent.find((s) => s.query.includes("ILIKE") && s.query.includes("ORDER BY"));
    expect(statement?.query).toMatch(/LOWER\("[^"]+"\."GatewayMessage"\."subject"\) >= LOWER\(\$\d+\) AND LOWER\("[^"]+"\."GatewayMessage"\."subject"\) < LOWER\(\$\d+\)/);
    // Parameters in as literals (strings quoted, LIMIT/OFFSET numbers), then the plan with
    // sequential scans priced out, as on a table large enough for the planner to prefer the index.
    const params: string[] = JSON.parse(statement!.params);
    const literal = (v: string) => (/^\d+$/.test(v) ? v : `'${v.replace(/'/g, "''")}'`);
    const sql = statement!.query.replace(/\$(\d+)/g, (_m, n: string) => literal(params[Number(n) - 1]));
    const plan = await system.db.transaction(async (run) => {
      await run("SET LOCAL enable_seqscan = off");
      return run(`EXPLAIN ${sql}`);
    });
    expect(plan.map((r) => String(r["QUERY PLAN"])).join("\n")).toContain("GatewayMessage_subject_lower_idx");
  });
});
