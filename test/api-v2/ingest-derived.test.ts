// What derives from ingested mail: licence accounting (first seen, last seen, delivery count; mail
// accounted on a single day does not count; bounced/rejected mail and functional users never do),
// restricted senders (outbound spam, viruses, phishing; filterable by sender), and the admin
// command's JSON Lines ingest and resumable bulk purge.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkIngestBatch } from "../../lib/gateway/ingest-record.ts";
import { ingestFile } from "../../admin/gateway-mail.ts";
import { storeMessages } from "../../subgraphs/gateway/mail/ingest.ts";
import { purgeMessages, purgeNextBatch, startPurge, unfinishedPurge } from "../../subgraphs/gateway/mail/purge.ts";
import type { TestSystem } from "../helpers/system.ts";
import { hydra, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";
import { DAY, HOUR, T0, addGatewayUser, mail } from "./messages-fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
let token: string;
const headers = (t = token) => ({ "x-esg-auth-token": t, ...hydra });
const get = (p: string, t = token) => system.request("GET", p, { headers: headers(t) });
const ingest = (records: unknown[]) => system.request("POST", "/api/v2/messages/ingest", { headers: { "x-esg-auth-token": token }, body: records });
const ctx = () => ({ db: system.db });
const at = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  gateway = await startGatewaySystem();
  ({ system, token } = gateway);
});
afterAll(async () => { await system?.stop(); });

