// Per-request DataLoaders of the mail area: a message's attachments, scan analysis and reports,
// however many messages a page holds, are one statement each.
import DataLoader from "dataloader";
import type { GatewayAttachment, GatewayMessageReport, GatewayScanAnalysis } from "../../../generated/prisma/client.ts";
import type { GatewayContext } from "../context.ts";

export interface MailLoaders {
  attachmentsByMessage: DataLoader<string, GatewayAttachment[]>;
  scanAnalysisByMessage: DataLoader<string, GatewayScanAnalysis | null>;
  reportsByMessage: DataLoader<string, GatewayMessageReport[]>;
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
  return map;
}

export function createMailLoaders(ctx: Pick<GatewayContext, "db">): MailLoaders {
  const { prisma } = ctx.db;
  return {
    attachmentsByMessage: new DataLoader(async (ids) => {
      // The content stays in the table: listing attachments never reads the stored bytes.
      const rows = await prisma.gatewayAttachment.findMany({
        where: { messageId: { in: [...ids] } }, orderBy: [{ messageId: "asc" }, { position: "asc" }],
        omit: { content: true },
      });
      const stored = new Set((await prisma.gatewayAttachment.findMany({ where: { messageId: { in: [...ids] }, content: { not: null } }, select: { id: true } })).map((r) => r.id));
      const byMessage = groupBy(rows.map((r) => ({ ...r, content: stored.has(r.id) ? "" : null })), (r) => r.messageId);
      return ids.map((id) => byMessage.get(id) ?? []);
    }),
    scanAnalysisByMessage: new DataLoader(async (ids) => {
      const rows = await prisma.gatewayScanAnalysis.findMany({ where: { messageId: { in: [...ids] } } });
      const byId = new Map(rows.map((r) => [r.messageId, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    reportsByMessage: new DataLoader(async (ids) => {
      const rows = await prisma.gatewayMessageReport.findMany({ where: { messageId: { in: [...ids] } }, orderBy: { id: "asc" } });
      const byMessage = groupBy(rows, (r) => r.messageId);
      return ids.map((id) => byMessage.get(id) ?? []);
    }),
  };
}
