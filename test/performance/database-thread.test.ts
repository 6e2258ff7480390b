// PGlite on its own thread (lib/pglite-thread.ts) must behave as PGlite on the main thread: the same
// answers, the same errors (a unique violation is one, as lib/db-errors.ts reads it), transactions that commit or
// leave nothing behind. What it adds: a slow statement no longer stops the main thread.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { applyMigrations } from "../../lib/migrate.ts";

describe.each([["on its own thread", true], ["on the main thread", false]])("PGlite %s", (_, thread) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase("memory:", { thread });
    await applyMigrations(db);
  });
  afterAll(() => db.close());

  it("answers queries, and reports a unique violation as one", async () => {
    await db.prisma.option.create({ data: { name: "thread_test", value: { a: [1, "two"] } } });
    expect(await db.prisma.option.findUnique({ where: { name: "thread_test" } })).toEqual({ name: "thread_test", value: { a: [1, "two"] } });
    const duplicate = await db.prisma.option.create({ data: { name: "thread_test", value: 1 } }).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(String(duplicate)).toMatch(/duplicate key value/);
  });

  it("commits an interactive transaction, and leaves nothing of one that fails", async () => {
    await db.prisma.$transaction(async (tx) => {
      await tx.option.create({ data: { name: "kept", value: 1 } });
      await tx.option.create({ data: { name: "kept too", value: 2 } });
    });
    const failed = await db.prisma.$transaction(async (tx) => {
      await tx.option.create({ data: { name: "undone", value: 1 } });
      await tx.option.create({ data: { name: "kept", value: 3 } }); // unique violation
    }).catch((error: unknown) => error);
    expect(isUniqueViolation(failed)).toBe(true);
    const names = (await db.prisma.option.findMany({ where: { name: { in: ["kept", "kept too", "undone"] } }, orderBy: { name: "asc" } })).map((o) => [o.name, o.value]);
    expect(names).toEqual([["kept", 1], ["kept too", 2]]);
  });

  it("runs simultaneous transactions one after another, each seeing the writes of those before", async () => {
    // On the thread a transaction's statements are sent before it is open: they must wait for it.
    await db.prisma.option.create({ data: { name: "counter", value: 0 } });
    await Promise.all(Array.from({ length: 8 }, () => db.prisma.$transaction(async (tx) => {
      const { value } = await tx.option.findUniqueOrThrow({ where: { name: "counter" } });
      await tx.option.update({ where: { name: "counter" }, data: { value: Number(value) + 1 } });
    })));
    expect((await db.prisma.option.findUniqueOrThrow({ where: { name: "counter" } })).value).toBe(8);
  });

  it("runs SQL text in one transaction, and rolls all of it back on an error", async () => {
    const rows = await db.transaction((run) => run(`INSERT INTO "Option" (name, value) VALUES ('raw', '1'); SELECT count(*)::int AS n FROM "Option" WHERE name = 'raw'`));
    expect(rows).toEqual([{ n: 1 }]);
    const failed = await db.transaction(async (run) => {
      await run(`INSERT INTO "Option" (name, value) VALUES ('raw undone', '1')`);
      await run(`SELECT * FROM "NoSuchTable"`);
    }).catch((error: Error) => error);
    expect(String(failed)).toMatch(/NoSuchTable/);
    expect(await db.prisma.option.count({ where: { name: "raw undone" } })).toBe(0);
  });

  it("keeps a read outside a transaction from seeing its writes before the commit", async () => {
    let outside: Promise<number> | undefined;
    await db.prisma.$transaction(async (tx) => {
      await tx.option.create({ data: { name: "in flight", value: 1 } });
      outside = db.prisma.option.count({ where: { name: "in flight" } });
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    // PGlite has one connection: the outside read waits for the transaction and sees it committed.
    expect(await outside).toBe(1);
  });

  it(thread ? "keeps the main thread free while a statement runs" : "holds the main thread while a statement runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => { ticks++; }, 5);
    await db.prisma.$executeRaw`SELECT pg_sleep(0.3)`;
    clearInterval(timer);
    if (thread) expect(ticks).toBeGreaterThan(10);
    else expect(ticks).toBeLessThanOrEqual(1);
  });
});
