// Mail flow as data: the one path processed mail takes into the gateway (the REST ingest route,
// the GraphQL mutation, the admin command reading a JSON Lines log, the demo seed). One call is
// one transaction: the messages with their addresses, URI hosts, attachments and scan analysis,
// then what derives from them — licence accounting (first seen, last seen, delivery count; the
// single-day rule), restricted senders (outbound spam, viruses, phishing) and the message counter.
// The derived tables are written set-based (one statement each), whatever the batch size.
import crypto from "node:crypto";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { domainOf } from "../../../lib/gateway/addresses.ts";
import { violationError } from "../../../lib/gateway/collection-rules.ts";
import { checkIngestBatch, type IngestRecord } from "../../../lib/gateway/ingest-record.ts";
import { EXPIRY_DAYS } from "../../../lib/gateway/licensing.ts";
import { INGEST_LIMITS, RESTRICTING_RESULTS } from "../../../lib/gateway/messages.ts";
import type { GatewayContext } from "../context.ts";

export interface IngestReport { ingested: number; duplicates: number; accountedDeliveries: number; restrictedSenders: number }

/** All-or-nothing: any refused record refuses the call with one 422 listing every violation. */
export async function ingestMessages(ctx: Pick<GatewayContext, "db">, raws: readonly unknown[]): Promise<IngestReport> {
  if (raws.length > INGEST_LIMITS.batch) {
    throw violationError([{ propertyPath: "messages", message: `At most ${INGEST_LIMITS.batch} messages per call.` }]);
  }
  const { records, rejected } = checkIngestBatch(raws);
  if (rejected.length) throw violationError(rejected.flatMap((r) => r.violations));
  return storeMessages(ctx, records);
}

/** The deliveries a message accounts: local recipients of inbound mail, local senders of outbound mail, both for internal. */
export function accountedAddresses(record: IngestRecord): string[] {
  if (record.deliveryResult !== "delivered") return []; // bounced, rejected, held or dropped mail does not count
  const out: string[] = [];
  if (record.direction !== "outbound") out.push(...record.recipients);
  if (record.direction !== "inbound" && record.sender) out.push(record.sender);
  return [...new Set(out)];
}

