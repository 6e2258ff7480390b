// A refused over-long address is logged, and only its start is (seed 001 §7: rejected and logged
// with a truncated address).
import { afterAll, beforeAll, expect, test } from "vitest";
import { GATEWAY_ADMIN_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";

const lines: { msg?: string; violations?: { propertyPath: string; message: string }[] }[] = [];
const logStream = { write: (line: string) => { lines.push(JSON.parse(line)); } };
let s: TestSystem;
beforeAll(async () => { s = await startTestSystem({ LOG_LEVEL: "info" }, { logStream }); });
afterAll(async () => { await s?.stop(); });

test("an address over 254 characters in a filter is refused, and the log line quotes only its start", async () => {
  const token = (await s.request("POST", "/api/v2/login", { body: { username: "admin", password: GATEWAY_ADMIN_PASSWORD } })).body.token as string;
  const long = `${"z".repeat(300)}@example.com`;
  const r = await s.request("GET", `/api/v2/licensing/accounted-email?email=${long}`, { headers: { "x-esg-auth-token": token } });
  expect(r.status).toBe(422);
  const logged = lines.find((l) => l.msg === "constraint violation");
  expect(logged?.violations?.[0]).toMatchObject({ propertyPath: "email" });
  expect(JSON.stringify(logged)).toContain("z".repeat(64));
  expect(JSON.stringify(logged)).not.toContain("z".repeat(65));
});
