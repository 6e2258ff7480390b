// Notifications and signals as events a client can list (seed 001 §6). Every part of the gateway
// records them through `recordEvent`; the periodic checks (`runEventChecks`: certificates expiring
// in 7 days, domain trials about to end, cluster nodes gone silent) are idempotent, so running
// them again records nothing twice.
import type { GatewayEvent } from "../../../generated/prisma/client.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { buildCollectionQuery, type ColumnSpec, type FilterInput, type OrderInput } from "../collection-query.ts";
import { pageWindow } from "../../../lib/gateway/collection-rules.ts";
import { EVENT_KINDS, type EventKind, CERTIFICATE_NOTICE_DAYS, TRIAL_NOTICE_DAYS, NODE_SILENCE_MINUTES } from "../../../lib/gateway/appliance.ts";
import type { GatewayContext } from "../context.ts";
import { applianceSettings } from "../appliance/appliance-settings.ts";
import { localNode } from "../appliance/node.ts";

export type { GatewayEvent };
export { EVENT_KINDS, type EventKind };

const DAY_MS = 24 * 60 * 60 * 1000;
type Ctx = Pick<GatewayContext, "db">;

export interface NewEvent {
  kind: EventKind;
  subject: string;
  body: string;
  /** Defaults to the administrator's address (appliance settings). */
  recipient?: string;
  /** Defaults to the quarantine sender; DMARC reports always come from no-reply@<MTA hostname>. */
  sender?: string;
  /** Recorded once: a second event with the same key is not recorded. */
  dedupeKey?: string;
  at?: Date;
}

