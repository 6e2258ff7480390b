// Transaction-scoped locks for check-then-write rules the schema cannot state (WordPress's slug
// suffixes: "hello", "hello-2"…): writers of the same key wait for each other until commit, so the
// second one's check sees the first one's row. PostgreSQL and PGlite alike.
import type { Prisma } from "../generated/prisma/client.ts";

/** Holds a lock on `key` until the transaction ends. */
export async function lockUntilCommit(tx: Prisma.TransactionClient, key: string): Promise<void> {
  // pg_advisory_xact_lock returns void, which the client cannot read: select a constant beside it.
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${key}))`;
}

/** Holds locks on all `keys` until the transaction ends, in one statement; taken in sorted order, so two writers never wait on each other in a cycle. */
export async function lockAllUntilCommit(tx: Prisma.TransactionClient, keys: string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  await tx.$queryRaw`SELECT count(pg_advisory_xact_lock(hashtext(k)))::int AS locked FROM (SELECT unnest(${sorted}::text[]) AS k ORDER BY 1) AS keys`;
}
