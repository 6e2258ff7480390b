// Worker storage retention (seed 001 §8: 3 days): mail stored on a worker node is deleted once it
// is older than that, at a given instant (injectable clock), before any read can serve it, and by
// the admin command; mail stored on the primary, or on a worker for less, stays.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeExpiredWorkerMail } from "../../subgraphs/gateway/mail/retention.ts";
import type { TestSystem } from "../helpers/system.ts";
import { hydra, startGatewaySystem } from "./fixtures.ts";
import { DAY, T0, mail } from "./messages-fixtures.ts";

let system: TestSystem;
let token: string;
const headers = () => ({ "x-esg-auth-token": token, ...hydra });
const ingest = (records: unknown[]) => system.request("POST", "/api/v2/messages/ingest", { headers: { "x-esg-auth-token": token }, body: records });
const stored = async () => (await system.db.prisma.gatewayMessage.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((m) => m.id);
const at = (ms: number) => new Date(ms).toISOString();
const MINUTE = 60_000;

beforeAll(async () => {
  ({ system, token } = await startGatewaySystem());
  await system.db.prisma.gatewayClusterNode.create({ data: { uid: "worker-1", hostname: "w1.corp.test", role: "worker", state: "running" } });
});
afterAll(async () => { await system?.stop(); });

describe("worker storage retention", () => {
  it("deletes worker mail older than 3 days at the given instant, and nothing else", async () => {
    const r = await ingest([
      mail(1, { id: "W-OLD", nodeId: "worker-1", receivedOn: at(T0) }),
      mail(2, { id: "W-NEW", nodeId: "worker-1", receivedOn: at(T0 + 2 * MINUTE), quarantined: true, result: "spam", deliveryResult: "pending" }),
      mail(3, { id: "P-OLD", nodeId: "primary-1", receivedOn: at(T0) }),
      mail(4, { id: "N-OLD", nodeId: null, receivedOn: at(T0) }),
    ]);
    expect(r.status, r.text).toBe(200);
    const ctx = { db: system.db };
    // One minute short of three days: kept.
    expect(await purgeExpiredWorkerMail(ctx, new Date(T0 + 3 * DAY - MINUTE))).toBe(0);
    expect(await stored()).toEqual(["N-OLD", "P-OLD", "W-NEW", "W-OLD"]);
    // One minute past for W-OLD, one minute short for W-NEW.
    expect(await purgeExpiredWorkerMail(ctx, new Date(T0 + 3 * DAY + MINUTE))).toBe(1);
    expect(await stored()).toEqual(["N-OLD", "P-OLD", "W-NEW"]);
    // The totals kept in counters follow (an administrator's unfiltered and per-verdict totals).
    const all = await system.request("GET", "/api/v2/messages", { headers: headers() });
    expect(all.body["hydra:totalItems"]).toBe(all.body["hydra:member"].length);
  });

  it("a read never serves expired worker mail: the list and the item purge first", async () => {
    // Received in 2024: long past retention today.
    expect((await ingest([mail(5, { id: "W-2024", nodeId: "worker-1", receivedOn: at(T0 + DAY) })])).status).toBe(200);
    expect(await stored()).toContain("W-2024");
    const item = await system.request("GET", "/api/v2/message/W-2024", { headers: headers() });
    expect(item.status).toBe(404);
    expect(await stored()).not.toContain("W-2024");

    expect((await ingest([mail(6, { id: "W-2024B", nodeId: "worker-1", receivedOn: at(T0 + DAY) })])).status).toBe(200);
    const list = await system.request("GET", "/api/v2/messages", { headers: headers() });
    const ids = list.body["hydra:member"].map((m: { id: string }) => m.id);
    // The primary's and unassigned mail stays, whatever its age.
    expect(ids.sort()).toEqual(["N-OLD", "P-OLD"]);
    expect(list.body["hydra:totalItems"]).toBe(2);
    const quarantined = await system.request("GET", "/api/v2/messages?quarantined=true", { headers: headers() });
    expect(quarantined.body["hydra:totalItems"]).toBe(0);
  });
});
