// seo/v1 under malformed input, generated from its own route declarations with the shared fuzz
// generator: no 5xx, refusals in WordPress's error shape or in the documented Yoast body of that
// route, and no administrator write built to be refused gets through.
import { afterAll, beforeAll, expect, test } from "vitest";
import { seoRoutes } from "../../router/rest/site/namespaces/seo-v1/index.ts";
import { prng, siteRequests, type FuzzRequest } from "../security/fuzz-inputs.ts";
import { ADMIN_APP_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
beforeAll(async () => { s = await startTestSystem(); }, 180_000);
afterAll(async () => { await s?.stop(); });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Yoast's own refusal bodies (not WP_Error), by route. */
function yoastShape(path: string, status: number, body: unknown): boolean {
  if (/ai_generator\/(refresh_)?callback/.test(path)) return status === 401 && body === "Unauthorized.";
  if (/\/introductions\//.test(path)) return status === 400 && Array.isArray(body) && body.length === 0;
  if (!isObject(body)) return false;
  if (/(seo|readability)_scores|available_posts/.test(path)) return typeof body.error === "string" && Object.keys(body).length === 1;
  if (/file_size/.test(path)) return body.type === "failure" && typeof body.response === "string";
  if (/alerts\/dismiss|configuration\/|new-content-type-visibility/.test(path)) return body.status === status && typeof body.success === "boolean";
  if (/keyword-provider-a|rank-tracker/.test(path)) return body.status === status && typeof body.error === "string";
  if (/ai_generator|\/ai\//.test(path)) return typeof body.message === "string" || typeof body.errorMessage === "string";
  return false;
}

const wpShape = (status: number, body: unknown) =>
  isObject(body) && typeof body.code === "string" && typeof body.message === "string" && isObject(body.data) && body.data.status === status;

test("malformed seo/v1 requests: no 5xx, known refusal shapes, no refused write accepted", async () => {
  const requests: FuzzRequest[] = siteRequests(seoRoutes, prng(0x5e0), 700);
  const problems: string[] = [];
  const seen = { wp: 0, yoast: 0, ok: 0 };
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const r = requests[next++];
      const headers = { ...r.headers, ...(r.auth === "admin" ? { authorization: `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString("base64")}` } : {}) };
      const response = await fetch(s.url + r.path, { method: r.method, headers, body: r.body });
      const text = await response.text();
      let body: unknown = text;
      try { body = text ? JSON.parse(text) : null; } catch { /* reported below */ }
      const status = r.path.includes("_envelope") && isObject(body) && typeof body.status === "number" ? body.status : response.status;
      const inner = r.path.includes("_envelope") && isObject(body) && "body" in body ? body.body : body;
      const show = `${status} ${r.method} ${r.path.slice(0, 120)} [${r.auth ?? "anonymous"}] (${r.label.slice(0, 80)}) → ${text.slice(0, 160)}`;
      if (status < 400) seen.ok++;
      else if (wpShape(status, inner)) seen.wp++;
      else if (yoastShape(r.path, status, inner)) seen.yoast++;
      if (status >= 500) problems.push(`5xx: ${show}`);
      else if (status >= 400 && !wpShape(status, inner) && !yoastShape(r.path, status, inner) && !(isObject(inner) && inner.code === "rest_callback_invalid")) problems.push(`shape: ${show}`);
      if (r.auth === "admin" && r.method !== "GET" && status < 400) problems.push(`accepted: ${show}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  expect(problems).toEqual([]);
  // The run reached both kinds of refusal and some answers (the checks above were exercised).
  expect(requests.filter((r) => r.auth === "admin").length).toBeGreaterThan(50);
  expect(seen.wp).toBeGreaterThan(100);
  expect(seen.yoast).toBeGreaterThan(0);
  expect(seen.ok).toBeGreaterThan(0);
  expect((await fetch(`${s.url}/health`)).status).toBe(200);
}, 300_000);
