// The cluster node this process runs as. Every appliance is at least one node: a stand-alone
// appliance is a primary in state "standalone". Audit entries and events name the node by its
// unique id (a UUID made once), never by its hostname, which an administrator may change.
import crypto from "node:crypto";
import os from "node:os";
import type { GatewayContext } from "../context.ts";

export type NodeContext = Pick<GatewayContext, "db">;
export interface LocalNode { id: number; uid: string; hostname: string; cloud: boolean }

/** Cloud appliances (GATEWAY_APPLIANCE_KIND=cloud at first start) refuse cluster destroy and hard reset. */
const cloudAppliance = () => process.env.GATEWAY_APPLIANCE_KIND === "cloud";

/** Creates the local node on first start; safe to run on every start and from several requests at once. */
export async function ensureLocalNode(ctx: NodeContext): Promise<LocalNode> {
  const { prisma } = ctx.db;
  const existing = await prisma.gatewayClusterNode.findFirst({ where: { local: true }, orderBy: { id: "asc" } });
  if (existing) return existing;
  await prisma.$transaction(async (tx) => {
    // One creator: the advisory lock serialises first starts racing on the same database.
    await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(5300)");
    if (await tx.gatewayClusterNode.findFirst({ where: { local: true } })) return;
    await tx.gatewayClusterNode.create({
      data: { uid: crypto.randomUUID(), hostname: os.hostname(), role: "primary", state: "standalone", local: true, cloud: cloudAppliance() },
    });
  });
  return (await prisma.gatewayClusterNode.findFirst({ where: { local: true }, orderBy: { id: "asc" } }))!;
}

let cached: { db: unknown; node: LocalNode } | undefined;
/** The local node (cached per database handle: its uid never changes). */
export async function localNode(ctx: NodeContext): Promise<LocalNode> {
  if (cached?.db === ctx.db) return cached.node;
  const node = await ensureLocalNode(ctx);
  cached = { db: ctx.db, node };
  return node;
}
