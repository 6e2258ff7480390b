// What nearly every request reads and almost nothing writes (site options, languages and their
// settings, a user's application passwords) is kept across requests on PGlite (one process writes
// the data directory) until this process writes a table it comes from (lib/kept-until-write.ts,
// lib/table-writes.ts): a write, committed or rolled back, shows on the very next read, and a post
// created reads none of it again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type TableName } from "../../lib/db.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword } from "../helpers/users.ts";

let s: TestSystem;
beforeAll(async () => { s = await startTestSystem(); });
afterAll(() => s?.stop());

const siteName = async () => {
  const response = await s.request("GET", "/wp-json/");
  expect(response.status).toBe(200);
  return (response.body as { name: string }).name;
};

const onPglite = !process.env.DATABASE_URL?.startsWith("postgres");

describe("site options kept across requests", () => {
  it.runIf(onPglite)("are read once, not on every request, while nothing is written (PGlite)", async () => {
    await siteName();
    const before = s.db.statements();
    await siteName();
    const cached = s.db.statements() - before;
    await s.db.prisma.option.count(); // a read: the kept options stay
    const again = s.db.statements();
    await siteName();
    expect(s.db.statements() - again).toBe(cached);
    // A write to another table keeps them; a write to theirs makes the next request read them again.
    await s.db.prisma.term.create({ data: { name: "Kept", slug: "kept", taxonomy: "post_tag" } });
    const afterOther = s.db.statements();
    await siteName();
    expect(s.db.statements() - afterOther).toBe(cached);
    await s.db.prisma.option.upsert({ where: { name: "unrelated" }, create: { name: "unrelated", value: 1 }, update: { value: 2 } });
    const afterWrite = s.db.statements();
    await siteName();
    expect(s.db.statements() - afterWrite).toBe(cached + 1);
  });

  it("show a settings change on the next read, and not a refused one", async () => {
    const changed = await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { title: "Kept Options Site" } });
    expect(changed.status).toBe(200);
    expect(await siteName()).toBe("Kept Options Site");
    const refused = await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { title: "Never Shown", posts_per_page: "many" } });
    expect(refused.status).toBe(400);
    expect(await siteName()).toBe("Kept Options Site");
  });

  it("show a change written directly on the next read, and never one rolled back", async () => {
    await s.db.prisma.option.upsert({ where: { name: "blogname" }, create: { name: "blogname", value: "Direct" }, update: { value: "Direct" } });
    expect(await siteName()).toBe("Direct");
    await s.db.prisma.$transaction(async (tx) => {
      await tx.option.update({ where: { name: "blogname" }, data: { value: "Rolled Back" } });
      throw new Error("undo");
    }).catch(() => {});
    expect(await siteName()).toBe("Direct");
  });

  it("answer a read that arrives while a change is being written with the change, once committed", async () => {
    let read: Promise<string> | undefined;
    await s.db.prisma.$transaction(async (tx) => {
      await tx.option.update({ where: { name: "blogname" }, data: { value: "Committed" } });
      read = siteName();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    // PGlite runs the read after the transaction; PostgreSQL reads what was committed when it asked.
    expect(["Direct", "Committed"]).toContain(await read);
    expect(await siteName()).toBe("Committed");
  });
});