describe("licence accounting derived from ingest", () => {
  it("records first seen, last seen and delivery count; a single day does not count", async () => {
    const r = await ingest([
      // carol: three deliveries over three days; dave: two on one day; erin: bounced only; out: outbound sender.
      mail(1, { id: "L1", recipients: ["Carol@Corp.Test"], receivedOn: at(T0 + 2 * DAY) }),
      mail(2, { id: "L2", recipients: ["carol@corp.test", "dave@corp.test"], receivedOn: at(T0) }),
      mail(3, { id: "L3", recipients: ["carol@corp.test"], receivedOn: at(T0 + DAY) }),
      mail(4, { id: "L4", recipients: ["dave@corp.test"], receivedOn: at(T0 + 3 * HOUR) }),
      mail(5, { id: "L5", recipients: ["erin@corp.test"], deliveryResult: "bounced" }),
      mail(6, { id: "L6", recipients: ["frank@corp.test"], deliveryResult: "pending", quarantined: true, result: "spam" }),
      mail(7, { id: "L7", direction: "outbound", sender: "out@corp.test", recipients: ["x@far.example"] }),
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.accountedDeliveries).toBe(6);
    const list = await get("/api/v2/licensing/accounted-email?order[email]=asc");
    const rows = list.body["hydra:member"];
    expect(rows.map((x: { email: string }) => x.email)).toEqual(["carol@corp.test", "dave@corp.test", "out@corp.test"]);
    expect(rows[0]).toMatchObject({ deliveryCount: 3, firstSeenOn: "2024-05-01T09:30:12+00:00", lastSeenOn: "2024-05-03T09:30:12+00:00", accounted: true, domain: "corp.test", expiresOn: "2024-06-02T09:30:12+00:00" });
    expect(rows[1]).toMatchObject({ deliveryCount: 2, accounted: false });
    const counted = await get("/api/v2/licensing/accounted-email?accounted=true");
    expect(counted.body["hydra:totalItems"]).toBe(1);
  });

  it("a later day makes a single-day address count; filter by email (5.3.5)", async () => {
    await ingest([mail(8, { id: "L8", recipients: ["dave@corp.test"], receivedOn: at(T0 + 5 * DAY) })]);
    const dave = await get("/api/v2/licensing/accounted-email?email=DAVE@corp.test");
    expect(dave.body["hydra:totalItems"]).toBe(1);
    expect(dave.body["hydra:member"][0]).toMatchObject({ deliveryCount: 3, accounted: true, lastSeenOn: "2024-05-06T09:30:12+00:00" });
  });

  it("replaying the same log accounts nothing twice", async () => {
    const again = await ingest([mail(1, { id: "L1", recipients: ["carol@corp.test"], receivedOn: at(T0 + 2 * DAY) })]);
    expect(again.body).toMatchObject({ ingested: 0, duplicates: 1, accountedDeliveries: 0 });
    const carol = await get("/api/v2/licensing/accounted-email?email=carol@corp.test");
    expect(carol.body["hydra:member"][0].deliveryCount).toBe(3);
  });

  it("a functional user never counts, however many days it is seen", async () => {
    await system.db.prisma.accountedEmail.update({ where: { address: "carol@corp.test" }, data: { type: "functional" } });
    await ingest([mail(9, { id: "L9", recipients: ["carol@corp.test"], receivedOn: at(T0 + 9 * DAY) })]);
    const carol = (await get("/api/v2/licensing/accounted-email?email=carol@corp.test")).body["hydra:member"][0];
    expect(carol).toMatchObject({ type: "functional", accounted: false, deliveryCount: 4 });
  });
});

describe("restricted senders derived from ingest", () => {
  it("restricts a local sender whose outbound mail is caught, and counts its caught messages", async () => {
    const r = await ingest([
      mail(20, { id: "R1", direction: "outbound", sender: "spammy@corp.test", recipients: ["a@far.example"], result: "spam" }),
      mail(21, { id: "R2", direction: "outbound", sender: "spammy@corp.test", recipients: ["b@far.example"], result: "virus" }),
      mail(22, { id: "R3", direction: "outbound", sender: "ok@corp.test", recipients: ["c@far.example"], result: "clean" }),
      mail(23, { id: "R4", direction: "inbound", sender: "evil@far.example", result: "spam" }),
      mail(24, { id: "R5", direction: "outbound", sender: "phish@corp.test", recipients: ["d@far.example"], result: "phishing" }),
    ]);
    expect(r.body.restrictedSenders).toBe(2);
    const list = await get("/api/v2/restricted-sender?order[sender]=asc");
    expect(list.status).toBe(200);
    expect(list.body["hydra:member"].map((x: { sender: string; reason: string; messageCount: number }) => [x.sender, x.reason, x.messageCount]))
      .toEqual([["phish@corp.test", "outbound-phishing", 1], ["spammy@corp.test", "outbound-virus", 2]]);
    expect(list.body["hydra:member"][1]["@id"]).toMatch(/^\/api\/v2\/restricted-sender\/\d+$/);
  });

  it("filters by sender (5.3.5) with the operator table, and reports a bad operator", async () => {
    const one = await get("/api/v2/restricted-sender?sender[start]=SPAM");
    expect(one.body["hydra:member"].map((x: { sender: string }) => x.sender)).toEqual(["spammy@corp.test"]);
    const bad = await get("/api/v2/restricted-sender?sender[gt]=a");
    expect(bad.status).toBe(422);
    expect(bad.body.violations[0].propertyPath).toBe("sender");
    const reason = await get("/api/v2/restricted-sender?reason=outbound-phishing");
    expect(reason.body["hydra:totalItems"]).toBe(1);
  });

  it("is refused to users; an administrator lifts a restriction", async () => {
    const userToken = await addGatewayUser(system, "plainuser", ["user"], { email: "ok@corp.test" });
    expect((await get("/api/v2/restricted-sender", userToken)).status).toBe(403);
    const id = (await get("/api/v2/restricted-sender?sender=phish@corp.test")).body["hydra:member"][0].id;
    expect((await get(`/api/v2/restricted-sender/${id}`)).status).toBe(200);
    expect((await system.request("DELETE", `/api/v2/restricted-sender/${id}`, { headers: { "x-esg-auth-token": token } })).status).toBe(204);
    expect((await get(`/api/v2/restricted-sender/${id}`)).status).toBe(404);
  });
});

describe("admin command: JSON Lines ingest and bulk purge", () => {
  it("ingests a log in batches, refusing bad lines with their line number and a truncated address", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "g1-ingest-"));
    const file = path.join(dir, "mail.jsonl");
    const long = `${"z".repeat(300)}@corp.test`;
    const lines = [
      ...Array.from({ length: 25 }, (_, i) => JSON.stringify(mail(1000 + i))),
      "",
      "{not json",
      JSON.stringify(mail(2000, { recipients: [long] })),
    ];
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    const result = await ingestFile(file, async (records, lineNumbers) => {
      const { records: good, rejected } = checkIngestBatch(records);
      return { report: await storeMessages(ctx(), good), rejected: rejected.map((r) => ({ line: lineNumbers[r.index], messages: r.violations.map((v) => v.message) })) };
    }, 10);
    expect(result.report.ingested).toBe(25);
    expect(result.rejected.map((r) => r.line)).toEqual([27, 28]);
    const refused = result.rejected[1].messages[0];
    expect(refused).toContain("longer than 254");
    expect(refused.length).toBeLessThan(200);
    expect(await system.db.prisma.gatewayMessage.count({ where: { id: "Q002000" } })).toBe(0);
  });

  it("purges in batches, resumes an interrupted job where it stopped, and keeps the total honest", async () => {
    const before = (await get("/api/v2/messages?itemsPerPage=1")).body["hydra:totalItems"];
    const criteria = { filter: { subject: [{ operator: "start" as const, value: "Weekly 10" }] } }; // Weekly 1000…1024 (25 messages)
    const job = await startPurge(ctx(), criteria);
    expect(job.total).toBe(25);
    const first = await purgeNextBatch(ctx(), job, 10);
    expect(first.deleted).toBe(10);
    // "Interrupted": a new run finds the unfinished job and continues after its cursor.
    const resumed = await unfinishedPurge(ctx(), criteria);
    expect(resumed).toMatchObject({ id: job.id, purged: 10 });
    let current = resumed!;
    let deleted = 10;
    for (;;) {
      const step = await purgeNextBatch(ctx(), current, 10);
      current = step.job;
      deleted += step.deleted;
      if (current.state === "done") break;
    }
    expect(deleted).toBe(25);
    expect(current.purged).toBe(25);
    const after = (await get("/api/v2/messages?itemsPerPage=1")).body["hydra:totalItems"];
    expect(after).toBe(before - 25);
    expect(await system.db.prisma.gatewayMessageAddress.count({ where: { messageId: { startsWith: "Q0010" } } })).toBe(0);
  });

  it("the API's purge refuses more than 10,000 messages and points to the command line", async () => {
    // 10,001 rows written set-based (the ingest path is measured in bench/gateway-messages.ts).
    await system.db.prisma.$executeRawUnsafe(`
      INSERT INTO "GatewayMessage" (id, "receivedOn", sender, "headerFrom", "headerFromAddress", recipients, hostname, direction, subject, size, result, "deliveryResult", "uriHosts")
      SELECT 'BULK' || g, now(), 'x@far.example', 'x@far.example', 'x@far.example', ARRAY['y@corp.test'], 'esg1', 'inbound', 'bulk', 100, 'clean', 'delivered', ARRAY[]::text[]
      FROM generate_series(1, 10001) AS g`);
    await expect(purgeMessages(ctx(), { filter: { subject: [{ operator: "eq", value: "bulk" }] } })).rejects.toThrow(/more than 10000 messages runs from the command line/);
    const gql = await system.graphql<{ purgeMessages: number }>('mutation { purgeMessages(filter: { subject: [{ operator: eq, value: "Weekly 3" }] }) }', {}, { headers: { "x-esg-auth-token": token } });
    expect(gql.data?.purgeMessages).toBe(1);
  }, 60_000);
});
