// Replays the recorded answers of a real WordPress (test/fixtures/wordpress-recordings, copied from
// the design's reference so the repository tests itself) against this system: the seed requests
// first, then each case, comparing what a client sees.
import fs from "node:fs";
import path from "node:path";
import type { TestSystem } from "./system.ts";
import { ADMIN_APP_PASSWORD } from "./system.ts";

export const RECORDINGS = path.resolve(import.meta.dirname, "../fixtures/wordpress-recordings");

export interface Recording {
  case: string;
  request: { method: string; path: string; query: Record<string, unknown>; headers: Record<string, string>; body: unknown; url: string };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

export const readRecording = (file: string): Recording => JSON.parse(fs.readFileSync(path.join(RECORDINGS, file), "utf8"));

// A missing folder throws: a replay of nothing would pass.
export const recordingFiles = (dir = ""): string[] =>
  fs.readdirSync(path.join(RECORDINGS, dir)).filter((f) => f.endsWith(".json")).sort().map((f) => path.join(dir, f));

/** WordPress numbers every post type in one table and every taxonomy's terms in another. */
const idTable = (url: string): string =>
  /\/(categories|tags|menus)(\/|\?|$)/.test(url) ? "terms" : /\/users(\/|\?|$)/.test(url) ? "users" : "posts";

/** Ids that exist once the seed ran: a fresh install's (post 1, pages 2 and 3, category 1, user 1) and the seed's own. */
const seededIds: ReadonlySet<string> = new Set([
  "posts:1", "posts:2", "posts:3", "terms:1", "users:1",
  ...recordingFiles("seed").flatMap((file) => {
    const { request, response } = readRecording(file);
    const id = (response.body as { id?: unknown } | null)?.id;
    return typeof id === "number" ? [`${idTable(request.path)}:${id}`] : [];
  }),
]);

/**
 * Whether the seed alone decides how many items a recorded list holds: every item WordPress listed
 * is one the seed (or the install) made, so withheld cases added none of them.
 */
export function seedDecidesCount(recording: Recording): boolean {
  const { body } = recording.response;
  if (!Array.isArray(body)) return false;
  const table = idTable(recording.request.path);
  return body.every((item) => typeof item?.id === "number" && seededIds.has(`${table}:${item.id}`));
}

/** The recorder's site address and the test system's (SITE_URL in test/helpers/system.ts). */
export const RECORDED_SITE = "http://127.0.0.1:8088";
export const TEST_SITE = "http://example.test";

/** WordPress's names → ours: wp/v2 → core/v2, the recorder's host → ours (plain and URL-encoded). */
export function translateUrl(url: string): string {
  return url.replaceAll(RECORDED_SITE, TEST_SITE).replaceAll(encodeURIComponent(RECORDED_SITE), encodeURIComponent(TEST_SITE))
    .replaceAll("/wp/v2", "/core/v2").replace("wp-site-health/v1", "site-health/v1").replace("wp-block-editor/v1", "block-editor/v1");
}

/** Sends a recorded request as it was sent to WordPress (the admin credential placeholder becomes ours). */
export async function replay(system: TestSystem, recording: Recording) {
  const { request } = recording;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = value.replace("<admin application password>", Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString("base64"));
  }
  let raw: string | Buffer | undefined;
  const type = headers["Content-Type"] ?? headers["content-type"] ?? "";
  if (request.body !== null && request.body !== undefined) {
    if (typeof request.body === "string") raw = type.startsWith("multipart/") || type.startsWith("image/") ? Buffer.from(request.body, "base64") : request.body;
    else raw = translateUrl(JSON.stringify(request.body));
  }
  return system.request(request.method, translateUrl(request.url), { raw, headers });
}
