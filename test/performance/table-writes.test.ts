// lib/table-writes.ts in process: the tables a statement's text shows it writes, and how a write
// reaches other tables through the schema (foreign key actions, triggers).
import { describe, expect, it } from "vitest";
import { TableWrites, writtenTables, type SchemaEffects } from "../../lib/table-writes.ts";

describe("writtenTables", () => {
  it("names the tables Prisma's and our own statements write", () => {
    expect(writtenTables(`INSERT INTO "public"."Post" ("id","type") VALUES ($1,$2) RETURNING "public"."Post"."id"`)).toEqual(["Post"]);
    expect(writtenTables(`UPDATE "public"."Option" SET "value" = $1 WHERE ("public"."Option"."name" = $2 AND 1=1) RETURNING "public"."Option"."name"`)).toEqual(["Option"]);
    expect(writtenTables(`DELETE FROM "public"."PostTerm" WHERE "public"."PostTerm"."postId" = $1`)).toEqual(["PostTerm"]);
    expect(writtenTables(`WITH moved AS (DELETE FROM "GatewayMessage" WHERE id IN (SELECT id FROM "GatewayMessage" LIMIT 10 FOR UPDATE SKIP LOCKED) RETURNING *) INSERT INTO archive SELECT * FROM moved`))
      .toEqual(expect.arrayContaining(["GatewayMessage", "archive"]));
    expect(writtenTables(`INSERT INTO "AccountedEmail" ("address") VALUES ($1) ON CONFLICT ("address") DO UPDATE SET "deliveryCount" = 1`)).toContain("AccountedEmail");
    expect(writtenTables(`UPDATE ONLY "Weird""Name" SET x = 1`)).toEqual(['Weird"Name']);
  });

  it("writes nothing for reads and transaction control", () => {
    for (const sql of [
      `SELECT "public"."Option"."name" FROM "public"."Option" WHERE 1=1`,
      `SELECT * FROM "Post" FOR UPDATE`, `SELECT * FROM "Post" FOR NO KEY UPDATE`,
      `SELECT "updatedAt" FROM "Language"`,
      "BEGIN", "COMMIT", "ROLLBACK", `-- Implicit "COMMIT" query via underlying driver`, "SAVEPOINT a", "SET LOCAL statement_timeout = 0",
    ]) expect(writtenTables(sql)).toEqual([]);
  });

  it("cannot tell for DDL, TRUNCATE and calls", () => {
    for (const sql of [`CREATE TABLE "T" (id int)`, `ALTER TABLE "Post" ADD COLUMN x int`, `TRUNCATE "A", "B"`, "CALL tidy()", "DO $$ BEGIN END $$"]) {
      expect(writtenTables(sql)).toBeNull();
    }
  });
});

describe("TableWrites", () => {
  const schema = (effects: Partial<SchemaEffects>): SchemaEffects => ({ cascades: [], triggers: [], functions: [], ...effects });

  it("moves a table's mark on its own writes, its cascades' and its triggers', transitively", async () => {
    const writes = new TableWrites(async () => schema({
      cascades: [{ affected: "Child", writer: "Parent" }, { affected: "Grandchild", writer: "Child" }],
      triggers: [{ writer: "Post", body: `BEGIN INSERT INTO "PostCount" SELECT 1 ON CONFLICT DO UPDATE SET n = 1; RETURN NULL; END` }],
    }));
    const moved = async (tables: string[], sql: string) => {
      const before = await writes.mark(tables);
      writes.note(sql);
      return (await writes.mark(tables)) !== before;
    };
    expect(await moved(["Grandchild"], `DELETE FROM "Parent"`)).toBe(true);
    expect(await moved(["Parent"], `DELETE FROM "Grandchild"`)).toBe(false);
    expect(await moved(["PostCount"], `INSERT INTO "public"."Post" VALUES (1)`)).toBe(true);
    expect(await moved(["Post"], `INSERT INTO "PostCount" VALUES (1)`)).toBe(false);
    expect(await moved(["Option"], `INSERT INTO "public"."Post" VALUES (2)`)).toBe(false);
  });

  it("counts a trigger that runs dynamic SQL or calls a function of the schema as writing every table", async () => {
    const writes = new TableWrites(async () => schema({
      triggers: [{ writer: "A", body: "BEGIN EXECUTE format('UPDATE %I SET x = 1', TG_ARGV[0]); RETURN NULL; END" }, { writer: "B", body: "BEGIN PERFORM recount(NEW.id); RETURN NEW; END" }],
      functions: [{ name: "recount" }],
    }));
    for (const table of ["A", "B"]) {
      const before = await writes.mark(["Option"]);
      writes.note(`INSERT INTO "${table}" VALUES (1)`);
      expect(await writes.mark(["Option"])).not.toBe(before);
    }
  });

  it("reads the schema again after a statement it cannot read, and counts that statement as a write everywhere", async () => {
    let reads = 0;
    const writes = new TableWrites(async () => { reads++; return schema({}); });
    const before = await writes.mark(["Option"]);
    expect(await writes.mark(["Option"])).toBe(before);
    expect(reads).toBe(1);
    writes.note(`ALTER TABLE "Option" ADD COLUMN x int`);
    expect(await writes.mark(["Option"])).not.toBe(before);
    expect(reads).toBe(2);
  });
});