describe("kept across requests, and dropped by the writes that change them", () => {
  it.runIf(onPglite)("a post created reads no site options, languages or credentials again; a signed-in request after it reads none either", async () => {
    const author = await createUserWithPassword(s, "kept-author", ["author"]);
    const me = async () => {
      const before = s.db.statements();
      expect((await s.request("GET", "/wp-json/core/v2/users/me", { auth: author.auth })).status).toBe(200);
      return s.db.statements() - before;
    };
    const create = async () => {
      const before = s.db.statements();
      expect((await s.request("POST", "/wp-json/core/v2/posts", { auth: author.auth, body: { title: "Kept", status: "publish" } })).status).toBe(201);
      return s.db.statements() - before;
    };
    await me(); // the first use of the password records it: a write to ApplicationPassword,
    const reread = await me(); // so the next request reads the user and its passwords again,
    const signedIn = await me(); // and the one after reads neither.
    expect(reread).toBe(signedIn + 2);
    expect(await me()).toBe(signedIn);
    await create();
    const second = await create();
    expect(await create()).toBe(second);
    expect(await me()).toBe(signedIn);
    // A settings change is a write to Option: the next request reads the options (one statement) again.
    expect((await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { title: "After Creates" } })).status).toBe(200);
    expect(await me()).toBe(signedIn + 1);
  });

  it("a revoked application password is refused on the next request, and a deleted user's", async () => {
    const editor = await createUserWithPassword(s, "kept-editor", ["editor"]);
    const me = () => s.request("GET", "/wp-json/core/v2/users/me", { auth: editor.auth });
    expect((await me()).status).toBe(200);
    expect((await me()).status).toBe(200);
    const revoked = await s.request("DELETE", `/wp-json/core/v2/users/${editor.id}/application-passwords`, { auth: "admin" });
    expect(revoked.status).toBe(200);
    expect((await me()).status).toBe(401);

    // Written directly: deleting the user deletes its passwords through the foreign key's cascade.
    const other = await createUserWithPassword(s, "kept-deleted", ["editor"]);
    const asOther = () => s.request("GET", "/wp-json/core/v2/users/me", { auth: other.auth });
    expect((await asOther()).status).toBe(200);
    expect((await asOther()).status).toBe(200);
    await s.db.prisma.$executeRawUnsafe(`DELETE FROM "User" WHERE "id" = ${other.id}`);
    expect((await asOther()).status).toBe(401);
  });
});

describe("Database.writeMark: which tables a statement may have written, through the schema's cascades and triggers (PGlite)", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase("memory:");
    await db.prisma.$executeRawUnsafe(`CREATE TABLE "Parent" ("id" int PRIMARY KEY)`);
    await db.prisma.$executeRawUnsafe(`CREATE TABLE "Child" ("id" int PRIMARY KEY, "parentId" int REFERENCES "Parent" ("id") ON DELETE CASCADE)`);
    await db.prisma.$executeRawUnsafe(`CREATE TABLE "Tally" ("n" int NOT NULL)`);
    await db.prisma.$executeRawUnsafe(`CREATE TABLE "Unrelated" ("id" int PRIMARY KEY)`);
    await db.prisma.$executeRawUnsafe(`INSERT INTO "Tally" VALUES (0)`);
    await db.prisma.$executeRawUnsafe(`CREATE FUNCTION tally_child() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE "Tally" SET "n" = "n" + 1; RETURN NULL; END $$`);
    await db.prisma.$executeRawUnsafe(`CREATE TRIGGER "Child_tally" AFTER INSERT ON "Child" FOR EACH STATEMENT EXECUTE FUNCTION tally_child()`);
  });
  afterAll(() => db?.close());

  /** Whether `sql` moves the mark of `tables` (scratch tables of this file, not models of the schema). */
  const moves = async (names: string[], sql: string) => {
    const tables = names as TableName[];
    const before = await db.writeMark(tables);
    await db.prisma.$executeRawUnsafe(sql);
    return (await db.writeMark(tables)) !== before;
  };

  it("a direct write, a cascade and a trigger move the mark; reads and other tables' writes do not", async () => {
    expect(await moves(["Parent"], `INSERT INTO "Parent" VALUES (1), (2)`)).toBe(true);
    expect(await moves(["Parent"], `INSERT INTO "Unrelated" VALUES (1)`)).toBe(false);
    expect(await moves(["Parent"], `SELECT * FROM "Parent" FOR UPDATE`)).toBe(false);
    // The trigger on Child writes Tally; Tally's writes reach nothing else.
    expect(await moves(["Tally"], `INSERT INTO "Child" VALUES (1, 1)`)).toBe(true);
    expect(await moves(["Parent"], `UPDATE "Tally" SET "n" = 0`)).toBe(false);
    // Deleting a parent deletes its children.
    expect(await moves(["Child"], `DELETE FROM "Parent" WHERE "id" = 2`)).toBe(true);
    expect(await moves(["Child"], `UPDATE "Unrelated" SET "id" = 3`)).toBe(false);
    // A statement whose tables the text cannot show (DDL) moves every mark, and the schema is read again.
    expect(await moves(["Unrelated"], `CREATE TABLE "Later" ("id" int REFERENCES "Unrelated" ("id") ON DELETE CASCADE)`)).toBe(true);
    expect(await moves(["Later"], `DELETE FROM "Unrelated"`)).toBe(true);
  });
});
