// Mail flow over /api/v2 and GraphQL: ingest (the one way mail enters), the messages list with
// its operator filters, order, search by URI host and cluster node, roles (From header for users,
// scope), the item, reports and their deprecated aliases, release, scan-analysis removal and
// attachment fetch. (Subgraph side: subgraphs/gateway/mail/.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSystem } from "../helpers/system.ts";
import { RFC3339_OFFSET, hal, hydra, json, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";
import { addGatewayUser, mail } from "./messages-fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
let token: string;
let userToken: string;
let domainAdminToken: string;
const LIST = "/api/v2/messages";
const as = (t: string, extra: Record<string, string> = {}) => ({ "x-esg-auth-token": t, ...extra });
const get = (path: string, t = token, extra: Record<string, string> = {}) => system.request("GET", path, { headers: as(t, extra) });
const post = (path: string, body: unknown, t = token) => system.request("POST", path, { headers: as(t), ...(body === undefined ? {} : { body }) });

const PDF = Buffer.from("%PDF-1.4 pretend report\n");

beforeAll(async () => {
  gateway = await startGatewaySystem();
  ({ system, token } = gateway);
  const records = Array.from({ length: 40 }, (_, i) => mail(i));
  // A quarantined phishing message with an attachment, a bounce, an outbound spam run, other domains.
  records.push(mail(40, { id: "QUAR1", result: "phishing", deliveryResult: "pending", quarantined: true, subject: "Invoice", uris: ["http://evil.example.com/login"], attachments: [{ name: "invoice.pdf", contentType: "application/pdf", content: PDF.toString("base64") }] }));
  records.push(mail(41, { id: "BOUNCE1", sender: "", headerFrom: "MAILER-DAEMON <mailer-daemon@example.org>", result: "spam", deliveryResult: "pending", quarantined: true, subject: "Undelivered" }));
  records.push(mail(42, { id: "CLEAN-ATT", attachments: [{ name: "a.txt", contentType: "text/plain", content: Buffer.from("hi").toString("base64") }] }));
  records.push(mail(43, { id: "OUT1", direction: "outbound", sender: "Bob@Corp.Test", recipients: ["someone@else.example"], headerFrom: "Bob <bob@corp.test>", result: "spam" }));
  records.push(mail(44, { id: "OTHER1", recipients: ["zed@other.test"] }));
  const response = await post("/api/v2/messages/ingest", records);
  expect(response.status, response.text).toBe(200);
  userToken = await addGatewayUser(system, "anna", ["user"], { email: "anna@corp.test" });
  domainAdminToken = await addGatewayUser(system, "dom", ["domain-admin"], { domains: ["other.test"] });
});

afterAll(async () => { await system?.stop(); });

describe("ingest", () => {
  it("stores what it was given and reports what derived from it", async () => {
    const again = await post("/api/v2/messages/ingest", { messages: [mail(0), mail(100)] });
    expect(again.status).toBe(200);
    // A replayed record is skipped; the new one is stored and accounted.
    expect(again.body).toEqual({ ingested: 1, duplicates: 1, accountedDeliveries: 1, restrictedSenders: 0 });
  });

  it("refuses a record with an address longer than 254 characters, quoting it truncated, and stores nothing of the call", async () => {
    const long = `${"x".repeat(250)}@corp.test`;
    const response = await post("/api/v2/messages/ingest", [mail(200), mail(201, { recipients: [long] })]);
    expect(response.status).toBe(422);
    expect(response.body.violations).toHaveLength(1);
    expect(response.body.violations[0].propertyPath).toBe("[1].recipients[0]");
    expect(response.body.violations[0].message).toContain("longer than 254");
    expect(response.body.violations[0].message).not.toContain(long);
    expect(await system.db.prisma.gatewayMessage.count({ where: { id: { in: ["Q000200", "Q000201"] } } })).toBe(0);
  });

  it("reports every bad field at once", async () => {
    const response = await post("/api/v2/messages/ingest", [mail(300, { direction: "sideways", size: -1, id: "bad id!" })]);
    expect(response.status).toBe(422);
    expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["[0].direction", "[0].id", "[0].size"]);
  });

  it("is for administrators only", async () => {
    expect((await post("/api/v2/messages/ingest", [mail(400)], userToken)).status).toBe(403);
    expect((await system.request("POST", "/api/v2/messages/ingest", { body: [mail(400)] })).status).toBe(401);
    expect((await post("/api/v2/messages/ingest", [mail(400)], "forged.token")).status).toBe(401);
  });
});

