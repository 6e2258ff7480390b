// The audit log, read: entries with their changesets, filtered, sorted and paged.
import type { GatewayAuditEntry, Prisma } from "../../../generated/prisma/client.ts";
import { pageWindow } from "../../../lib/gateway/collection-rules.ts";
import { buildCollectionQuery, type ColumnSpec, type FilterInput, type OrderInput } from "../collection-query.ts";
import type { GatewayContext } from "../context.ts";
import type { PropertyChange } from "../appliance/settings.ts";

export const AUDIT_ACTIONS = ["change", "apply", "cluster"] as const;
export type AuditField = "id" | "at" | "action" | "section" | "username" | "nodeUid";

const COLUMNS: Record<AuditField, ColumnSpec<GatewayAuditEntry>> = {
  id: { column: "id", type: "integer" },
  at: { column: "at", type: "datetime" },
  action: { column: "action", type: "enum", values: AUDIT_ACTIONS },
  section: { column: "section", type: "string" },
  username: { column: "username", type: "string" },
  nodeUid: { column: "nodeUid", type: "string" },
};

export interface AuditView extends Omit<GatewayAuditEntry, "changeset"> { changeset: PropertyChange[] }

const view = (row: GatewayAuditEntry): AuditView => ({ ...row, changeset: row.changeset as unknown as PropertyChange[] });

export interface AuditQuery {
  filter?: Partial<Record<AuditField, readonly FilterInput[] | null>> | null;
  order?: readonly OrderInput<AuditField>[] | null;
  page: number;
  itemsPerPage: number;
}

export async function listAuditEntries(ctx: Pick<GatewayContext, "db">, query: AuditQuery) {
  const window = pageWindow(query.page, query.itemsPerPage);
  const built = buildCollectionQuery(COLUMNS, query.filter, query.order?.length ? query.order : [{ field: "id", direction: "desc" }]);
  const where = { AND: built.where } as Prisma.GatewayAuditEntryWhereInput;
  const [rows, totalItems] = await Promise.all([
    ctx.db.prisma.gatewayAuditEntry.findMany({ where, orderBy: built.orderBy as Prisma.GatewayAuditEntryOrderByWithRelationInput[], skip: window.skip, take: window.take }),
    ctx.db.prisma.gatewayAuditEntry.count({ where }),
  ]);
  return { items: rows.map(view), totalItems, page: window.page, itemsPerPage: window.itemsPerPage };
}

export async function auditEntry(ctx: Pick<GatewayContext, "db">, id: number): Promise<AuditView | null> {
  const row = await ctx.db.prisma.gatewayAuditEntry.findUnique({ where: { id } });
  return row ? view(row) : null;
}
