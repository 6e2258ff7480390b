// `npm start` as a user meets it, one start for the file: it holds no image library until an image
// arrives, and, as `docker stop` meets it, SIGTERM to the npm process reaches the server, which
// finishes the request in flight, closes every port and exits 0 (last, since it stops the server).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { processTree } from "../../bench/lib/process-tree.ts";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "npm-start-test-"));
const password = "npm start test password one two three";
let npm: ChildProcess;
let exited: Promise<number | null>;
/** The router's URL and the subgraphs', from the startup banner. */
let urls: string[];
let router: string;

/** Resolves with what the process printed once `pattern` has appeared in it. */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) { child.stdout?.off("data", onData); resolve(output); }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
  });
}

/** A POST whose headers the server has (it answered `100 Continue`) but whose body is still to come. */
function requestInFlight(url: URL, body: string): Promise<{ send(): void; response: Promise<{ status: number; body: string }> }> {
  return new Promise((ready, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), expect: "100-continue" },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, fail) => {
      request.on("response", (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => { text += chunk.toString(); });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      request.on("error", fail);
    });
    request.once("error", reject);
    request.on("continue", () => ready({ send: () => request.end(body), response }));
  });
}

// The whole system on its own embedded database, whatever this run's database and subgraphs are.
const { DATABASE_URL, CONTENT_URL, EXTENSIONS_URL, GATEWAY_URL, ...inherited } = process.env;
const refused = (url: string) => fetch(url).then(() => false, () => true);

beforeAll(async () => {
  npm = spawn("npm", ["start"], {
    cwd: root,
    env: { ...inherited, DATA_DIR: dataDir, PORT: "0", CONTENT_PORT: "0", EXTENSIONS_PORT: "0", GATEWAY_PORT: "0", LOG_LEVEL: "warn", ADMIN_APP_PASSWORD: password },
    stdio: ["ignore", "pipe", "inherit"],
  });
  exited = new Promise((resolve) => npm.once("exit", (code) => resolve(code)));
  const banner = await waitForOutput(npm, /subgraph gateway\s+\S+/);
  urls = [...banner.matchAll(/http:\/\/127\.0\.0\.1:\d+/g)].map((m) => m[0]);
  router = urls[0];
}, 120_000);

afterAll(() => {
  if (npm?.exitCode === null && npm.pid) process.kill(npm.pid, "SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it.runIf(process.platform === "linux")("maps no libvips (sharp's image library) until the first image is uploaded", async () => {
  // The process npm started (`exec node …`: npm's one child).
  const [, server] = processTree(npm.pid!);
  const mapsLibvips = () => fs.readFileSync(`/proc/${server}/maps`, "utf8").includes("libvips");
  expect((await fetch(`${router}/ready`)).status).toBe(200);
  expect(mapsLibvips()).toBe(false);

  // A 1×1 PNG.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
  const upload = await fetch(`${router}/wp-json/core/v2/media`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`,
      "content-type": "image/png", "content-disposition": 'attachment; filename="dot.png"',
    },
    body: png,
  });
  expect(upload.status, await upload.clone().text()).toBe(201);
  expect(((await upload.json()) as { media_details: { width: number } }).media_details.width).toBe(1);
  expect(mapsLibvips()).toBe(true);
});

it("stops on SIGTERM to npm: the request in flight completes, every port closes, exit code 0", async () => {
  expect((await fetch(`${router}/ready`)).status).toBe(200);

  const inFlight = await requestInFlight(new URL(`${router}/graphql`), JSON.stringify({ query: "{ posts { totalCount } }" }));
  npm.kill("SIGTERM");
  inFlight.send();
  const answer = await inFlight.response;
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toEqual({ data: { posts: { totalCount: 1 } } });

  // A generous bound, so a process that ignores the signal fails here rather than at the test's timeout.
  expect(await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000, "still running").unref())])).toBe(0);
  for (const url of new Set(urls)) expect(await refused(`${url}/health`)).toBe(true);
}, 120_000);
