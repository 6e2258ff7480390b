// The cluster: a primary and up to 64 workers, states set up / running / suspended / destroyed,
// suspending the primary suspends its workers, destroy and hard reset refused on cloud appliances,
// worker retention 3 days, operations audited with the node's unique id, silent nodes as incidents.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { hydra, json, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
const post = (path: string, body?: unknown) => system.request("POST", `/api/v2${path}`, { body, headers: { "x-esg-auth-token": gateway.token, ...json } });
const get = (path: string) => gateway.get(`/api/v2${path}`, json);
type Node = { id: number; uid: string; hostname: string; role: string; state: string; storageRetentionDays: number | null; lastSeenAt: string | null };

beforeAll(async () => {
  gateway = await startGatewaySystem();
  system = gateway.system;
});
afterAll(async () => { await system?.stop(); });

describe("cluster lifecycle", () => {
  it("starts as a standalone primary; workers need a cluster", async () => {
    const c = (await get("/cluster")).body;
    expect(c).toMatchObject({ state: "standalone", cloud: false, workerCount: 0, maxWorkers: 64, workerRetentionDays: 3 });
    const refused = await post("/cluster/nodes", { hostname: "w1.corp.test" });
    expect(refused.status).toBe(409);
    expect((await post("/cluster/start")).status).toBe(409);
  });

  it("sets up, adds workers, starts; suspending the primary suspends its workers and resuming resumes them", async () => {
    expect((await post("/cluster/setup")).body.state).toBe("set-up");
    const w1 = await post("/cluster/nodes", { hostname: "w1.corp.test" });
    expect(w1.status).toBe(201);
    expect(w1.body).toMatchObject({ role: "worker", state: "set-up", storageRetentionDays: 3 });
    await post("/cluster/nodes", { hostname: "w2.corp.test" });
    expect((await post("/cluster/start")).body).toMatchObject({ state: "running", workerCount: 2 });
    let nodes = (await get("/cluster/nodes")).body as Node[];
    expect(nodes.map((n) => [n.role, n.state])).toEqual([["primary", "running"], ["worker", "running"], ["worker", "running"]]);
    expect(nodes[0].storageRetentionDays).toBeNull();

    // One worker suspended on its own, then the primary: all suspended.
    expect((await post(`/cluster/nodes/${nodes[1].id}/suspend`)).body.state).toBe("suspended");
    expect((await post("/cluster/suspend")).body.state).toBe("suspended");
    nodes = (await get("/cluster/nodes")).body;
    expect(nodes.every((n) => n.state === "suspended")).toBe(true);
    // A worker cannot resume while its primary is suspended.
    expect((await post(`/cluster/nodes/${nodes[1].id}/resume`)).status).toBe(409);
    expect((await post("/cluster/resume")).body.state).toBe("running");
    nodes = (await get("/cluster/nodes")).body;
    expect(nodes.every((n) => n.state === "running")).toBe(true);
    expect((await post("/cluster/resume")).status).toBe(409);

    // Audited, naming the executing node by its unique id.
    const appliance = (await get("/appliance")).body;
    const log = (await get("/audit-log?action=cluster")).body as { nodeUid: string; changeset: Record<string, { old: unknown; new: unknown }> }[];
    expect(log.length).toBeGreaterThanOrEqual(6);
    expect(log.every((e) => e.nodeUid === appliance.nodeUid)).toBe(true);
    // The primary's suspension changed it and the one worker still running (the other was already suspended).
    const suspendEntry = log.find((e) => e.changeset[`primary:${appliance.nodeUid}`]?.new === "suspended");
    expect(Object.keys(suspendEntry!.changeset).sort()).toEqual([`primary:${appliance.nodeUid}`, `worker:${nodes[2].uid}`].sort());
  });

  it("allows at most 64 workers", async () => {
    const { prisma } = system.db;
    await prisma.gatewayClusterNode.createMany({
      data: Array.from({ length: 62 }, (_, i) => ({ uid: `bulk-${i}`, hostname: `bulk${i}.corp.test`, role: "worker", state: "running" })),
    });
    expect((await get("/cluster")).body.workerCount).toBe(64);
    const refused = await post("/cluster/nodes", { hostname: "w65.corp.test" });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("64");
    const bulk = (await get("/cluster/nodes")).body.find((n: Node) => n.uid === "bulk-0");
    expect((await system.request("DELETE", `/api/v2/cluster/nodes/${bulk.id}`, { headers: { "x-esg-auth-token": gateway.token } })).status).toBe(204);
    expect((await post("/cluster/nodes", { hostname: "w65.corp.test" })).status).toBe(201);
    expect((await post("/cluster/nodes", { hostname: "not a host" })).status).toBe(422);
  });

  it("records a cluster-monitor incident for a running node gone silent, once", async () => {
    const node = (await get("/cluster/nodes")).body.find((n: Node) => n.hostname === "w2.corp.test") as Node;
    await system.db.prisma.gatewayClusterNode.update({ where: { id: node.id }, data: { lastSeenAt: new Date(Date.now() - 10 * 60_000) } });
    const events = (await get("/events?kind=cluster-incident")).body;
    expect(events.filter((e: { subject: string }) => e.subject.includes("w2.corp.test"))).toHaveLength(1);
    expect((await get("/events?kind=cluster-incident")).body).toHaveLength(events.length);
    expect((await post(`/cluster/nodes/${node.id}/heartbeat`)).body.lastSeenAt).toMatch(/\+00:00$/);
  });

  it("refuses destroy and hard reset on a cloud appliance, and does them elsewhere", async () => {
    const worker = (await get("/cluster/nodes")).body.find((n: Node) => n.hostname === "w1.corp.test") as Node;
    await system.db.prisma.gatewayClusterNode.updateMany({ where: { local: true }, data: { cloud: true } });
    expect((await get("/cluster")).body.cloud).toBe(true);
    expect((await post("/cluster/destroy")).status).toBe(409);
    expect((await post(`/cluster/nodes/${worker.id}/hard-reset`)).status).toBe(409);
    expect((await system.request("DELETE", `/api/v2/cluster/nodes/${worker.id}`, { headers: { "x-esg-auth-token": gateway.token } })).status).toBe(409);

    await system.db.prisma.gatewayClusterNode.updateMany({ where: { local: true }, data: { cloud: false } });
    const reset = await post(`/cluster/nodes/${worker.id}/hard-reset`);
    expect(reset.body).toMatchObject({ state: "set-up", lastSeenAt: null });
    expect((await get("/events?kind=cluster-incident")).body.some((e: { subject: string }) => e.subject.includes("hard reset"))).toBe(true);
    const destroyed = await post("/cluster/destroy");
    expect(destroyed.body).toMatchObject({ state: "destroyed", workerCount: 0 });
    expect((await post("/cluster/setup")).body.state).toBe("set-up");
  });

  it("answers Hydra and GraphQL, and only administrators", async () => {
    const h = await gateway.get("/api/v2/cluster/nodes", hydra);
    expect(h.body["@type"]).toBe("hydra:Collection");
    expect(h.body["hydra:member"][0]["@id"]).toMatch(/^\/api\/v2\/cluster\/nodes\/\d+$/);
    const g = await system.graphql<{ cluster: { state: string; maxWorkers: number } }>("{ cluster { state maxWorkers } }", {}, { headers: { "x-esg-auth-token": gateway.token } });
    expect(g.data?.cluster).toEqual({ state: "set_up", maxWorkers: 64 });
    expect((await system.request("POST", "/api/v2/cluster/suspend")).status).toBe(401);
    expect((await system.graphql("{ cluster { state } }")).errors?.[0].extensions?.code).toBe("gateway_token_required");
  });
});
