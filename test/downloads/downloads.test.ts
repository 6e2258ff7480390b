// Downloads (seed 000 §4.7): WordPress Download Manager's captcha and password checks (a local fake
// of reCAPTCHA Enterprise; scrypt-hashed passwords with usage limits and attempt limits), search,
// and view counts that stay exact under concurrent requests.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, passwordMatches } from "../../subgraphs/extensions/downloads/downloads.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let system: TestSystem;
let recaptcha: http.Server;
const assessments: { path: string; body: any }[] = [];
const ids: Record<string, number> = {};

const create = async (input: Record<string, unknown>) => {
  const r = await system.graphql<{ createDownloadPackage: { id: number } }>(
    `mutation($input: CreateDownloadPackageInput!) { createDownloadPackage(input: $input) { id } }`, { input }, { auth: "admin" });
  expect(r.errors).toBeUndefined();
  return r.data!.createDownloadPackage.id;
};
const post = (path: string, body: unknown, headers: Record<string, string> = {}) => system.request("POST", `/wp-json/downloads${path}`, { body, headers });

beforeAll(async () => {
  recaptcha = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => { text += c; });
    req.on("end", () => {
      const body = JSON.parse(text);
      assessments.push({ path: req.url ?? "", body });
      const valid = body.event?.token === "test-ok";
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ tokenProperties: { valid, action: body.event?.expectedAction } }));
    });
  });
  await new Promise<void>((resolve) => recaptcha.listen(0, "127.0.0.1", resolve));
  const port = (recaptcha.address() as AddressInfo).port;
  system = await startTestSystem({
    HTTP_ALLOWED_HOSTS: "127.0.0.1", RECAPTCHA_URL: `http://127.0.0.1:${port}/v1`, RECAPTCHA_PROJECT_ID: "proj", RECAPTCHA_API_KEY: "key", RECAPTCHA_SITE_KEY: "site",
  });
  ids.captcha = await create({ title: "Datasheet", content: "Gateway datasheet PDF", fileUrl: "https://files.test/datasheet.pdf", captchaLock: true });
  ids.locked = await create({ title: "Partner price list", content: "Prices", fileUrl: "https://files.test/prices.xlsx", passwords: [{ password: "123" }, { password: "s3cret", usageLimit: 2 }] });
  ids.open = await create({ title: "Whitepaper", content: "Email security whitepaper" });
});
afterAll(async () => {
  await system?.stop();
  await new Promise((resolve) => recaptcha?.close(resolve));
});

describe("downloads/validate-captcha", () => {
  it("hands out a download key when reCAPTCHA Enterprise says the token is valid", async () => {
    const ok = await post("/validate-captcha", { __wpdm_ID: ids.captcha, reCaptchaVerify: "test-ok" });
    expect(ok.status).toBe(200);
    expect(ok.body.downloadurl).toMatch(new RegExp(`\\?wpdmdl=${ids.captcha}&_wpdmkey=[A-Za-z0-9_-]{32}$`));
    expect(assessments.at(-1)).toMatchObject({ path: "/v1/projects/proj/assessments?key=key", body: { event: { token: "test-ok", siteKey: "site", expectedAction: "DOWNLOAD" } } });
    for (const body of [{ __wpdm_ID: ids.captcha, reCaptchaVerify: "forged" }, { __wpdm_ID: ids.captcha }, { reCaptchaVerify: "test-ok" }, { __wpdm_ID: 99999, reCaptchaVerify: "test-ok" }]) {
      const r = await post("/validate-captcha", body);
      expect([r.status, r.body]).toEqual([200, { error: "Captcha Verification Failed!" }]);
    }
  });

  it("download keys work three times within the hour", async () => {
    const ok = await post("/validate-captcha", { __wpdm_ID: ids.captcha, reCaptchaVerify: "test-ok" });
    const key = new URL(ok.body.downloadurl).searchParams.get("_wpdmkey")!;
    const redeem = () => system.graphql<{ redeemDownloadKey: { fileUrl: string; usesLeft: number } }>(
      `mutation($p: Int!, $k: String!) { redeemDownloadKey(packageId: $p, key: $k) { fileUrl usesLeft } }`, { p: ids.captcha, k: key });
    expect((await redeem()).data!.redeemDownloadKey).toEqual({ fileUrl: "https://files.test/datasheet.pdf", usesLeft: 2 });
    await redeem();
    await redeem();
    expect((await redeem()).errors?.[0].extensions?.status).toBe(403);
    expect((await system.graphql(`mutation($p: Int!) { redeemDownloadKey(packageId: $p, key: "guess") { fileUrl } }`, { p: ids.captcha })).errors).toBeDefined();
  });
});

