// The cluster (release 5.3 "distributed setup"): one primary and up to 64 workers. States: a lone
// appliance is standalone; set-up (configured, not started), running, suspended, destroyed.
// Suspending the primary suspends its workers; resuming it resumes them. Destroy and hard reset
// are refused on cloud appliances. Workers keep stored mail 3 days. Every operation is audited
// (action "cluster") with the node that executed it; silent nodes become cluster-monitor incidents.
import crypto from "node:crypto";
import type { GatewayClusterNode } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { MAX_WORKERS, WORKER_RETENTION_DAYS, type NodeState } from "../../../lib/gateway/appliance.ts";
import { violationError } from "../../../lib/gateway/collection-rules.ts";
import type { GatewayContext } from "../context.ts";
import { HOSTNAME_PATTERN } from "../appliance/appliance-settings.ts";
import { localNode } from "../appliance/node.ts";
import { recordAudit, type PropertyChange } from "../appliance/settings.ts";
import { recordEvent } from "../events/events.ts";

type Ctx = Pick<GatewayContext, "db" | "identity">;

export interface ClusterNodeView extends GatewayClusterNode { storageRetentionDays: number | null }
export const nodeView = (node: GatewayClusterNode): ClusterNodeView =>
  ({ ...node, storageRetentionDays: node.role === "worker" ? WORKER_RETENTION_DAYS : null });

async function primary(ctx: Ctx): Promise<GatewayClusterNode> {
  const local = await localNode(ctx);
  return ctx.db.prisma.gatewayClusterNode.findUniqueOrThrow({ where: { id: local.id } });
}

const liveWorkers = (ctx: Ctx) => ctx.db.prisma.gatewayClusterNode.findMany({ where: { role: "worker", state: { not: "destroyed" } }, orderBy: { id: "asc" } });

export async function clusterView(ctx: Ctx) {
  const [p, workers] = await Promise.all([primary(ctx), liveWorkers(ctx)]);
  return { state: p.state as NodeState, cloud: p.cloud, primary: nodeView(p), workerCount: workers.length, maxWorkers: MAX_WORKERS, workerRetentionDays: WORKER_RETENTION_DAYS };
}

export async function listNodes(ctx: Ctx): Promise<ClusterNodeView[]> {
  const nodes = await ctx.db.prisma.gatewayClusterNode.findMany({ orderBy: [{ role: "asc" }, { id: "asc" }] });
  return nodes.map(nodeView);
}

export async function nodeById(ctx: Ctx, id: number): Promise<ClusterNodeView | null> {
  const node = await ctx.db.prisma.gatewayClusterNode.findUnique({ where: { id } });
  return node && nodeView(node);
}

const conflict = (message: string): never => fail("gateway_conflict", { message });

async function setState(ctx: Ctx, nodes: GatewayClusterNode[], state: NodeState, now: Date): Promise<PropertyChange[]> {
  const changed = nodes.filter((n) => n.state !== state);
  if (!changed.length) return [];
  await ctx.db.prisma.gatewayClusterNode.updateMany({ where: { id: { in: changed.map((n) => n.id) } }, data: { state, stateChangedAt: now } });
  return changed.map((n) => ({ property: `${n.role}:${n.uid}`, old: n.state, new: state }));
}

async function audited(ctx: Ctx, changes: PropertyChange[]): Promise<void> {
  if (changes.length) await recordAudit(ctx, { action: "cluster", section: "cluster", changeset: changes });
}

export type ClusterOperation = "setUp" | "start" | "suspend" | "resume" | "destroy";

/** A cluster-wide operation on the primary (and, as the operation says, its workers). */
export async function clusterOperation(ctx: Ctx, operation: ClusterOperation, now = new Date()) {
  const p = await primary(ctx);
  const workers = await liveWorkers(ctx);
  let changes: PropertyChange[] = [];
  switch (operation) {
    case "setUp":
      if (p.state !== "standalone" && p.state !== "destroyed") conflict("A cluster is already set up.");
      changes = await setState(ctx, [p], "set-up", now);
      break;
    case "start":
      if (p.state !== "set-up") conflict("Only a cluster that is set up can be started.");
      changes = await setState(ctx, [p, ...workers.filter((w) => w.state === "set-up")], "running", now);
      break;
    case "suspend":
      if (p.state !== "running") conflict("Only a running cluster can be suspended.");
      // Suspending the primary suspends its workers.
      changes = await setState(ctx, [p, ...workers.filter((w) => w.state === "running")], "suspended", now);
      break;
    case "resume":
      if (p.state !== "suspended") conflict("Only a suspended cluster can be resumed.");
      changes = await setState(ctx, [p, ...workers.filter((w) => w.state === "suspended")], "running", now);
      break;
    case "destroy":
      if (p.cloud) conflict("Cluster destroy is not available on cloud appliances.");
      if (p.state === "standalone" || p.state === "destroyed") conflict("There is no cluster to destroy.");
      changes = await setState(ctx, [p, ...workers], "destroyed", now);
      break;
  }
  await audited(ctx, changes);
  return clusterView(ctx);
}