/** Stores checked records in one transaction; ids already stored are skipped (a replayed log adds nothing). */
export async function storeMessages(ctx: Pick<GatewayContext, "db">, records: readonly IngestRecord[]): Promise<IngestReport> {
  const report: IngestReport = { ingested: 0, duplicates: 0, accountedDeliveries: 0, restrictedSenders: 0 };
  if (!records.length) return report;
  // Within one call the first record of an id wins, as against the stored ones.
  const byId = new Map<string, IngestRecord>();
  for (const r of records) if (!byId.has(r.id)) byId.set(r.id, r);

  await ctx.db.prisma.$transaction(async (tx) => {
    const inserted = await tx.gatewayMessage.createManyAndReturn({
      data: [...byId.values()].map((r): Prisma.GatewayMessageCreateManyInput => ({
        id: r.id, messageId: r.messageId, receivedOn: r.receivedOn, sentOn: r.sentOn,
        sender: r.sender, headerFrom: r.headerFrom, headerFromAddress: r.headerFromAddress, recipients: r.recipients,
        senderIp: r.senderIp, hostname: r.hostname, nodeId: r.nodeId, direction: r.direction, subject: r.subject,
        size: r.size, result: r.result, deliveryResult: r.deliveryResult, score: r.score,
        hasAttachments: r.attachments.length > 0, state: r.quarantined ? "quarantined" : "none", quarantined: r.quarantined,
        uriHosts: r.uriHosts, headers: r.headers ?? undefined,
      })),
      skipDuplicates: true,
      select: { id: true },
    });
    const stored = inserted.map(({ id }) => byId.get(id)).filter((r): r is IngestRecord => r !== undefined);
    report.ingested = stored.length;
    report.duplicates = records.length - stored.length;
    if (!stored.length) return;

    const addresses: Prisma.GatewayMessageAddressCreateManyInput[] = [];
    for (const r of stored) {
      const seen = new Set<string>();
      const add = (address: string, role: string) => {
        if (!address || seen.has(`${role}:${address}`)) return;
        seen.add(`${role}:${address}`);
        addresses.push({ messageId: r.id, address, domain: domainOf(address), role, receivedOn: r.receivedOn });
      };
      add(r.sender, "sender");
      add(r.headerFromAddress, "from");
      for (const recipient of r.recipients) add(recipient, "recipient");
    }
    await tx.gatewayMessageAddress.createMany({ data: addresses });
    const hosts = stored.flatMap((r) => r.uriHosts.map((host) => ({ messageId: r.id, host, receivedOn: r.receivedOn })));
    if (hosts.length) await tx.gatewayMessageUriHost.createMany({ data: hosts });
    const attachments = stored.flatMap((r) => r.attachments.map((a, position): Prisma.GatewayAttachmentCreateManyInput => ({
      messageId: r.id, position, name: a.name, contentType: a.contentType, size: a.size,
      sha256: a.content ? crypto.createHash("sha256").update(a.content).digest("hex") : a.sha256 ?? "",
      // The content is kept only where the gateway keeps it: in quarantine storage.
      content: r.quarantined && a.content ? a.content.toString("base64") : null,
    })));
    if (attachments.length) await tx.gatewayAttachment.createMany({ data: attachments });
    const analyses = stored.filter((r) => r.analysis !== null || r.score !== null).map((r): Prisma.GatewayScanAnalysisCreateManyInput => ({
      messageId: r.id, verdict: r.result, score: r.score, details: (r.analysis ?? []) as unknown as Prisma.InputJsonValue, createdAt: r.receivedOn,
    }));
    if (analyses.length) await tx.gatewayScanAnalysis.createMany({ data: analyses });

    // Licence accounting, set-based: one upsert for every address the batch delivered to.
    const deliveries = new Map<string, { first: Date; last: Date; count: number }>();
    for (const r of stored) {
      for (const address of accountedAddresses(r)) {
        const d = deliveries.get(address);
        if (!d) deliveries.set(address, { first: r.receivedOn, last: r.receivedOn, count: 1 });
        else {
          if (r.receivedOn < d.first) d.first = r.receivedOn;
          if (r.receivedOn > d.last) d.last = r.receivedOn;
          d.count++;
        }
      }
    }
    if (deliveries.size) {
      const list = [...deliveries];
      report.accountedDeliveries = list.reduce((n, [, d]) => n + d.count, 0);
      await tx.$executeRawUnsafe(`
        INSERT INTO "AccountedEmail" ("address", "type", "domain", "firstSeenOn", "lastSeenOn", "deliveryCount", "expiresOn", "accounted")
        SELECT a, CASE WHEN fu.email IS NULL THEN 'address' ELSE 'functional' END, split_part(a, '@', 2), f, l, c,
          l + interval '${EXPIRY_DAYS} days', fu.email IS NULL AND f::date <> l::date
        FROM unnest($1::text[], $2::timestamp(3)[], $3::timestamp(3)[], $4::int[]) AS d(a, f, l, c)
        -- Functional users (shared mailboxes, groups from a directory import) are accounted, never a licence.
        LEFT JOIN "GatewayFunctionalUser" AS fu ON lower(fu.email) = d.a
        ON CONFLICT ("address") DO UPDATE SET
          "type" = CASE WHEN EXCLUDED."type" = 'functional' THEN 'functional' ELSE "AccountedEmail"."type" END,
          "firstSeenOn" = LEAST("AccountedEmail"."firstSeenOn", EXCLUDED."firstSeenOn"),
          "lastSeenOn" = GREATEST("AccountedEmail"."lastSeenOn", EXCLUDED."lastSeenOn"),
          "deliveryCount" = "AccountedEmail"."deliveryCount" + EXCLUDED."deliveryCount",
          "expiresOn" = GREATEST("AccountedEmail"."lastSeenOn", EXCLUDED."lastSeenOn") + interval '${EXPIRY_DAYS} days',
          "accounted" = "AccountedEmail"."type" <> 'functional' AND EXCLUDED."type" <> 'functional'
            AND LEAST("AccountedEmail"."firstSeenOn", EXCLUDED."firstSeenOn")::date <> GREATEST("AccountedEmail"."lastSeenOn", EXCLUDED."lastSeenOn")::date`,
      list.map(([a]) => a), list.map(([, d]) => d.first.toISOString()), list.map(([, d]) => d.last.toISOString()), list.map(([, d]) => d.count));
    }

    // Restricted senders: a local sender whose outbound mail was found to be spam, a virus or phishing.
    const restrictions = new Map<string, { reason: string; first: Date; last: Date; count: number; lastId: string }>();
    for (const r of stored) {
      const reason = RESTRICTING_RESULTS[r.result];
      if (!reason || r.direction !== "outbound" || !r.sender) continue;
      const x = restrictions.get(r.sender);
      if (!x) restrictions.set(r.sender, { reason, first: r.receivedOn, last: r.receivedOn, count: 1, lastId: r.id });
      else {
        x.count++;
        if (r.receivedOn < x.first) x.first = r.receivedOn;
        if (r.receivedOn >= x.last) { x.last = r.receivedOn; x.lastId = r.id; x.reason = reason; }
      }
    }
    if (restrictions.size) {
      const list = [...restrictions];
      const rows = await tx.$queryRawUnsafe<{ inserted: boolean }[]>(`
        INSERT INTO "GatewayRestrictedSender" ("sender", "reason", "restrictedAt", "lastMessageAt", "messageCount", "lastMessageId")
        SELECT s, r, f, l, c, m FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::timestamp(3)[], $5::int[], $6::text[]) AS d(s, r, f, l, c, m)
        ON CONFLICT ("sender") DO UPDATE SET
          "messageCount" = "GatewayRestrictedSender"."messageCount" + EXCLUDED."messageCount",
          "restrictedAt" = LEAST("GatewayRestrictedSender"."restrictedAt", EXCLUDED."restrictedAt"),
          "reason" = CASE WHEN EXCLUDED."lastMessageAt" >= "GatewayRestrictedSender"."lastMessageAt" THEN EXCLUDED."reason" ELSE "GatewayRestrictedSender"."reason" END,
          "lastMessageId" = CASE WHEN EXCLUDED."lastMessageAt" >= "GatewayRestrictedSender"."lastMessageAt" THEN EXCLUDED."lastMessageId" ELSE "GatewayRestrictedSender"."lastMessageId" END,
          "lastMessageAt" = GREATEST("GatewayRestrictedSender"."lastMessageAt", EXCLUDED."lastMessageAt")
        RETURNING (xmax = 0) AS inserted`,
      list.map(([s]) => s), list.map(([, x]) => x.reason), list.map(([, x]) => x.first.toISOString()), list.map(([, x]) => x.last.toISOString()),
      list.map(([, x]) => x.count), list.map(([, x]) => x.lastId));
      report.restrictedSenders = rows.filter((row) => row.inserted).length;
    }

    await addToMessageCount(tx, stored.length);
    await addToCounters(tx, countersOf(stored.map((r) => ({ state: r.quarantined ? "quarantined" : "none", result: r.result, quarantined: r.quarantined, direction: r.direction }))));
  });
  return report;
}

