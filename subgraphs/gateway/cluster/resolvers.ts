// Cluster resolvers: administrators only. States are stored as the REST API writes them (set-up)
// and shown to GraphQL as enum names (set_up).
import type { ClusterNodeRole, ClusterState, Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireGatewayAdmin } from "../access.ts";
import { addWorker, clusterOperation, clusterView, heartbeat, listNodes, nodeById, nodeOperation, type ClusterNodeView } from "./cluster.ts";

const node = (n: ClusterNodeView) => ({ ...n, state: n.state.replace("-", "_") as ClusterState, role: n.role as ClusterNodeRole });
const cluster = (c: Awaited<ReturnType<typeof clusterView>>) => ({ ...c, state: c.state.replace("-", "_") as ClusterState, primary: node(c.primary) });

export const clusterResolvers = {
  Query: {
    cluster: async (_p, _a, ctx) => { requireGatewayAdmin(ctx.identity); return cluster(await clusterView(ctx)); },
    clusterNodes: async (_p, _a, ctx) => { requireGatewayAdmin(ctx.identity); return (await listNodes(ctx)).map(node); },
    clusterNode: async (_p, { id }, ctx) => { requireGatewayAdmin(ctx.identity); const n = await nodeById(ctx, id); return n && node(n); },
  },
  Mutation: {
    clusterOperation: async (_p, { operation }, ctx) => { requireGatewayAdmin(ctx.identity); return cluster(await clusterOperation(ctx, operation)); },
    addClusterWorker: async (_p, { hostname }, ctx) => { requireGatewayAdmin(ctx.identity); return node(await addWorker(ctx, { hostname })); },
    clusterNodeOperation: async (_p, { id, operation }, ctx) => { requireGatewayAdmin(ctx.identity); return node(await nodeOperation(ctx, id, operation)); },
    clusterNodeHeartbeat: async (_p, { id }, ctx) => { requireGatewayAdmin(ctx.identity); return node(await heartbeat(ctx, id)); },
  },
} satisfies Resolvers;
