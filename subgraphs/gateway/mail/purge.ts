// Bulk purge of messages (seed 001 §8: more than 10,000 messages are handled by the admin command
// line). A purge is a job row: its selection, its total and a cursor (receivedOn, id). Each batch
// deletes the next messages after the cursor, oldest first, and moves the cursor in the same
// transaction (with the message counter), so an interrupted purge resumes where it stopped and
// never deletes a row twice or skips one.
import type { GatewayPurgeJob, Prisma } from "../../../generated/prisma/client.ts";
import type { MessageFilter } from "../../../generated/graphql/gateway-resolvers.ts";
import { domainError } from "../../../lib/errors.ts";
import type { GatewayContext } from "../context.ts";
import { addToCounters, addToMessageCount, countersOf } from "./ingest.ts";
import { messageWhere } from "./messages.ts";

/** Above this many messages, a purge belongs to the admin command (seed 001 §8). */
export const API_PURGE_LIMIT = 10_000;
export const PURGE_BATCH = 1_000;

export interface PurgeCriteria {
  /** Messages received before this instant. */
  before?: string;
  /** The list's filter grammar (e.g. { quarantined: [{ operator: "eq", value: "true" }] }). */
  filter?: MessageFilter;
}

function selection(criteria: PurgeCriteria): Prisma.GatewayMessageWhereInput {
  const where = messageWhere(criteria.filter);
  if (criteria.before) where.push({ receivedOn: { lt: new Date(criteria.before) } });
  return { AND: where };
}

/** Starts a purge job: the selection's size is its total. */
export async function startPurge(ctx: Pick<GatewayContext, "db">, criteria: PurgeCriteria): Promise<GatewayPurgeJob> {
  const total = await ctx.db.prisma.gatewayMessage.count({ where: selection(criteria) });
  return ctx.db.prisma.gatewayPurgeJob.create({ data: { criteria: criteria as Prisma.InputJsonValue, total } });
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The unfinished job with the same selection, to resume; or null. */
export async function unfinishedPurge(ctx: Pick<GatewayContext, "db">, criteria: PurgeCriteria): Promise<GatewayPurgeJob | null> {
  const running = await ctx.db.prisma.gatewayPurgeJob.findMany({ where: { state: "running" }, orderBy: { id: "desc" } });
  // jsonb keeps keys in its own order: compare a canonical form.
  const key = canonical(criteria);
  return running.find((job) => canonical(job.criteria) === key) ?? null;
}

export async function purgeJob(ctx: Pick<GatewayContext, "db">, id: number): Promise<GatewayPurgeJob> {
  const job = await ctx.db.prisma.gatewayPurgeJob.findUnique({ where: { id } });
  if (!job) throw domainError("gateway_not_found", { message: `No purge job ${id}.` });
  return job;
}

/** Deletes the next batch after the job's cursor; returns the job as it now stands (state done when nothing was left). */
export async function purgeNextBatch(ctx: Pick<GatewayContext, "db">, job: GatewayPurgeJob, size = PURGE_BATCH): Promise<{ job: GatewayPurgeJob; deleted: number }> {
  const where = selection(job.criteria as PurgeCriteria);
  const after: Prisma.GatewayMessageWhereInput | undefined = job.cursorAt && job.cursorId
    ? { OR: [{ receivedOn: { gt: job.cursorAt } }, { receivedOn: job.cursorAt, id: { gt: job.cursorId } }] }
    : undefined;
  return ctx.db.prisma.$transaction(async (tx) => {
    const batch = await tx.gatewayMessage.findMany({
      where: after ? { AND: [where, after] } : where, orderBy: [{ receivedOn: "asc" }, { id: "asc" }], take: size, select: { id: true, receivedOn: true, state: true, result: true, quarantined: true, direction: true },
    });
    if (!batch.length) {
      const done = await tx.gatewayPurgeJob.update({ where: { id: job.id }, data: { state: "done", finishedAt: new Date() } });
      return { job: done, deleted: 0 };
    }
    // Address, URI-host, attachment, analysis and report rows go with their message (ON DELETE CASCADE).
    const { count } = await tx.gatewayMessage.deleteMany({ where: { id: { in: batch.map((m) => m.id) } } });
    await addToMessageCount(tx, -count);
    await addToCounters(tx, countersOf(batch, -1));
    const last = batch[batch.length - 1];
    const updated = await tx.gatewayPurgeJob.update({
      where: { id: job.id },
      data: { cursorAt: last.receivedOn, cursorId: last.id, purged: { increment: count } },
    });
    return { job: updated, deleted: count };
  });
}

/**
 * The API's purge: at most API_PURGE_LIMIT messages in one call; a larger selection is refused
 * with a pointer to the admin command. Administrators only (the resolver checks).
 */
export async function purgeMessages(ctx: Pick<GatewayContext, "db">, criteria: PurgeCriteria): Promise<number> {
  const total = await ctx.db.prisma.gatewayMessage.count({ where: selection(criteria) });
  if (total > API_PURGE_LIMIT) {
    throw domainError("gateway_conflict", {
      message: `${total} messages match: a bulk purge of more than ${API_PURGE_LIMIT} messages runs from the command line (npm run admin -- gateway purge).`,
      status: 422,
    });
  }
  let job = await startPurge(ctx, criteria);
  let deleted = 0;
  for (;;) {
    const step = await purgeNextBatch(ctx, job);
    job = step.job;
    deleted += step.deleted;
    if (job.state === "done") return deleted;
  }
}
