// `npm run admin -- gateway …` for the appliance: the way back in when a mandatory OTP policy
// locks administrators out, an OTP reset, apply-settings and the notification checks for cron,
// run as an operator would (child processes on a PGlite directory), then read back over the API.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem } from "../helpers/system.ts";
import { runAdmin } from "../helpers/admin-command.ts";

const SECRET_KEY = "appliance-admin-test-secret-key-0123456789";
let dir: string;

const admin = (...args: string[]) => runAdmin(dir, {
  SECRET_KEY, ADMIN_APP_PASSWORD: "abcd EFGH ijkl MNOP qrst UVWX", GATEWAY_ADMIN_PASSWORD: "gateway-admin-secret",
}, ...args);

beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), "appliance-admin-")); });
afterAll(() => { fs.rmSync(dir, { recursive: true, force: true }); });

describe("npm run admin -- gateway (appliance)", () => {
  test("OTP policy, reset, apply-settings and event checks from the command line, seen by the API afterwards", async () => {
    const locked = await admin("gateway", "otp-policy", "--mandatory", "all", "--apply");
    expect(locked.code).toBe(0);
    expect(locked.stdout).toContain("OTP policy saved: mandatory all.");
    expect(locked.stdout).toContain("Apply settings: applied.");
    expect((await admin("gateway", "otp-policy", "--mandatory", "sometimes")).code).toBe(1);
    const back = await admin("gateway", "otp-policy", "--mandatory", "none");
    expect(back.stdout).toContain("mandatory none");
    expect((await admin("gateway", "apply-settings")).stdout).toContain("Applied: otp-policy.");
    expect((await admin("gateway", "apply-settings")).stdout).toContain("Nothing was pending.");
    expect((await admin("gateway", "otp-reset", "--user", "admin")).stdout).toContain('One-time password of "admin" reset.');
    expect((await admin("gateway", "otp-reset", "--user", "nobody")).code).toBe(1);
    expect((await admin("gateway", "check-events")).stdout).toMatch(/^\d+ new event\(s\) recorded\./);

    const system = await startTestSystem({ DATA_DIR: dir }, { databaseUrl: `file:${path.join(dir, "pglite")}`, secretKey: Buffer.from(SECRET_KEY) });
    try {
      const token = (await system.request("POST", "/api/v2/login", { body: { username: "admin", password: "gateway-admin-secret" } })).body.token;
      const log = await system.request("GET", "/api/v2/audit-log?section=otp-policy&order[id]=asc", { headers: { "x-esg-auth-token": token, accept: "application/json" } });
      expect(log.status).toBe(200);
      expect(log.body.map((e: { username: string; changeset: { mandatory?: { new: string } } }) => [e.username, e.changeset.mandatory?.new])).toEqual([["operator", "all"], ["operator", "none"]]);
    } finally {
      await system.stop();
    }
  }, 180_000);
});