describe("GET /messages", () => {
  it("lists newest first in Hydra with an honest total and exact links", async () => {
    const response = await get(`${LIST}?itemsPerPage=10`, token, hydra);
    expect(response.status).toBe(200);
    expect(response.body["hydra:totalItems"]).toBe(46);
    const members = response.body["hydra:member"];
    expect(members).toHaveLength(10);
    expect(members[0]).toMatchObject({ "@id": "/api/v2/message/Q000100", "@type": "Message", id: "Q000100" });
    expect(members[0].receivedOn).toMatch(RFC3339_OFFSET);
    expect(response.body["hydra:view"]["hydra:next"]).toBe(`${LIST}?itemsPerPage=10&page=2`);
    expect(response.body["hydra:view"]["hydra:last"]).toBe(`${LIST}?itemsPerPage=10&page=5`);
  });

  it("serves HAL by default and plain JSON arrays", async () => {
    const halBody = (await get(`${LIST}?itemsPerPage=5`, token, hal)).body;
    expect(halBody.totalItems).toBe(46);
    expect(halBody._embedded.item[0]._links.self.href).toBe("/api/v2/message/Q000100");
    const plain = (await get(`${LIST}?itemsPerPage=5`, token, json)).body;
    expect(Array.isArray(plain)).toBe(true);
  });

  it("filters with the operator table and orders", async () => {
    const bySender = await get(`${LIST}?sender[eq]=NEWS1@example.org&itemsPerPage=100`, token, hydra);
    expect(bySender.body["hydra:member"].every((m: { sender: string }) => m.sender === "news1@example.org")).toBe(true);
    expect(bySender.body["hydra:totalItems"]).toBe(bySender.body["hydra:member"].length);
    const big = await get(`${LIST}?size[gte]=1030&size[lt]=1035&order[size]=asc`, token, hydra);
    expect(big.body["hydra:member"].map((m: { size: number }) => m.size)).toEqual([1030, 1031, 1032, 1033, 1034]);
    const quarantined = await get(`${LIST}?quarantined=true`, token, hydra);
    expect(quarantined.body["hydra:member"].map((m: { id: string }) => m.id).sort()).toEqual(["BOUNCE1", "QUAR1"]);
    const subject = await get(`${LIST}?subject[contains]=invoice&result[in]=phishing,virus`, token, hydra);
    expect(subject.body["hydra:totalItems"]).toBe(1);
    const dated = await get(`${LIST}?receivedOn[lt]=2024-05-01T12:00:00%2B00:00`, token, hydra);
    expect(dated.body["hydra:totalItems"]).toBe(3); // 09:30, 10:30, 11:30
    const recipient = await get(`${LIST}?recipient=zed@other.test`, token, hydra);
    expect(recipient.body["hydra:member"].map((m: { id: string }) => m.id)).toEqual(["OTHER1"]);
  });

  it("searches by URI host and by cluster node (§1.12)", async () => {
    const host = await get(`${LIST}?uriHost=evil.example.com`, token, hydra);
    expect(host.body["hydra:member"].map((m: { id: string }) => m.id)).toEqual(["QUAR1"]);
    const hostEnd = await get(`${LIST}?uriHost[end]=.example.net&itemsPerPage=1`, token, hydra);
    expect(hostEnd.body["hydra:totalItems"]).toBeGreaterThan(40);
    const node = await get(`${LIST}?nodeId=node-b&itemsPerPage=100`, token, hydra);
    expect(node.body["hydra:member"].every((m: { hostname: string }) => m.hostname === "esg2.corp.test")).toBe(true);
    const byHostname = await get(`${LIST}?hostname=esg2.corp.test`, token, hydra);
    expect(byHostname.body["hydra:totalItems"]).toBe(node.body["hydra:totalItems"]);
  });

  it("answers an invalid operator with a 422 violation naming the field and the allowed operators", async () => {
    const response = await get(`${LIST}?sender[xx]=a&size[contains]=3`, token, hydra);
    expect(response.status).toBe(422);
    expect(response.body["@type"]).toBe("ConstraintViolationList");
    expect(response.body.violations).toEqual([
      { propertyPath: "sender", message: 'Unsupported operator "xx" for "sender"; allowed: eq, neq, contains, ncontains, start, end, in.' },
      { propertyPath: "size", message: 'Unsupported operator "contains" for "size"; allowed: eq, neq, gt, gte, lt, lte.' },
    ]);
  });

  it("refuses an over-long address in a filter", async () => {
    const response = await get(`${LIST}?sender=${"y".repeat(260)}@corp.test`, token, hydra);
    expect(response.status).toBe(422);
    expect(response.body.violations[0].propertyPath).toBe("sender");
  });

  it("shows users the From header instead of the envelope, and only their own mail (§1.11)", async () => {
    const response = await get(`${LIST}?itemsPerPage=100`, userToken, hydra);
    expect(response.status).toBe(200);
    const members = response.body["hydra:member"];
    expect(members.length).toBeGreaterThan(0);
    expect(members.some((m: { id: string }) => m.id === "OTHER1" || m.id === "OUT1")).toBe(false);
    const one = members.find((m: { id: string }) => m.id === "Q000001");
    expect(one.from).toBe('"News 1" <news1@example.org>');
    expect(one.sender).toBeNull();
    expect(one.recipients).toBeNull();
    const admin = (await get("/api/v2/message/Q000001", token, json)).body;
    expect(admin.from).toBe("news1@example.org");
    expect(admin.recipients).toEqual(["anna@corp.test"]);
  });

  it("scopes domain administrators to their domains; outside the scope a message is 404", async () => {
    const response = await get(`${LIST}?itemsPerPage=100`, domainAdminToken, hydra);
    expect(response.body["hydra:member"].map((m: { id: string }) => m.id)).toEqual(["OTHER1"]);
    expect((await get("/api/v2/message/Q000001", domainAdminToken)).status).toBe(404);
    expect((await get("/api/v2/message/OTHER1", domainAdminToken)).status).toBe(200);
  });

  it("pages by keyset in GraphQL, the same rows as offset pages", async () => {
    const query = `query($after: String) { messages(itemsPerPage: 7, after: $after) { endCursor totalItems items { id } } }`;
    const headers = { headers: as(token) };
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r: { data?: { messages: { endCursor: string | null; items: { id: string }[] } } } = await system.graphql(query, { after }, headers);
      seen.push(...r.data!.messages.items.map((m) => m.id));
      after = r.data!.messages.endCursor;
      if (!after) break;
    }
    const all = (await get(`${LIST}?itemsPerPage=100`, token, json)).body.map((m: { id: string }) => m.id);
    expect(seen).toEqual(all);
  });
});

