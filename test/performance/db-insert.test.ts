// lib/db-insert.ts: the multi-row INSERT the bulk creates send instead of Prisma's createMany.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Prisma } from "../../generated/prisma/client.ts";
import { openDatabase, type Database } from "../../lib/db.ts";
import { insertRows } from "../../lib/db-insert.ts";

let db: Database;
beforeAll(async () => {
  db = await openDatabase("memory:");
  await db.prisma.$executeRawUnsafe(`CREATE TABLE "Thing" ("id" serial PRIMARY KEY, "name" text NOT NULL DEFAULT 'unnamed', "at" timestamp(3) NOT NULL, "meta" jsonb NOT NULL, "flag" boolean NOT NULL)`);
});
afterAll(() => db?.close());

it("writes every row in one statement, with parameters, defaults for undefined values and casts where asked", async () => {
  const at = new Date("2026-01-02T03:04:05.678Z");
  const rows = [
    { name: "first", at, meta: { a: [1, "two"] }, flag: true },
    { name: undefined, at, meta: {}, flag: false },
    { name: `quote ' and "double" $1`, at, meta: { nested: { x: null } }, flag: true },
  ];
  const before = db.statements();
  const written = await db.prisma.$queryRaw<{ id: number; name: string; at: Date; meta: unknown; flag: boolean }[]>`${insertRows("Thing", rows, { meta: "jsonb" })} RETURNING *`;
  expect(db.statements() - before).toBe(1);
  expect(written.map(({ id: _id, ...row }) => row)).toEqual([
    { name: "first", at, meta: { a: [1, "two"] }, flag: true },
    { name: "unnamed", at, meta: {}, flag: false },
    { name: `quote ' and "double" $1`, at, meta: { nested: { x: null } }, flag: true },
  ]);
  // What was written reads back the same.
  expect(await db.prisma.$queryRaw`SELECT * FROM "Thing" ORDER BY "id"`).toEqual(written);
});

it("refuses rows whose columns differ, and no rows at all", () => {
  expect(() => insertRows("Thing", [{ name: "a", flag: true }, { name: "b" }] as { name: string; flag?: boolean }[])).toThrow(/same columns/);
  expect(() => insertRows("Thing", [])).toThrow(/no rows/);
  expect(insertRows("Thing", [{ name: "a" }])).toBeInstanceOf(Prisma.Sql);
});