describe("downloads/validate-password", () => {
  it("answers WPDM's refusals with HTTP 200", async () => {
    expect((await post("/validate-password", { __wpdm_ID: ids.locked })).body).toEqual({ msg: "Invalid request!", success: false });
    expect((await post("/validate-password", { __wpdm_ID: ids.open, password: "x" })).body).toEqual({ success: false, message: "Invalid request!" });
    const wrong = await post("/validate-password", { __wpdm_ID: ids.locked, password: "wrong" }, { "x-forwarded-for": "203.0.113.1" });
    expect(wrong.status).toBe(200);
    expect(wrong.body.success).toBe(false);
    expect(wrong.body.message).toContain("Wrong Password!");
  });

  it("matches hashed passwords strictly (no numeric juggling) and counts per-password usage", async () => {
    expect((await post("/validate-password", { __wpdm_ID: ids.locked, password: "1.23e2" })).body.success).toBe(false);
    const ok = await post("/validate-password", { __wpdm_ID: ids.locked, password: "123" });
    expect(ok.body).toMatchObject({ success: true });
    expect(ok.body.downloadurl).toContain(`wpdmdl=${ids.locked}`);
    expect((await post("/validate-password", { __wpdm_ID: ids.locked, password: "s3cret" })).body.success).toBe(true);
    expect((await post("/validate-password", { __wpdm_ID: ids.locked, password: "s3cret" })).body.success).toBe(true);
    expect((await post("/validate-password", { __wpdm_ID: ids.locked, password: "s3cret" })).body).toEqual({ success: false, message: "Password usages limit exceeded" });
    const stored = await system.db.prisma.downloadPassword.findMany({ where: { packageId: ids.locked } });
    expect(stored.every((p) => p.hash.startsWith("scrypt$") && !p.hash.includes("s3cret"))).toBe(true);
  });

  it("refuses a client after 10 wrong passwords for a package, before checking the right one", async () => {
    const attempts = [];
    for (let i = 0; i < 10; i++) attempts.push((await post("/validate-password", { __wpdm_ID: ids.locked, password: `guess${i}` })).status);
    expect(attempts.every((s) => s === 200)).toBe(true);
    const blocked = await post("/validate-password", { __wpdm_ID: ids.locked, password: "123" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.body.success).toBe(false);
  });

  it("lets a password with a usage limit of 2 unlock exactly twice under 6 simultaneous requests", async () => {
    const id = await create({ title: "Race", passwords: [{ password: "race", usageLimit: 2 }] });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post("/validate-password", { __wpdm_ID: id, password: "race" })));
    expect(answers.filter((a) => a.body.success === true)).toHaveLength(2);
    expect(answers.filter((a) => a.body.message === "Password usages limit exceeded")).toHaveLength(4);
  });

  it("hashes with scrypt and verifies in constant time", async () => {
    const hash = await hashPassword("pw");
    expect(await passwordMatches("pw", hash)).toBe(true);
    expect(await passwordMatches("pW", hash)).toBe(false);
    expect(await passwordMatches("pw", "md5$abc")).toBe(false);
  });
});

describe("managing packages", () => {
  it("creates packages for managers only, over GraphQL", async () => {
    const anonymous = await system.graphql(`mutation { createDownloadPackage(input: { title: "x" }) { id } }`);
    expect(anonymous.errors?.[0].extensions).toMatchObject({ code: "rest_forbidden", status: 401 });
    const locked = await system.graphql<{ downloadPackage: { passwordLock: boolean; captchaLock: boolean } }>(`query($id: Int!) { downloadPackage(id: $id) { passwordLock captchaLock } }`, { id: ids.locked });
    expect(locked.data!.downloadPackage).toEqual({ passwordLock: true, captchaLock: false });
  });
});

describe("downloads/search and view-count", () => {
  it("searches titles and descriptions as WPDM answers", async () => {
    const r = await system.request("GET", "/wp-json/downloads/search?search=SECURITY");
    expect(r.body).toEqual({ total: 1, packages: [{ ID: ids.open, post_title: "Whitepaper", post_content: "Email security whitepaper" }], q: { search: "SECURITY" } });
    const none = await system.request("GET", "/wp-json/downloads/search");
    expect([none.status, none.body]).toEqual([200, null]);
  });

  it("counts every one of 40 simultaneous views", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => post("/view-count", { id: ids.open })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.views)).size).toBe(40);
    const after = await system.graphql<{ downloadPackage: { viewCount: number } }>(`query($id: Int!) { downloadPackage(id: $id) { viewCount } }`, { id: ids.open });
    expect(after.data!.downloadPackage.viewCount).toBe(40);
    expect((await post("/view-count", { id: 99999 })).status).toBe(404);
  });
});