describe("GET /message/{id}", () => {
  it("shows the item with attachments, scan analysis and state", async () => {
    const response = await get("/api/v2/message/QUAR1", token, hydra);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      "@id": "/api/v2/message/QUAR1", id: "QUAR1", quarantined: true, state: "quarantined", result: "phishing",
      uriHosts: ["evil.example.com"], attachments: [{ position: 0, name: "invoice.pdf", contentType: "application/pdf", size: PDF.length, stored: true }],
      scanAnalysis: { verdict: "phishing", engines: [{ engine: "antispam", result: "clean", detail: "score 0.5" }] },
    });
    expect((await get("/api/v2/message/NOPE")).status).toBe(404);
  });
});

describe("reports", () => {
  it("report-as-good records the learning (ham, sender reputation +2) and answers 204", async () => {
    const response = await post("/api/v2/message/Q000005/report-as-good", undefined);
    expect(response.status).toBe(204);
    expect(response.headers.get("deprecation")).toBeNull();
    const item = (await get("/api/v2/message/Q000005", token, json)).body;
    expect(item.reports).toHaveLength(1);
    expect(item.reports[0]).toMatchObject({ kind: "good", route: "report_as_good", reportedBy: "admin", learning: [{ effect: "ham", subject: "Q000005", weight: 2 }, { effect: "sender-reputation", subject: "news2@example.org", weight: 2 }] });
    const reputation = await system.db.prisma.gatewaySenderReputation.findUnique({ where: { address: "news2@example.org" } });
    expect(reputation).toMatchObject({ goodWeight: 2, badWeight: 0 });
  });

  it("submit-as-bad behaves as report-as-bad and says it is deprecated", async () => {
    const response = await post("/api/v2/message/Q000005/submit-as-bad", undefined);
    expect(response.status).toBe(204);
    expect(response.headers.get("deprecation")).toBe("@1716336000");
    expect(response.headers.get("link")).toBe('</api/v2/message/Q000005/report-as-bad>; rel="successor-version"');
    const item = (await get("/api/v2/message/Q000005", token, json)).body;
    expect(item.reports[1]).toMatchObject({ kind: "bad", route: "submit_as_bad", learning: [{ effect: "spam", weight: 1 }, { effect: "sender-reputation", weight: -1 }] });
    const good = await post("/api/v2/message/Q000006/submit-as-good", undefined);
    expect(good.headers.get("link")).toContain("report-as-good");
    const docs = (await system.request("GET", "/api/v2/docs.json")).body;
    expect(docs.paths["/api/v2/message/{id}/submit-as-bad"].post.deprecated).toBe(true);
    expect(docs.paths["/api/v2/message/{id}/report-as-bad"].post.deprecated).toBeUndefined();
  });

  it("answers 404 for an unknown message or one outside the caller's scope", async () => {
    expect((await post("/api/v2/message/NOPE/report-as-bad", undefined)).status).toBe(404);
    expect((await post("/api/v2/message/OTHER1/report-as-bad", undefined, userToken)).status).toBe(404);
  });
});

