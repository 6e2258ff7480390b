// What operators do to a message: report it as good or bad (with the learning it causes),
// release it from quarantine (or ask for it), remove its scan analysis record, fetch a stored attachment.
import type { GatewayAttachment, GatewayMessageReport, Prisma } from "../../../generated/prisma/client.ts";
import type { ReportRoute } from "../../../generated/graphql/gateway-resolvers.ts";
import { domainError } from "../../../lib/errors.ts";
import { LEARNING_WEIGHTS, type ReportKind } from "../../../lib/gateway/messages.ts";
import type { GatewayContext } from "../context.ts";
import { notifyReleaseRequest } from "../events/events.ts";
import { addToCounters } from "./ingest.ts";
import { findMessage, type MessageView } from "./messages.ts";
import { mailScope, requireMailAdmin } from "./scope.ts";

const notFound = (what = "Message") => domainError("gateway_not_found", { message: `${what} not found.` });

export interface LearningEffect { effect: string; subject: string; weight: number }

/**
 * The learning a report causes: the message's content learned as ham or spam, and the sender's
 * reputation moved (learning-as-good weighs more since 5.3.7). A bounce (empty sender) teaches
 * the From header's address instead.
 */
export function learningOf(kind: ReportKind, message: { id: string; sender: string; headerFromAddress: string }): LearningEffect[] {
  const weight = LEARNING_WEIGHTS[kind];
  const effects: LearningEffect[] = [{ effect: kind === "good" ? "ham" : "spam", subject: message.id, weight }];
  const sender = message.sender || message.headerFromAddress;
  if (sender) effects.push({ effect: "sender-reputation", subject: sender, weight: kind === "good" ? weight : -weight });
  return effects;
}

/** Any caller who can see the message may report it (users report their own mail). */
export async function reportMessage(ctx: Pick<GatewayContext, "db" | "identity">, id: string, kind: ReportKind, route: ReportRoute | null | undefined): Promise<GatewayMessageReport> {
  const view = await findMessage(ctx, id);
  if (!view) throw notFound();
  const { row } = view;
  const learning = learningOf(kind, row);
  const reportedBy = ctx.identity.gateway?.username ?? "";
  return ctx.db.prisma.$transaction(async (tx) => {
    const report = await tx.gatewayMessageReport.create({
      data: { messageId: row.id, kind, route: (route ?? `report_as_${kind}`).replace(/_/g, "-"), reportedBy, learning: learning as unknown as Prisma.InputJsonValue },
    });
    for (const effect of learning.filter((e) => e.effect === "sender-reputation")) {
      const good = Math.max(0, effect.weight);
      const bad = Math.max(0, -effect.weight);
      await tx.gatewaySenderReputation.upsert({
        where: { address: effect.subject },
        create: { address: effect.subject, goodWeight: good, badWeight: bad },
        update: { goodWeight: { increment: good }, badWeight: { increment: bad } },
      });
    }
    return report;
  });
}

/** A user asks for a message of its mail to be released: the administrators get a release-request event. */
export async function requestRelease(ctx: Pick<GatewayContext, "db" | "identity">, id: string): Promise<MessageView> {
  const view = await findMessage(ctx, id);
  if (!view) throw notFound();
  if (view.row.state !== "quarantined") throw domainError("gateway_conflict", { message: "The message is not in quarantine." });
  await notifyReleaseRequest(ctx, { userId: ctx.identity.gateway!.userId, messageId: id, subject: view.row.subject });
  return view;
}

/**
 * Releases a quarantined message: state released, delivery pending to the original recipients
 * with the original envelope sender, an empty one included (release notes, mail flow 5: "release
 * preserves an empty sender for bounces"). 409 when it is not in quarantine.
 */
