// Cookie consent (seed 000 §4.7): the scanner's results pushed to consent/v1/fetch_results with the
// running scan's token, and uninstall feedback (consent-feedback/v1) stored and posted to a local
// fake of the feedback service.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedbackDate } from "../../subgraphs/extensions/consent/consent.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword, type SignedInUser } from "../helpers/users.ts";

let system: TestSystem;
let feedbackService: http.Server;
const received: { path: string; body: Record<string, unknown> }[] = [];
let editor: SignedInUser;

const results = (categories: unknown) => JSON.stringify(categories);
const push = (body: unknown) => system.request("POST", "/wp-json/consent/v1/fetch_results", { body });
const startScan = async () => {
  const r = await system.graphql<{ startConsentScan: { token: string } }>(`mutation { startConsentScan { token } }`, {}, { auth: "admin" });
  expect(r.errors).toBeUndefined();
  return r.data!.startConsentScan.token;
};

beforeAll(async () => {
  feedbackService = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => { text += c; });
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(201, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => feedbackService.listen(0, "127.0.0.1", resolve));
  const port = (feedbackService.address() as AddressInfo).port;
  system = await startTestSystem({ HTTP_ALLOWED_HOSTS: "127.0.0.1", CONSENT_FEEDBACK_URL: `http://127.0.0.1:${port}/api/v1/feedbacks` });
  editor = await createUserWithPassword(system, "consented", ["editor"]);
});
afterAll(async () => {
  await system?.stop();
  await new Promise((resolve) => feedbackService?.close(resolve));
});

describe("consent/v1/fetch_results", () => {
  it("refuses results without the running scan's token, and empty pushes", async () => {
    expect((await push({ scan_result_token: "nothing-running", scan_result: results([]) })).body).toEqual({ success: false, data: "Token mismatch" });
    const token = await startScan();
    const forged = await push({ scan_result_token: token.replace(/.$/, (c) => (c === "a" ? "b" : "a")), scan_result: results([{ category: "Analytics", cookies: [{ cookie_id: "_evil" }] }]) });
    expect([forged.status, forged.body]).toEqual([200, { success: false, data: "Token mismatch" }]);
    expect((await push({})).body).toEqual({ success: false, data: "Failed to insert" });
    const categories = await system.graphql<{ consentCookieCategories: unknown[] }>(`{ consentCookieCategories { name } }`);
    expect(categories.data!.consentCookieCategories).toEqual([]);
  });

  it("stores categories and cookies once (first by name wins) and finishes the scan", async () => {
    const token = await startScan();
    const first = await push({
      scan_result_token: token,
      scan_result: results([
        { category: "Analytics", category_desc: "Measure visits", cookies: [
          { cookie_id: "_ga", description: "Google Analytics", duration: "2 years", type: "http", frist_found_url: "https://site.test/" },
          { cookie_id: "_ga", description: "second one loses", duration: "1 day" },
        ] },
        { category: "Necessary", cookies: [{ cookie_id: "session", duration: "session" }] },
      ]),
    });
    expect(first.body).toEqual({ success: true, data: "Successfully inserted" });
    // The token is used up: the same push again is refused.
    expect((await push({ scan_result_token: token, scan_result: results([{ category: "Ads", cookies: [] }]) })).body.data).toBe("Token mismatch");

    const next = await startScan();
    await push({ scan_result_token: next, scan_result: results([{ category: "Analytics", category_desc: "changed", cookies: [{ cookie_id: "_ga", description: "changed" }, { cookie_id: "_gid" }] }]) });
    const r = await system.graphql<{ consentCookieCategories: { name: string; description: string; cookies: { name: string; description: string; duration: string; firstFoundUrl: string }[] }[] }>(
      `{ consentCookieCategories { name description cookies { name description duration firstFoundUrl } } }`);
    const analytics = r.data!.consentCookieCategories.find((c) => c.name === "Analytics")!;
    expect(analytics.description).toBe("Measure visits");
    expect(analytics.cookies.map((c) => c.name)).toEqual(["_ga", "_gid"]);
    expect(analytics.cookies[0]).toMatchObject({ description: "Google Analytics", duration: "2 years", firstFoundUrl: "https://site.test/" });
    expect(r.data!.consentCookieCategories.map((c) => c.name)).toEqual(["Analytics", "Necessary"]);
    const scan = await system.graphql<{ consentLatestScan: { status: number; token: string | null } }>(`{ consentLatestScan { status token } }`, {}, { auth: "admin" });
    expect(scan.data!.consentLatestScan).toEqual({ status: 2, token: null });
  });

  it("takes one of two simultaneous pushes of a token", async () => {
    const token = await startScan();
    const answers = await Promise.all([1, 2].map((n) => push({ scan_result_token: token, scan_result: results([{ category: `Race ${n}`, cookies: [] }]) })));
    expect(answers.filter((a) => a.body.success).length).toBe(1);
    const r = await system.graphql<{ consentCookieCategories: { name: string }[] }>(`{ consentCookieCategories { name } }`);
    expect(r.data!.consentCookieCategories.filter((c) => c.name.startsWith("Race"))).toHaveLength(1);
  });
});

describe("consent-feedback/v1/uninstall-feedback", () => {
  it("needs manage_options, with CookieYes' code", async () => {
    const anonymous = await system.request("POST", "/wp-json/consent-feedback/v1/uninstall-feedback", { body: { reason_id: "other" } });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "cookieyes_rest_cannot_create"]);
    const asEditor = await system.request("POST", "/wp-json/consent-feedback/v1/uninstall-feedback", { body: { reason_id: "other" }, auth: editor.auth });
    expect([asEditor.status, asEditor.body.code]).toEqual([403, "cookieyes_rest_cannot_create"]);
  });

  it("refuses a missing or unknown reason, stores and posts the feedback", async () => {
    for (const body of [{}, { reason_id: "because" }]) {
      const r = await system.request("POST", "/wp-json/consent-feedback/v1/uninstall-feedback", { body, auth: "admin" });
      expect([r.status, r.body]).toEqual([200, { success: false }]);
    }
    const r = await system.request("POST", "/wp-json/consent-feedback/v1/uninstall-feedback", {
      body: { reason_id: "found-better-plugin", reason_text: "Another one", reason_info: "details" }, auth: "admin",
    });
    expect([r.status, r.body]).toEqual([200, { success: true }]);
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0].path).toBe("/api/v1/feedbacks");
    expect(received[0].body).toMatchObject({ reason_slug: "found-better-plugin", reason_detail: "Another one", comments: "details", plugin_version: "3.5.3" });
    await expect.poll(async () => (await system.db.prisma.consentFeedback.findFirstOrThrow({ where: { reasonId: "found-better-plugin" } })).delivered, { timeout: 5000 }).toBe(true);
  });

  it("dates feedback as CookieYes does (M d, Y h:i:s A, GMT)", () => {
    expect(feedbackDate(new Date("2024-01-05T10:41:00Z"))).toBe("Jan 05, 2024 10:41:00 AM");
    expect(feedbackDate(new Date("2024-07-15T00:05:09Z"))).toBe("Jul 15, 2024 12:05:09 AM");
    expect(feedbackDate(new Date("2024-07-15T13:05:09Z"))).toBe("Jul 15, 2024 01:05:09 PM");
  });
});
