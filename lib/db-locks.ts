// Transaction-scoped locks for check-then-write rules the schema cannot state (WordPress's slug
// suffixes: "hello", "hello-2"…): writers of the same key wait for each other until commit, so the
// second one's check sees the first one's row. PostgreSQL and PGlite alike.
import { Prisma } from "../generated/prisma/client.ts";

/** Holds a lock on `key` until the transaction ends. */
export async function lockUntilCommit(tx: Prisma.TransactionClient, key: string): Promise<void> {
  // pg_advisory_xact_lock returns void, which the client cannot read: select a constant beside it.
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${key}))`;
}

/**
 * An expression that takes the locks on all `keys` until the transaction ends (its value is their
 * count), selected beside other values so that one statement does both. Taken in sorted order, so two
 * writers never wait on each other in a cycle.
 */
export function lockingAll(keys: string[]): Prisma.Sql {
  const sorted = [...new Set(keys)].sort();
  return Prisma.sql`(SELECT count(pg_advisory_xact_lock(hashtext(k)))::int FROM (SELECT unnest(${sorted}::text[]) AS k ORDER BY 1) AS keys)`;
}