/** Records one event (a notification sent, a signal raised); null when its dedupe key was already recorded. */
export async function recordEvent(ctx: Ctx, event: NewEvent): Promise<GatewayEvent | null> {
  const settings = await applianceSettings(ctx);
  const sender = event.kind === "dmarc-report" ? `no-reply@${settings.mtaHostname}` : event.sender ?? settings.quarantineSender;
  const node = await localNode(ctx);
  const data = {
    kind: event.kind, subject: event.subject, body: event.body, sender, recipient: event.recipient ?? settings.adminEmail,
    nodeUid: node.uid, dedupeKey: event.dedupeKey ?? null, ...(event.at ? { at: event.at } : {}),
  };
  if (!data.dedupeKey) return ctx.db.prisma.gatewayEvent.create({ data });
  // ON CONFLICT DO NOTHING: a check running twice (or on two nodes at once) records the event once.
  const { count } = await ctx.db.prisma.gatewayEvent.createMany({ data: [data], skipDuplicates: true });
  return count ? ctx.db.prisma.gatewayEvent.findUnique({ where: { dedupeKey: data.dedupeKey } }) : null;
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** The notifications due at `now`: certificate expiry, expiring domain trials, silent cluster nodes. */
export async function runEventChecks(ctx: Ctx, now = new Date()): Promise<number> {
  const { prisma } = ctx.db;
  let recorded = 0;
  const count = (e: GatewayEvent | null) => { if (e) recorded++; };
  const certificates = await prisma.gatewayCertificate.findMany({
    where: { notAfter: { gt: now, lte: new Date(now.getTime() + CERTIFICATE_NOTICE_DAYS * DAY_MS) } },
  });
  for (const c of certificates) {
    count(await recordEvent(ctx, {
      kind: "certificate-expiry", dedupeKey: `certificate-expiry:${c.id}:${c.notAfter.getTime()}`,
      subject: `TLS certificate ${c.commonName} expires on ${iso(c.notAfter)}`,
      body: `The TLS certificate for ${c.commonName} (node ${c.nodeUid}) expires on ${iso(c.notAfter)}. Renew it before then.`,
    }));
  }
  const trials = await prisma.gatewayDomain.findMany({
    where: { trialEndsAt: { gt: now, lte: new Date(now.getTime() + TRIAL_NOTICE_DAYS * DAY_MS) } },
  });
  for (const d of trials) {
    count(await recordEvent(ctx, {
      kind: "trial-expiring", dedupeKey: `trial-expiring:${d.id}:${d.trialEndsAt!.getTime()}`,
      subject: `The trial of ${d.name} ends on ${iso(d.trialEndsAt!)}`,
      body: `The one-time trial of domain ${d.name} (tenant ${d.tenant ?? "-"}) ends on ${iso(d.trialEndsAt!)}.`,
    }));
  }
  const silentSince = new Date(now.getTime() - NODE_SILENCE_MINUTES * 60_000);
  const silent = await prisma.gatewayClusterNode.findMany({ where: { local: false, state: "running", lastSeenAt: { lt: silentSince } } });
  for (const n of silent) {
    count(await recordEvent(ctx, {
      kind: "cluster-incident", dedupeKey: `cluster-incident:${n.uid}:silent:${n.lastSeenAt!.getTime()}`,
      subject: `Cluster node ${n.hostname} is not responding`,
      body: `Cluster node ${n.uid} (${n.hostname}) has not reported since ${iso(n.lastSeenAt!)}.`,
    }));
  }
  return recorded;
}

/** A user asks for a quarantined message to be released; the notice names them by full name, or username when that is empty. */
export async function notifyReleaseRequest(ctx: Ctx, request: { userId: number; messageId: string; subject: string }): Promise<GatewayEvent | null> {
  const [user, profile] = await Promise.all([
    ctx.db.prisma.gatewayUser.findUnique({ where: { id: request.userId } }),
    ctx.db.prisma.gatewayUserProfile.findUnique({ where: { userId: request.userId } }),
  ]);
  const name = profile?.fullName.trim() || user?.username || `user ${request.userId}`;
  return recordEvent(ctx, {
    kind: "release-request",
    subject: `Release request from ${name}`,
    body: `${name} asks to release message ${request.messageId} ("${request.subject}") from quarantine.`,
  });
}

/** A DMARC aggregate report sent to a sender domain's rua address: always from no-reply@<MTA hostname>. */
export function recordDmarcReport(ctx: Ctx, report: { domain: string; rua: string; begin: Date; end: Date }): Promise<GatewayEvent | null> {
  return recordEvent(ctx, {
    kind: "dmarc-report", recipient: report.rua,
    subject: `Report Domain: ${report.domain} Submitter: ${"gateway"} Report-ID: ${report.domain}-${report.begin.getTime() / 1000}`,
    body: `DMARC aggregate report for ${report.domain} from ${iso(report.begin)} to ${iso(report.end)}.`,
    dedupeKey: `dmarc-report:${report.domain}:${report.rua}:${report.begin.getTime()}`,
  });
}

export type EventField = "id" | "kind" | "at" | "recipient" | "sender";
const COLUMNS: Record<EventField, ColumnSpec<GatewayEvent>> = {
  id: { column: "id", type: "integer" },
  kind: { column: "kind", type: "enum", values: EVENT_KINDS },
  at: { column: "at", type: "datetime" },
  recipient: { column: "recipient", type: "string", format: "email" },
  sender: { column: "sender", type: "string", format: "email" },
};

export interface EventQuery {
  filter?: Partial<Record<EventField, readonly FilterInput[] | null>> | null;
  order?: readonly OrderInput<EventField>[] | null;
  page: number;
  itemsPerPage: number;
}

export async function listEvents(ctx: Ctx, query: EventQuery, now = new Date()) {
  await runEventChecks(ctx, now);
  const window = pageWindow(query.page, query.itemsPerPage);
  const built = buildCollectionQuery(COLUMNS, query.filter, query.order?.length ? query.order : [{ field: "at", direction: "desc" }]);
  const where = { AND: built.where } as Prisma.GatewayEventWhereInput;
  const [items, totalItems] = await Promise.all([
    ctx.db.prisma.gatewayEvent.findMany({ where, orderBy: built.orderBy as Prisma.GatewayEventOrderByWithRelationInput[], skip: window.skip, take: window.take }),
    ctx.db.prisma.gatewayEvent.count({ where }),
  ]);
  return { items, totalItems, page: window.page, itemsPerPage: window.itemsPerPage };
}
