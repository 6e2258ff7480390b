// Cluster (/api/v2/cluster…). Paths the seed does not show, in the API's style: GET /cluster;
// POST /cluster/{setup,start,suspend,resume,destroy}; GET/POST /cluster/nodes (a worker joins);
// GET/DELETE /cluster/nodes/{id} (DELETE destroys the node); POST /cluster/nodes/{id}/{suspend,
// resume,hard-reset,heartbeat}. State conflicts (and destroy or hard reset on a cloud appliance,
// or a 65th worker) answer 409. The subgraph's side is subgraphs/gateway/cluster/.
import {
  AddClusterWorkerDocument, ClusterDocument, ClusterNodeDocument, ClusterNodeHeartbeatDocument, ClusterNodeOperationDocument,
  ClusterNodesDocument, ClusterOperationDocument,
  type ClusterNodeOperation, type ClusterNodePropertiesFragment, type ClusterOperation, type ClusterPropertiesFragment,
} from "../../../../generated/graphql/operations.ts";
import { MAX_WORKERS, NODE_STATES, WORKER_RETENTION_DAYS } from "../../../../lib/gateway/appliance.ts";
import { INT32_MAX } from "../../../../lib/gateway/collection-rules.ts";
import { collectionResult, itemResult } from "../formats.ts";
import type { Json, JsonObject } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { resource, type AnyResource } from "../resource.ts";
import { restrictedTo, route, type GatewayRequest, type GatewayRoute } from "../route.ts";
import { bodyObject, readWritable, singletonResult } from "./singleton.ts";
import { errorResponses } from "./singleton.ts";

export const cluster = resource({
  name: "Cluster",
  description: `The cluster: a primary and up to ${MAX_WORKERS} workers; workers keep stored mail ${WORKER_RETENTION_DAYS} days.`,
  path: "/cluster",
  properties: {
    state: { type: "enum", values: NODE_STATES, readOnly: true, description: "The primary's state." },
    cloud: { type: "boolean", readOnly: true, description: "Cloud appliance: destroy and hard reset are refused." },
    primaryUid: { type: "string", readOnly: true },
    workerCount: { type: "integer", readOnly: true },
    maxWorkers: { type: "integer", readOnly: true },
    workerRetentionDays: { type: "integer", readOnly: true },
  },
});

export const clusterNode = resource({
  name: "ClusterNode",
  description: "A node of the cluster, named in audit entries by its unique id.",
  path: "/cluster/nodes",
  properties: {
    id: { type: "integer", readOnly: true },
    uid: { type: "string", readOnly: true },
    hostname: { type: "string", format: "hostname" },
    role: { type: "enum", values: ["primary", "worker"], readOnly: true },
    state: { type: "enum", values: NODE_STATES, readOnly: true },
    local: { type: "boolean", readOnly: true, description: "The node serving this API." },
    lastSeenAt: { type: "datetime", readOnly: true },
    storageRetentionDays: { type: "integer", readOnly: true, description: `Workers: ${WORKER_RETENTION_DAYS}; null for the primary.` },
    createdAt: { type: "datetime", readOnly: true },
    stateChangedAt: { type: "datetime", readOnly: true },
  },
});

const SECURITY: Json = [{ esgToken: [] }];
const errorRefs = errorResponses;
const op = (operationId: string, summary: string, r: AnyResource, statuses: number[], status = 200): JsonObject => ({
  operationId, tags: ["Cluster"], summary, security: SECURITY,
  responses: { [status]: { description: r.name, content: { "application/json": { schema: { $ref: `#/components/schemas/${r.name}` } } } }, ...errorRefs(...statuses) },
});

const restState = <T extends { state: string }>(x: T) => ({ ...x, state: x.state.replace("_", "-") as (typeof NODE_STATES)[number] });
const restCluster = (c: ClusterPropertiesFragment) => ({ ...restState(c), primaryUid: c.primary.uid });
// lastSeenAt and storageRetentionDays are null where unknown or not applying.
const restNode = (n: ClusterNodePropertiesFragment) => restState(n);

const nodeId = (request: GatewayRequest): number => {
  const id = Number(request.pathParams.id);
  if (!(id <= INT32_MAX)) throw new GatewayProblem(404, "Not Found");
  return id;
};

const CLUSTER_OPERATIONS: [string, ClusterOperation, string][] = [
  ["setup", "setUp", "Sets up a cluster with this appliance as primary."],
  ["start", "start", "Starts a cluster that is set up, with its set-up workers."],
  ["suspend", "suspend", "Suspends the primary and its running workers."],
  ["resume", "resume", "Resumes the primary and its suspended workers."],
  ["destroy", "destroy", "Destroys the cluster (refused on cloud appliances)."],
];
const NODE_OPERATIONS: [string, ClusterNodeOperation, string][] = [
  ["suspend", "suspend", "Suspends the node."],
  ["resume", "resume", "Resumes the node (its primary must be running)."],
  ["hard-reset", "hardReset", "Hard reset: the node is set up again from its cluster configuration (refused on cloud appliances)."],
];

