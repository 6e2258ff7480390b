// Restricted senders (GET /restricted-sender): derived from ingested mail (mail/ingest.ts writes
// them); listed, filtered by sender (5.3.5), and lifted by an administrator.
import type { GatewayRestrictedSender, Prisma } from "../../../generated/prisma/client.ts";
import type { RestrictedSenderField, RestrictedSenderFilter, RestrictedSenderOrder } from "../../../generated/graphql/gateway-resolvers.ts";
import { domainError } from "../../../lib/errors.ts";
import { pageWindow } from "../../../lib/gateway/collection-rules.ts";
import { RESTRICTION_REASONS } from "../../../lib/gateway/messages.ts";
import { buildCollectionQuery, type ColumnSpec } from "../collection-query.ts";
import type { GatewayContext } from "../context.ts";
import { mailScope, requireMailAdmin, type MailScope } from "../mail/scope.ts";

/** The API spells reasons with dashes (outbound-spam); GraphQL enum values cannot. */
export const REASON_VALUES = RESTRICTION_REASONS.map((r) => r.replace(/-/g, "_"));

const COLUMNS: Record<keyof RestrictedSenderFilter | RestrictedSenderField, ColumnSpec<GatewayRestrictedSender>> = {
  id: { column: "id", type: "integer" },
  sender: { column: "sender", type: "string", format: "email" },
  reason: { column: "reason", type: "enum", values: RESTRICTION_REASONS },
  messageCount: { column: "messageCount", type: "integer" },
  restrictedAt: { column: "restrictedAt", type: "datetime" },
  lastMessageAt: { column: "lastMessageAt", type: "datetime" },
};

function scopeWhere(scope: MailScope): Prisma.GatewayRestrictedSenderWhereInput[] {
  if (scope.kind !== "domains") return [];
  return [{ OR: scope.domains.map((d) => ({ sender: { endsWith: `@${d}` } })) }];
}

export interface RestrictedSenderQuery { filter?: RestrictedSenderFilter | null; order?: readonly RestrictedSenderOrder[] | null; page: number; itemsPerPage: number }

export async function listRestrictedSenders(ctx: Pick<GatewayContext, "db" | "identity">, query: RestrictedSenderQuery) {
  const scope = await mailScope(ctx);
  requireMailAdmin(scope);
  const window = pageWindow(query.page, query.itemsPerPage);
  // Reasons arrive as the API writes them (outbound-spam) or as the enum does (outbound_spam).
  const filter = query.filter?.reason
    ? { ...query.filter, reason: query.filter.reason.map((c) => ({ ...c, value: c.value.replace(/_/g, "-") })) }
    : query.filter;
  const built = buildCollectionQuery(COLUMNS, filter, query.order);
  const where = { AND: [...scopeWhere(scope), ...built.where] } as Prisma.GatewayRestrictedSenderWhereInput;
  const orderBy = built.orderBy as Prisma.GatewayRestrictedSenderOrderByWithRelationInput[];
  const [items, totalItems] = await Promise.all([
    ctx.db.prisma.gatewayRestrictedSender.findMany({ where, orderBy, skip: window.skip, take: window.take }),
    ctx.db.prisma.gatewayRestrictedSender.count({ where }),
  ]);
  return { items, totalItems, page: window.page, itemsPerPage: window.itemsPerPage };
}

export async function findRestrictedSender(ctx: Pick<GatewayContext, "db" | "identity">, id: number): Promise<GatewayRestrictedSender | null> {
  const scope = await mailScope(ctx);
  requireMailAdmin(scope);
  return ctx.db.prisma.gatewayRestrictedSender.findFirst({ where: { AND: [{ id }, ...scopeWhere(scope)] } });
}

export async function liftSenderRestriction(ctx: Pick<GatewayContext, "db" | "identity">, id: number): Promise<boolean> {
  if (!await findRestrictedSender(ctx, id)) throw domainError("gateway_not_found", { message: "Restricted sender not found." });
  await ctx.db.prisma.gatewayRestrictedSender.delete({ where: { id } });
  return true;
}

/** Restrictions by sender address, in the order asked (null where none): the batch function of a loader. */
export async function restrictionsBySenders(ctx: Pick<GatewayContext, "db">, senders: readonly string[]): Promise<(GatewayRestrictedSender | null)[]> {
  const rows = await ctx.db.prisma.gatewayRestrictedSender.findMany({ where: { sender: { in: [...senders] } } });
  const bySender = new Map(rows.map((r) => [r.sender, r]));
  return senders.map((s) => bySender.get(s) ?? null);
}
