// `npm run admin`, run as an operator would: a child process on a PGlite data directory, then the
// server started on that same directory answers with what the command wrote.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem } from "../helpers/system.ts";
import { runAdmin } from "../helpers/admin-command.ts";

const SECRET_KEY = "admin-command-test-secret-key-0123456789";
// Each command is a process that opens the embedded database: seconds, not milliseconds.
let dir: string;

/** Runs the admin command (tsx, as `npm run admin` does) against the test's data directory. */
const admin = (...args: string[]) => adminWith({}, ...args);

const adminWith = (overrides: NodeJS.ProcessEnv, ...args: string[]) => runAdmin(dir, {
  SECRET_KEY, ADMIN_APP_PASSWORD: "abcd EFGH ijkl MNOP qrst UVWX", GATEWAY_ADMIN_PASSWORD: "first-gateway-password", ...overrides,
}, ...args);

beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), "admin-command-")); });
afterAll(() => { fs.rmSync(dir, { recursive: true, force: true }); });

describe("npm run admin", () => {
  test("--help lists the commands and says to stop the server for the embedded database", async () => {
    const r = await admin("--help");
    expect(r.code).toBe(0);
    for (const command of ["user", "app-password", "oauth-client", "gateway"]) expect(r.stdout).toContain(command);
    expect(r.stdout).toContain("stop `npm start`");
    const sub = await admin("app-password", "--help");
    for (const command of ["create", "list", "revoke", "prune-unused"]) expect(sub.stdout).toContain(command);
  }, 60_000);

  test("a user, an application password printed once and a new gateway password: the server accepts them", async () => {
    const user = await admin("user", "create", "--username", "ada", "--email", "ada@example.com", "--role", "editor");
    expect(user.code).toBe(0);
    expect(user.stdout).toMatch(/User ada created \(id \d+, role editor\)/);
    const created = await admin("app-password", "create", "--user", "ada", "--name", "recovery");
    expect(created.code).toBe(0);
    const password = created.stdout.trim().split("\n").at(-1)!;
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const duplicate = await admin("app-password", "create", "--user", "ada", "--name", "recovery");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("application_password_duplicate_name");
    const unknown = await admin("app-password", "create", "--user", "nobody", "--name", "x");
    expect([unknown.code, unknown.stderr.includes("rest_user_invalid_id")]).toEqual([1, true]);
    const reset = await admin("gateway", "reset-admin-password", "--password", "second-gateway-password");
    expect(reset.code).toBe(0);

    const s = await startTestSystem({ DATA_DIR: dir }, { databaseUrl: `file:${path.join(dir, "pglite")}`, secretKey: Buffer.from(SECRET_KEY, "utf8") });
    try {
      const me = await s.request("GET", "/wp-json/core/v2/users/me?context=edit", { auth: { username: "ada", password } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ username: "ada", roles: ["editor"] });
      const login = (pw: string) => s.request("POST", "/api/v2/login", { body: { username: "admin", password: pw } });
      expect((await login("second-gateway-password")).status).toBe(200);
      expect((await login("first-gateway-password")).status).toBe(401);
    } finally {
      await s.stop();
    }

    const list = await admin("app-password", "list", "--user", "ada");
    expect(list.stdout).toMatch(/recovery {2}created \S+ {2}last used/);
    expect(list.stdout).not.toContain(password);
  }, 180_000);

  test("oauth-client create prints the client secret once; the token endpoint authenticates the client with it", async () => {
    const bad = await admin("oauth-client", "create", "--name", "Bad", "--redirect-uri", "not a uri");
    expect(bad.code).toBe(1);
    const created = await admin("oauth-client", "create", "--name", "Mobile", "--redirect-uri", "https://app.example/cb", "--redirect-uri", "http://127.0.0.1:8765/cb");
    expect(created.code).toBe(0);
    const clientId = created.stdout.match(/client_id: +(\S+)/)?.[1];
    const clientSecret = created.stdout.match(/client_secret: +(\S+)/)?.[1];
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const s = await startTestSystem({ DATA_DIR: dir }, { databaseUrl: `file:${path.join(dir, "pglite")}`, secretKey: Buffer.from(SECRET_KEY, "utf8") });
    try {
      const stored = await s.db.prisma.oAuthClient.findUniqueOrThrow({ where: { id: clientId! } });
      expect(stored.redirectUris).toEqual(["https://app.example/cb", "http://127.0.0.1:8765/cb"]);
      expect(stored.secretHash).not.toContain(clientSecret!);
      const token = (secret: string) => s.request("POST", "/oauth/token", {
        raw: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "unknown", client_id: clientId!, client_secret: secret }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      // The client is recognized (the grant, not the client, is refused); a wrong secret is not.
      expect((await token(clientSecret!)).body.error).toBe("invalid_grant");
      expect((await token(`${clientSecret}x`)).body.error).toBe("invalid_client");
    } finally {
      await s.stop();
    }
  }, 120_000);

  test("prune-unused revokes stale passwords with a progress bar; revoke --all empties a user", async () => {
    const dry = await admin("app-password", "prune-unused", "--older-than-days", "0", "--dry-run");
    const count = Number(dry.stdout.match(/^(\d+) application password/)?.[1]);
    expect(count).toBeGreaterThan(0);
    const pruned = await admin("app-password", "prune-unused", "--older-than-days", "0");
    expect(pruned.code).toBe(0);
    expect(pruned.stderr).toContain(`100% | ${count}/${count}`);
    expect(pruned.stdout).toContain(`Revoked ${count} application password(s)`);
    // The first-start passwords, still set, are no longer silently ignored: the notice names the way out.
    const listed = await adminWith({ LOG_LEVEL: "info" }, "app-password", "list", "--user", "ada");
    expect(listed.stdout).toContain("ada has no application passwords.");
    expect(listed.stderr + listed.stdout).toContain("ADMIN_APP_PASSWORD is only read on first start; for a new password run: npm run admin -- app-password create");
    expect(listed.stderr + listed.stdout).toContain("npm run admin -- gateway reset-admin-password");
    const bad = await admin("app-password", "prune-unused", "--older-than-days", "soon");
    expect(bad.code).toBe(1);

    await admin("app-password", "create", "--user", "ada", "--name", "one");
    await admin("app-password", "create", "--user", "ada", "--name", "two");
    const all = await admin("app-password", "revoke", "--user", "ada", "--all");
    expect(all.stdout).toContain("Revoked 2 application password(s) of ada.");
  }, 120_000);
});
