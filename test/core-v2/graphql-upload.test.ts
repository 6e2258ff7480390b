// Uploads through POST /graphql in the GraphQL multipart request convention (operations, map,
// file parts): the router hands the media mutation the same base64 file input a JSON client sends.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_APP_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
let dataDir: string;
let png: Buffer;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "graphql-upload-test-"));
  s = await startTestSystem({ DATA_DIR: dataDir });
  png = await sharp({ create: { width: 12, height: 8, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
});
afterAll(async () => {
  await s?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ADMIN = `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString("base64")}`;
const CREATE = `mutation($file: MediaFileInput!) { createMediaItem(file: $file, input: { altText: "multipart" }) { id sourceUrl mimeType altText title { rendered } mediaDetails { width height } } }`;

interface Result { status: number; body: { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] } }

/** Sends a multipart /graphql request; `parts` are appended in order (the spec's field order). */
async function multipart(parts: [string, string | Blob, string?][], headers: Record<string, string> = {}): Promise<Result> {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value, filename);
  }
  const response = await fetch(`${s.url}/graphql`, { method: "POST", headers, body: form });
  return { status: response.status, body: await response.json() as Result["body"] };
}

const upload = (headers: Record<string, string>, map = JSON.stringify({ 0: ["variables.file"] })) => multipart([
  ["operations", JSON.stringify({ query: CREATE, variables: { file: null } })],
  ["map", map],
  ["0", new Blob([new Uint8Array(png)], { type: "image/png" }), "Multipart Pixel.png"],
], headers);

describe("GraphQL multipart uploads", () => {
  test("an administrator uploads a PNG and its source_url serves the same bytes", async () => {
    const r = await upload({ authorization: ADMIN, "apollo-require-preflight": "true" });
    expect(r.body.errors).toBeUndefined();
    expect(r.status).toBe(200);
    const item = r.body.data!.createMediaItem;
    expect(item).toMatchObject({ mimeType: "image/png", altText: "multipart", title: { rendered: "Multipart Pixel" }, mediaDetails: { width: 12, height: 8 } });
    const served = await fetch(new URL(new URL(item.sourceUrl).pathname, s.url));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  test("an anonymous upload is refused and creates nothing", async () => {
    const count = async () => (await s.graphql<{ mediaItems: { totalCount: number } }>("{ mediaItems { totalCount } }", {}, { auth: "admin" })).data!.mediaItems.totalCount;
    const before = await count();
    const r = await upload({ "x-apollo-operation-name": "upload" });
    expect(r.body.data?.createMediaItem ?? null).toBeNull();
    expect(r.body.errors?.[0].extensions?.code).toMatch(/FORBIDDEN|UNAUTHENTICATED|rest_cannot_create/i);
    expect(await count()).toBe(before);
  });

  test("a multipart request without a CSRF preflight header is refused", async () => {
    const r = await upload({ authorization: ADMIN });
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].message).toMatch(/Cross-Site Request Forgery/);
    expect(r.body.data).toBeUndefined();
  });

  test("spec errors answer 400 in GraphQL's error shape", async () => {
    const headers = { authorization: ADMIN, "apollo-require-preflight": "true" };
    const badMap = await upload(headers, "{not json");
    expect(badMap.status).toBe(400);
    expect(badMap.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/'map'/), extensions: { code: "BAD_REQUEST" } });

    const wrongPath = await upload(headers, JSON.stringify({ 0: ["variables.nothing.here"] }));
    expect(wrongPath.status).toBe(400);
    expect(wrongPath.body.errors?.[0].message).toMatch(/variables\.nothing\.here/);

    const missingFile = await multipart([
      ["operations", JSON.stringify({ query: CREATE, variables: { file: null } })],
      ["map", JSON.stringify({ 0: ["variables.file"] })],
    ], headers);
    expect(missingFile.status).toBe(400);
    expect(missingFile.body.errors?.[0].message).toMatch(/file part '0'.*missing/);
  });
});