export async function releaseMessage(ctx: Pick<GatewayContext, "db" | "identity">, id: string): Promise<MessageView> {
  return transition(ctx, id, (view, scope) => ({
    where: { state: "quarantined" },
    data: { state: "released", quarantined: false, deliveryResult: "delivered", releasedAt: new Date(), releasedBy: scope.user.username, releaseSender: view.row.sender },
    counters: [["state:quarantined", -1], ["state:released", 1], ["quarantined:true", -1], ["quarantined:false", 1]],
    refused: view.row.state === "released" ? "The message was already released." : "The message is not in quarantine.",
  }));
}

/** §1.13 threat remediation: a delivered message is taken back from the mailboxes. */
export async function recallMessage(ctx: Pick<GatewayContext, "db" | "identity">, id: string): Promise<MessageView> {
  return transition(ctx, id, (view) => ({
    where: { deliveryResult: "delivered", state: { in: ["none", "released"] } },
    data: { state: "recalled", quarantined: false },
    counters: [[`state:${view.row.state}`, -1], ["state:recalled", 1]],
    refused: view.row.state === "recalled" ? "The message was already recalled." : "Only a delivered message can be recalled.",
  }));
}

interface Transition {
  /** The states the message may leave (checked in the same statement that changes it). */
  where: Prisma.GatewayMessageWhereInput;
  data: Prisma.GatewayMessageUpdateManyMutationInput;
  /** The counters the change moves, kept in step in the same transaction. */
  counters: [string, number][];
  /** The 409's message when the message is not in a state the transition leaves. */
  refused: string;
}

/**
 * A state change of one message by an administrator or domain administrator: 404 outside the
 * caller's scope, one conditional update (so two concurrent calls cannot both succeed) with its
 * counters, 409 when the message was not in a state the change leaves.
 */
async function transition(
  ctx: Pick<GatewayContext, "db" | "identity">, id: string,
  change: (view: MessageView, scope: Awaited<ReturnType<typeof mailScope>>) => Transition,
): Promise<MessageView> {
  const scope = await mailScope(ctx);
  requireMailAdmin(scope);
  const view = await findMessage(ctx, id, scope);
  if (!view) throw notFound();
  const { where, data, counters, refused } = change(view, scope);
  const updated = await ctx.db.prisma.$transaction(async (tx) => {
    const changed = await tx.gatewayMessage.updateMany({ where: { id, ...where }, data });
    if (changed.count) await addToCounters(tx, new Map(counters));
    return changed;
  });
  if (updated.count === 0) throw domainError("gateway_conflict", { message: refused });
  const row = await ctx.db.prisma.gatewayMessage.findUniqueOrThrow({ where: { id } });
  return { row, envelope: view.envelope };
}

/** §1.14: administrators and domain administrators only; 404 when the message or its record is missing. */
export async function removeScanAnalysis(ctx: Pick<GatewayContext, "db" | "identity">, id: string): Promise<boolean> {
  const scope = await mailScope(ctx);
  requireMailAdmin(scope);
  if (!await findMessage(ctx, id, scope)) throw notFound();
  const removed = await ctx.db.prisma.gatewayScanAnalysis.deleteMany({ where: { messageId: id } });
  if (!removed.count) throw notFound("Scan analysis record");
  return true;
}

/**
 * A stored attachment by position or file name. 5.3.2: the content is served only when the
 * message is stored in quarantine (quarantined, or released but still kept); otherwise 404.
 */
export async function storedAttachment(ctx: Pick<GatewayContext, "db" | "identity">, id: string, attachment: string): Promise<GatewayAttachment> {
  const view = await findMessage(ctx, id);
  if (!view) throw notFound();
  const rows = await ctx.db.prisma.gatewayAttachment.findMany({ where: { messageId: id }, orderBy: { position: "asc" } });
  const found = /^\d+$/.test(attachment) ? rows.find((a) => a.position === Number(attachment)) : rows.find((a) => a.name === attachment);
  if (!found) throw notFound("Attachment");
  if (view.row.state !== "quarantined" && view.row.state !== "released") {
    throw domainError("gateway_not_found", { message: "The message is not stored in quarantine." });
  }
  if (!found.content) throw domainError("gateway_not_found", { message: "The attachment is not stored in quarantine." });
  return found;
}