type Tx = Prisma.TransactionClient;

export const MESSAGE_COUNTER = "messages";

/** The columns whose per-value totals are kept as counters (equality filters on them read one row). */
export const COUNTED_COLUMNS = ["state", "result", "quarantined", "direction"] as const;
export type CountedColumn = (typeof COUNTED_COLUMNS)[number];
export type CountedValues = Record<CountedColumn, string | boolean>;

export const counterName = (column: CountedColumn, value: unknown): string => `${column}:${String(value)}`;

/** Per-counter deltas of some messages (+1 each). */
export function countersOf(rows: readonly CountedValues[], sign = 1): Map<string, number> {
  const deltas = new Map<string, number>();
  for (const row of rows) for (const column of COUNTED_COLUMNS) {
    const name = counterName(column, row[column]);
    deltas.set(name, (deltas.get(name) ?? 0) + sign);
  }
  return deltas;
}

/** Applies counter deltas in the caller's transaction, in name order (no deadlock between writers). */
export async function addToCounters(tx: Tx, deltas: Map<string, number>): Promise<void> {
  for (const [name, delta] of [...deltas].sort(([a], [b]) => a.localeCompare(b))) {
    if (!delta) continue;
    await tx.gatewayMessageCounter.upsert({
      where: { name }, create: { name, value: BigInt(Math.max(0, delta)) }, update: { value: { increment: BigInt(delta) } },
    });
  }
}

/** Keeps the unfiltered message total (one row) in step with inserts and purges, in their transaction. */
export async function addToMessageCount(tx: Tx, delta: number): Promise<void> {
  if (!delta) return;
  await tx.gatewayMessageCounter.upsert({
    where: { name: MESSAGE_COUNTER },
    create: { name: MESSAGE_COUNTER, value: BigInt(Math.max(0, delta)) },
    update: { value: { increment: BigInt(delta) } },
  });
}
