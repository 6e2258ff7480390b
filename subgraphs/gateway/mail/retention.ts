// Worker storage retention (seed 001 §8: 3 days): a message whose node (its `nodeId`, a cluster
// node's unique identifier) is a worker and that was received more than WORKER_RETENTION_DAYS
// ago is deleted. There is no scheduler: every message read (list, item, an address's messages)
// purges what is due first, so expired mail is never served, and `npm run admin -- gateway
// retention` does the same from cron. The no-op case costs two indexed look-ups (once per batch
// of addresses, in the EmailAddress loader).
import type { GatewayContext } from "../context.ts";
import { WORKER_RETENTION_DAYS } from "../../../lib/gateway/appliance.ts";
import { addToCounters, addToMessageCount, countersOf, type CountedValues } from "./ingest.ts";

const DAY_MS = 86_400_000;
const BATCH = 1_000;

/** Deletes worker-stored messages older than the retention period at `now`; returns how many. */
export async function purgeExpiredWorkerMail(ctx: Pick<GatewayContext, "db">, now = new Date()): Promise<number> {
  const { prisma } = ctx.db;
  const workers = (await prisma.gatewayClusterNode.findMany({ where: { role: "worker" }, select: { uid: true } })).map((n) => n.uid);
  if (!workers.length) return 0;
  const cutoff = new Date(now.getTime() - WORKER_RETENTION_DAYS * DAY_MS);
  const due = { nodeId: { in: workers }, receivedOn: { lt: cutoff } };
  if (!await prisma.gatewayMessage.findFirst({ where: due, select: { id: true } })) return 0;
  let deleted = 0;
  for (;;) {
    // The counters follow the rows this statement actually deleted (RETURNING), so two readers
    // purging at once never subtract the same message twice.
    const rows = await prisma.$transaction(async (tx) => {
      const gone = await tx.$queryRaw<CountedValues[]>`
        DELETE FROM "GatewayMessage" WHERE id IN (
          SELECT id FROM "GatewayMessage" WHERE "nodeId" = ANY(${workers}::text[]) AND "receivedOn" < ${cutoff}
          ORDER BY "receivedOn", id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING state, result, quarantined, direction`;
      await addToMessageCount(tx, -gone.length);
      await addToCounters(tx, countersOf(gone, -1));
      return gone;
    });
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}
