// site-health/v1 over real HTTP and GraphQL: administrators only, WordPress's result shape, and
// checks that really look at this system (the subgraphs and the database answering, the uploads
// directory, the site's address). Domain rules that need a broken part are run in-process with a
// subgraph address nothing answers at.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runHealthTest, directorySize, sizeFormat } from "../../subgraphs/extensions/site-health/site-health.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword, type SignedInUser } from "../helpers/users.ts";

let s: TestSystem;
let editor: SignedInUser;
let dataDir: string;
const R = "/wp-json/site-health/v1";
const TESTS = ["background-updates", "loopback-requests", "https-status", "dotorg-communication", "authorization-header", "page-cache", "sql-server", "file-uploads"];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-health-"));
  s = await startTestSystem({ DATA_DIR: dataDir });
  editor = await createUserWithPassword(s, "eddie", ["editor"]);
});
afterAll(async () => {
  await s?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("site-health/v1", () => {
  test("every check answers WordPress's result shape to an administrator", async () => {
    for (const name of TESTS) {
      const r = await s.request("GET", `${R}/tests/${name}`, { auth: "admin" });
      expect(r.status, name).toBe(200);
      expect(Object.keys(r.body)).toEqual(["label", "status", "badge", "description", "actions", "test"]);
      expect(["good", "recommended", "critical"]).toContain(r.body.status);
      expect(["Security", "Performance"]).toContain(r.body.badge.label);
      expect(r.body.test).toBe(name.replace(/-/g, "_"));
      expect(r.headers.get("allow")).toBe("GET");
    }
  });

  test("visitors get 401 and editors 403 (view_site_health_checks), on REST and GraphQL", async () => {
    for (const name of [...TESTS.map((t) => `tests/${t}`), "directory-sizes"]) {
      const visitor = await s.request("GET", `${R}/${name}`);
      expect([visitor.status, visitor.body.code]).toEqual([401, "rest_forbidden"]);
      expect(visitor.headers.get("allow")).toBeNull();
      expect((await s.request("GET", `${R}/${name}`, { auth: editor.auth })).status).toBe(403);
    }
    const g = await s.graphql("{ siteHealthTest(test: HTTPS_STATUS) { label } }", {}, { auth: editor.auth });
    expect(g.errors?.[0].extensions?.code).toBe("rest_forbidden");
  });

  test("loopback-requests reaches every subgraph and the database, naming each", async () => {
    const r = await s.request("GET", `${R}/tests/loopback-requests`, { auth: "admin" });
    expect(r.body).toMatchObject({ status: "good", label: "Your site can perform loopback requests" });
    for (const part of ["content subgraph", "extensions subgraph", "gateway subgraph", "database: answered in"]) expect(r.body.description).toContain(part);
  });

  test("a subgraph that does not answer makes loopback-requests critical", async () => {
    const dead = "http://127.0.0.1:9/graphql";
    const r = await runHealthTest({
      config: s.config, prisma: s.db.prisma, identity: { site: { userId: 1, roles: ["administrator"] } },
      subgraphs: { content: s.subgraphs[0].url, gateway: dead },
    }, "loopback_requests");
    expect(r.status).toBe("critical");
    expect(r.description).toContain("gateway subgraph (http://127.0.0.1:9/graphql): <strong>not reached</strong>");
  });

  test("https-status follows the site's address", async () => {
    const r = await s.request("GET", `${R}/tests/https-status`, { auth: "admin" });
    expect(r.body).toMatchObject({ status: "recommended", label: "Your website does not use HTTPS" });
    expect(r.body.description).toContain("http://example.test");
    const secure = await runHealthTest({ config: { ...s.config, siteUrl: "https://example.test" }, prisma: s.db.prisma, identity: { site: { userId: 1, roles: ["administrator"] } } }, "https_status");
    expect(secure).toMatchObject({ status: "good", label: "Your website is using an active HTTPS connection" });
  });

  test("sql-server names the database and its time; file-uploads finds the uploads directory writable", async () => {
    const sql = await s.request("GET", `${R}/tests/sql-server`, { auth: "admin" });
    expect(sql.body).toMatchObject({ status: "good", label: "The database answers" });
    expect(sql.body.description).toMatch(/PostgreSQL [\d.]+.*answered in \d+ ms/);
    const uploads = await s.request("GET", `${R}/tests/file-uploads`, { auth: "admin" });
    expect(uploads.body).toMatchObject({ status: "good", label: "Files can be uploaded" });
    expect(fs.statSync(path.join(dataDir, "uploads")).isDirectory()).toBe(true);
  });

  test("directory-sizes counts the uploads directory and the database, and their total", async () => {
    const before = (await s.request("GET", `${R}/directory-sizes`, { auth: "admin" })).body;
    expect(Object.keys(before)).toEqual(["raw", "uploads_size", "database_size", "total_size"]);
    expect(before.raw).toBe(0);
    expect(before.database_size.raw).toBeGreaterThan(0);
    const png = crypto.randomBytes(5000);
    const up = await s.request("POST", "/wp-json/core/v2/media", { auth: "admin", raw: Buffer.concat([Buffer.from("%PDF-1.4\n"), png]), headers: { "content-type": "application/pdf", "content-disposition": 'attachment; filename="doc.pdf"' } });
    expect(up.status).toBe(201);
    const after = (await s.request("GET", `${R}/directory-sizes`, { auth: "admin" })).body;
    expect(after.uploads_size.raw - before.uploads_size.raw).toBe(5009);
    expect(after.uploads_size.raw).toBe(await directorySize(path.join(dataDir, "uploads")));
    expect(after.total_size.raw).toBe(after.uploads_size.raw + after.database_size.raw);
    expect(after.uploads_size.debug).toBe(`${after.uploads_size.size} (${after.uploads_size.raw} bytes)`);
  });

  test("sizes are formatted as WordPress's size_format(…, 2)", () => {
    expect([sizeFormat(0), sizeFormat(1023), sizeFormat(1536), sizeFormat(5 * 1024 ** 2), sizeFormat(3.25 * 1024 ** 3)]).toEqual(["0.00 B", "1,023.00 B", "1.50 KB", "5.00 MB", "3.25 GB"]);
  });

  test("GraphQL answers the same checks", async () => {
    const g = await s.graphql<{ siteHealthTest: { status: string; test: string }; siteHealthDirectorySizes: { totalSize: { raw: number } } }>(
      "{ siteHealthTest(test: AUTHORIZATION_HEADER) { status test } siteHealthDirectorySizes { totalSize { raw } } }", {}, { auth: "admin" });
    expect(g.data?.siteHealthTest).toEqual({ status: "GOOD", test: "authorization_header" });
    expect(g.data?.siteHealthDirectorySizes.totalSize.raw).toBeGreaterThan(0);
  });

  test("the index lists the namespace after core/v2, with WordPress's routes", async () => {
    const index = (await s.request("GET", "/wp-json/")).body;
    const ns: string[] = index.namespaces;
    expect(ns.indexOf("site-health/v1")).toBeGreaterThan(ns.indexOf("core/v2"));
    for (const route of ["tests/background-updates", "tests/loopback-requests", "tests/https-status", "tests/dotorg-communication", "tests/authorization-header", "directory-sizes", "tests/page-cache"]) {
      expect(index.routes[`/site-health/v1/${route}`]).toMatchObject({ namespace: "site-health/v1", methods: ["GET"], endpoints: [{ methods: ["GET"], args: [] }] });
    }
  });
});
