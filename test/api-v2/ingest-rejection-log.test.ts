// A message with an address over 254 characters is rejected at ingest and logged with the address
// truncated (seed 001 §7, §8): the REST ingest's 422 is logged, and the log line quotes only the
// address's start; nothing of the message is stored.
import { afterAll, beforeAll, expect, test } from "vitest";
import { GATEWAY_ADMIN_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";
import { mail } from "./messages-fixtures.ts";

const lines: { msg?: string; violations?: { propertyPath: string; message: string }[] }[] = [];
const logStream = { write: (line: string) => { lines.push(JSON.parse(line)); } };
let s: TestSystem;
beforeAll(async () => { s = await startTestSystem({ LOG_LEVEL: "info" }, { logStream }); });
afterAll(async () => { await s?.stop(); });

test("an ingested message whose envelope sender is over 254 characters is rejected and logged truncated", async () => {
  const token = (await s.request("POST", "/api/v2/login", { body: { username: "admin", password: GATEWAY_ADMIN_PASSWORD } })).body.token as string;
  const long = `${"q".repeat(300)}@example.com`;
  const r = await s.request("POST", "/api/v2/messages/ingest", { headers: { "x-esg-auth-token": token }, body: [mail(1, { id: "LONG1", sender: long })] });
  expect(r.status).toBe(422);
  expect(r.body.violations[0].propertyPath).toBe("[0].sender");
  const logged = lines.find((l) => l.msg === "constraint violation" && l.violations?.[0]?.propertyPath === "[0].sender");
  expect(logged).toBeDefined();
  expect(JSON.stringify(logged)).toContain("q".repeat(64));
  expect(JSON.stringify(logged)).not.toContain("q".repeat(65));
  expect(await s.db.prisma.gatewayMessage.count()).toBe(0);
});