export const CLUSTER_ROUTES: GatewayRoute[] = restrictedTo("admin", [
  route("/cluster", [{
    methods: ["GET"], auth: true, negotiate: true, resource: cluster,
    openapi: op("getCluster", "Retrieves the Cluster resource.", cluster, [401, 403, 406]),
    handle: async (request, run) => singletonResult(cluster, restCluster((await run(ClusterDocument, {})).cluster), request.format),
  }]),
  ...CLUSTER_OPERATIONS.map(([path, operation, summary]) => route(`/cluster/${path}`, [{
    methods: ["POST"], auth: true, negotiate: true, resource: cluster,
    openapi: op(`cluster${path[0].toUpperCase()}${path.slice(1)}`, summary, cluster, [401, 403, 409]),
    handle: async (request, run) => singletonResult(cluster, restCluster((await run(ClusterOperationDocument, { operation })).clusterOperation), request.format),
  }])),
  route("/cluster/nodes", [
    {
      methods: ["GET"], auth: true, negotiate: true, resource: clusterNode,
      openapi: op("getClusterNodeCollection", "Every node of the cluster, the primary first (at most 65: one page).", clusterNode, [401, 403, 406]),
      handle: async (request, run) => {
        const items = (await run(ClusterNodesDocument, {})).clusterNodes.map(restNode);
        return collectionResult(clusterNode, { items, totalItems: items.length, page: 1, itemsPerPage: Math.max(items.length, 1) }, request, false);
      },
    },
    {
      methods: ["POST"], auth: true, body: true, negotiate: true, resource: clusterNode,
      openapi: { ...op("postClusterNode", `Adds a worker (at most ${MAX_WORKERS}); it joins in the cluster's state.`, clusterNode, [400, 401, 403, 409, 415, 422], 201), requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/ClusterNode" } } } } },
      handle: async (request, run) => {
        const { hostname } = readWritable<{ hostname: string }>(clusterNode, bodyObject(request));
        if (!hostname) throw new GatewayProblem(422, "hostname: This value should not be blank.", [{ propertyPath: "hostname", message: "This value should not be blank." }]);
        const node = (await run(AddClusterWorkerDocument, { hostname })).addClusterWorker;
        return { ...itemResult(clusterNode, restNode(node), request.format), status: 201 };
      },
    },
  ]),
  route("/cluster/nodes/{id}", [
    {
      methods: ["GET"], auth: true, negotiate: true, resource: clusterNode,
      openapi: op("getClusterNodeItem", "Retrieves a ClusterNode resource.", clusterNode, [401, 403, 404, 406]),
      handle: async (request, run) => {
        const node = (await run(ClusterNodeDocument, { id: nodeId(request) })).clusterNode;
        if (!node) throw new GatewayProblem(404, "Not Found");
        return itemResult(clusterNode, restNode(node), request.format);
      },
    },
    {
      methods: ["DELETE"], auth: true,
      openapi: { operationId: "deleteClusterNodeItem", tags: ["Cluster"], summary: "Destroys the node (refused on cloud appliances).", security: SECURITY, responses: { 204: { description: "Destroyed" }, ...errorRefs(401, 403, 404, 409) } },
      handle: async (request, run) => {
        await run(ClusterNodeOperationDocument, { id: nodeId(request), operation: "destroy" });
        return { status: 204, body: undefined };
      },
    },
  ], { id: "\\d+" }),
  ...NODE_OPERATIONS.map(([path, operation, summary]) => route(`/cluster/nodes/{id}/${path}`, [{
    methods: ["POST"], auth: true, negotiate: true, resource: clusterNode,
    openapi: op(`clusterNode${path.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}`, summary, clusterNode, [401, 403, 404, 409]),
    handle: async (request, run) => itemResult(clusterNode, restNode((await run(ClusterNodeOperationDocument, { id: nodeId(request), operation })).clusterNodeOperation), request.format),
  }], { id: "\\d+" })),
  route("/cluster/nodes/{id}/heartbeat", [{
    methods: ["POST"], auth: true, negotiate: true, resource: clusterNode,
    openapi: op("clusterNodeHeartbeat", "A node reports in; a running node silent for 5 minutes becomes a cluster-monitor incident.", clusterNode, [401, 403, 404]),
    handle: async (request, run) => itemResult(clusterNode, restNode((await run(ClusterNodeHeartbeatDocument, { id: nodeId(request) })).clusterNodeHeartbeat), request.format),
  }], { id: "\\d+" }),
]);