describe("quarantine", () => {
  it("fetches a stored attachment only while the message is stored in quarantine (5.3.2)", async () => {
    const response = await system.request("GET", "/api/v2/message/QUAR1/fetch/0", { headers: as(token) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain('filename="invoice.pdf"');
    expect(response.text).toBe(PDF.toString());
    expect((await get("/api/v2/message/QUAR1/fetch/invoice.pdf")).status).toBe(200);
    const clean = await get("/api/v2/message/CLEAN-ATT/fetch/0");
    expect(clean.status).toBe(404);
    expect(clean.body.detail).toBe("The message is not stored in quarantine.");
    expect((await get("/api/v2/message/QUAR1/fetch/7")).status).toBe(404);
  });

  it("releases a bounce keeping its empty envelope sender; a second release is 409; users may not release", async () => {
    expect((await post("/api/v2/message/BOUNCE1/release", undefined, userToken)).status).toBe(403);
    expect((await post("/api/v2/message/BOUNCE1/release", undefined)).status).toBe(204);
    const item = (await get("/api/v2/message/BOUNCE1", token, json)).body;
    expect(item).toMatchObject({ state: "released", quarantined: false, sender: "", releaseSender: "", releasedBy: "admin", deliveryResult: "delivered" });
    // The totals of quarantined and released messages follow the release (counters kept in step).
    expect((await get(`${LIST}?quarantined=true`, token, hydra)).body["hydra:totalItems"]).toBe(1);
    expect((await get(`${LIST}?quarantined=false&itemsPerPage=1`, token, hydra)).body["hydra:totalItems"]).toBe(45);
    expect((await get(`${LIST}?state=released`, token, hydra)).body["hydra:totalItems"]).toBe(1);
    expect((await get(`${LIST}?state=quarantined`, token, hydra)).body["hydra:totalItems"]).toBe(1);
    const again = await post("/api/v2/message/BOUNCE1/release", undefined);
    expect(again.status).toBe(409);
    expect((await post("/api/v2/message/Q000001/release", undefined)).status).toBe(409);
  });

  it("recalls a delivered message once; a held one cannot be recalled; users may not recall (§1.13, §3)", async () => {
    expect((await post("/api/v2/message/Q000009/recall", undefined, userToken)).status).toBe(403);
    expect((await post("/api/v2/message/Q000009/recall", undefined)).status).toBe(204);
    expect((await get("/api/v2/message/Q000009", token, json)).body).toMatchObject({ state: "recalled" });
    expect((await post("/api/v2/message/Q000009/recall", undefined)).status).toBe(409);
    expect((await post("/api/v2/message/QUAR1/recall", undefined)).status).toBe(409);
    const recalled = await get(`${LIST}?state=recalled`, token, hydra);
    expect(recalled.body["hydra:member"].map((m: { id: string }) => m.id)).toEqual(["Q000009"]);
  });

  it("removes a scan analysis record for administrators and domain administrators only (§1.14)", async () => {
    expect((await system.request("DELETE", "/api/v2/message/Q000002/scan-analysis", { headers: as(userToken) })).status).toBe(403);
    expect((await system.request("DELETE", "/api/v2/message/OTHER1/scan-analysis", { headers: as(domainAdminToken) })).status).toBe(204);
    expect((await system.request("DELETE", "/api/v2/message/Q000002/scan-analysis", { headers: as(token) })).status).toBe(204);
    expect((await get("/api/v2/message/Q000002", token, json)).body.scanAnalysis).toBeNull();
    expect((await system.request("DELETE", "/api/v2/message/Q000002/scan-analysis", { headers: as(token) })).status).toBe(404);
  });
});
