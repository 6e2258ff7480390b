// Mail resolvers: check the caller, call the domain (messages.ts, actions.ts, ingest.ts).
import type { Resolvers, ReportRoute } from "../../../generated/graphql/gateway-resolvers.ts";
import type { LearningEffect } from "./actions.ts";
import { recallMessage, releaseMessage, removeScanAnalysis, reportMessage, requestRelease, storedAttachment } from "./actions.ts";
import { ingestMessages } from "./ingest.ts";
import { purgeMessages } from "./purge.ts";
import { findMessage, listMessages } from "./messages.ts";
import { mailScope, requireAdministrator } from "./scope.ts";

export const mailResolvers = {
  Query: {
    messages: (_parent, args, ctx) => listMessages(ctx, args),
    message: (_parent, { id }, ctx) => findMessage(ctx, id),
  },
  Mutation: {
    ingestMessages: async (_parent, { messages }, ctx) => {
      requireAdministrator(await mailScope(ctx));
      return ingestMessages(ctx, messages);
    },
    reportMessage: async (_parent, { id, kind, route }, ctx) => reportView(await reportMessage(ctx, id, kind, route)),
    releaseMessage: (_parent, { id }, ctx) => releaseMessage(ctx, id),
    requestMessageRelease: (_parent, { id }, ctx) => requestRelease(ctx, id),
    recallMessage: (_parent, { id }, ctx) => recallMessage(ctx, id),
    removeScanAnalysis: (_parent, { id }, ctx) => removeScanAnalysis(ctx, id),
    purgeMessages: async (_parent, { filter, before }, ctx) => {
      requireAdministrator(await mailScope(ctx));
      return purgeMessages(ctx, { filter: filter ?? undefined, before: before ? (before as Date).toISOString() : undefined });
    },
  },
  Message: {
    __resolveReference: async (reference, ctx) => findMessage(ctx, reference.id),
    id: ({ row }) => row.id,
    messageId: ({ row }) => row.messageId,
    receivedOn: ({ row }) => row.receivedOn,
    sentOn: ({ row }) => row.sentOn,
    // §1.11: non-administrators see the From header instead of the envelope.
    from: ({ row, envelope }) => envelope ? row.sender : row.headerFrom,
    sender: ({ row, envelope }) => envelope ? row.sender : null,
    recipients: ({ row, envelope }) => envelope ? row.recipients : null,
    headerFrom: ({ row }) => row.headerFrom,
    senderIp: ({ row }) => row.senderIp,
    hostname: ({ row }) => row.hostname,
    nodeId: ({ row }) => row.nodeId,
    direction: ({ row }) => row.direction as never,
    subject: ({ row }) => row.subject,
    size: ({ row }) => row.size,
    hasAttachments: ({ row }) => row.hasAttachments,
    quarantined: ({ row }) => row.quarantined,
    state: ({ row }) => row.state as never,
    result: ({ row }) => row.result as never,
    deliveryResult: ({ row }) => row.deliveryResult as never,
    score: ({ row }) => row.score,
    uriHosts: ({ row }) => row.uriHosts,
    releasedAt: ({ row }) => row.releasedAt,
    releasedBy: ({ row }) => row.releasedBy,
    releaseSender: ({ row }) => row.releaseSender,
    attachments: async ({ row }, _args, ctx) => (await ctx.loaders.mail.attachmentsByMessage.load(row.id)).map((a) => ({
      position: a.position, name: a.name, contentType: a.contentType, size: a.size, sha256: a.sha256, stored: a.content !== null,
      // Read on demand (one attachment's bytes), with the quarantine check of 5.3.2.
      content: a.content === null ? null : undefined as unknown as string,
      messageId: row.id,
    })),
    scanAnalysis: async ({ row }, _args, ctx) => {
      const analysis = await ctx.loaders.mail.scanAnalysisByMessage.load(row.id);
      if (!analysis) return null;
      const engines = Array.isArray(analysis.details) ? analysis.details as { engine: string; result: string; detail?: string | null }[] : [];
      return { verdict: analysis.verdict as never, score: analysis.score, engines: engines.map((e) => ({ engine: e.engine, result: e.result, detail: e.detail ?? null })), createdAt: analysis.createdAt };
    },
    reports: async ({ row }, _args, ctx) => (await ctx.loaders.mail.reportsByMessage.load(row.id)).map(reportView),
  },
  MessageAttachment: {
    content: async (attachment, _args, ctx) => {
      const parent = attachment as typeof attachment & { messageId?: string };
      if (!parent.messageId) return null;
      const stored = await storedAttachment(ctx, parent.messageId, String(attachment.position));
      return stored.content ?? "";
    },
  },
} satisfies Resolvers;

export function reportView(report: { id: number; kind: string; route: string; reportedBy: string; reportedAt: Date; learning: unknown }) {
  return {
    id: report.id, kind: report.kind as "good" | "bad", route: report.route.replace(/-/g, "_") as ReportRoute,
    reportedBy: report.reportedBy, reportedAt: report.reportedAt, learning: (report.learning ?? []) as LearningEffect[],
  };
}