/** Adds a worker node (at most 64); it joins in the cluster's state (running, or set up). */
export async function addWorker(ctx: Ctx, input: { hostname: string; uid?: string | null }, now = new Date()): Promise<ClusterNodeView> {
  const hostname = input.hostname.trim().toLowerCase();
  if (!HOSTNAME_PATTERN.test(hostname)) throw violationError([{ propertyPath: "hostname", message: "This value is not a valid hostname." }]);
  const p = await primary(ctx);
  if (p.state === "standalone" || p.state === "destroyed") conflict("Set up a cluster before adding workers.");
  const node = await ctx.db.prisma.$transaction(async (tx) => {
    // Serialised, so two additions at once cannot pass the limit together.
    await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(5303)");
    const count = await tx.gatewayClusterNode.count({ where: { role: "worker", state: { not: "destroyed" } } });
    if (count >= MAX_WORKERS) conflict(`A cluster has at most ${MAX_WORKERS} worker nodes.`);
    return tx.gatewayClusterNode.create({
      data: { uid: input.uid ?? crypto.randomUUID(), hostname, role: "worker", state: p.state === "running" ? "running" : p.state === "suspended" ? "suspended" : "set-up", stateChangedAt: now, lastSeenAt: now },
    });
  });
  await audited(ctx, [{ property: `worker:${node.uid}`, old: null, new: node.state }]);
  return nodeView(node);
}

async function worker(ctx: Ctx, id: number): Promise<GatewayClusterNode> {
  const node = await ctx.db.prisma.gatewayClusterNode.findUnique({ where: { id } });
  if (!node) return fail("gateway_not_found");
  return node;
}

export type NodeOperation = "suspend" | "resume" | "destroy" | "hardReset";

/** An operation on one node; the primary's suspend/resume/destroy are the cluster's. */
export async function nodeOperation(ctx: Ctx, id: number, operation: NodeOperation, now = new Date()): Promise<ClusterNodeView> {
  const node = await worker(ctx, id);
  const p = await primary(ctx);
  if (node.role === "primary" && operation !== "hardReset") {
    await clusterOperation(ctx, operation, now);
    return (await nodeById(ctx, id))!;
  }
  let changes: PropertyChange[] = [];
  switch (operation) {
    case "suspend":
      if (node.state !== "running") conflict("Only a running node can be suspended.");
      changes = await setState(ctx, [node], "suspended", now);
      break;
    case "resume":
      if (node.state !== "suspended") conflict("Only a suspended node can be resumed.");
      if (p.state !== "running") conflict("Resume the primary first: its workers follow it.");
      changes = await setState(ctx, [node], "running", now);
      break;
    case "destroy":
      if (p.cloud) conflict("Destroy is not available on cloud appliances.");
      if (node.state === "destroyed") conflict("The node is already destroyed.");
      changes = await setState(ctx, [node], "destroyed", now);
      break;
    case "hardReset": {
      if (p.cloud) conflict("Hard reset is not available on cloud appliances.");
      if (node.state === "destroyed" || node.state === "standalone") conflict("Only a node of a cluster can be hard reset.");
      // The node starts over from its cluster configuration: set up again, synchronised anew.
      await ctx.db.prisma.gatewayClusterNode.update({ where: { id }, data: { state: "set-up", stateChangedAt: now, lastSeenAt: null } });
      changes = [{ property: `${node.role}:${node.uid}`, old: node.state, new: "set-up" }, { property: "hardReset", old: null, new: node.uid }];
      await recordEvent(ctx, {
        kind: "cluster-incident", subject: `Cluster node ${node.hostname} was hard reset`,
        body: `Cluster node ${node.uid} (${node.hostname}) was hard reset by ${ctx.identity.gateway?.username ?? "system"} and is set up again.`,
      });
      break;
    }
  }
  await audited(ctx, changes);
  return (await nodeById(ctx, id))!;
}

/** A node reports in (the cluster monitor raises an incident for a running node silent too long). */
export async function heartbeat(ctx: Ctx, id: number, now = new Date()): Promise<ClusterNodeView> {
  await worker(ctx, id);
  return nodeView(await ctx.db.prisma.gatewayClusterNode.update({ where: { id }, data: { lastSeenAt: now } }));
}
