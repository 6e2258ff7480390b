// What `npm start` holds before anyone needs it: sharp's image library (libvips, ~20 MB resident)
// loads with the first image, not at start (subgraphs/content/media/images.ts).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "footprint-test-"));
const password = "footprint test password one two three";
let npm: ChildProcess | undefined;
let server: number | undefined;

afterAll(async () => {
  // SIGTERM to npm reaches the server, which closes its ports and exits (test/operations/shutdown.test.ts).
  if (npm?.exitCode === null) {
    const exited = new Promise((resolve) => npm!.once("exit", () => resolve(true)));
    npm.kill("SIGTERM");
    const stopped = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000, false).unref())]);
    if (!stopped) for (const pid of [npm.pid, server]) try { if (pid) process.kill(pid, "SIGKILL"); } catch { /* already gone */ }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** The process npm started (`exec node …`: npm's one child). */
function childOf(pid: number): number {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …; comm may hold spaces, so read after its closing parenthesis.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) return Number(entry);
    } catch { /* gone meanwhile */ }
  }
  throw new Error(`no child of ${pid}`);
}

const mapsLibvips = (pid: number) => fs.readFileSync(`/proc/${pid}/maps`, "utf8").includes("libvips");

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const { DATABASE_URL, CONTENT_URL, EXTENSIONS_URL, GATEWAY_URL, ...inherited } = process.env;

it.runIf(process.platform === "linux")("npm start maps no libvips until the first image is uploaded", async () => {
  npm = spawn("npm", ["start"], {
    cwd: root,
    env: { ...inherited, DATA_DIR: dataDir, PORT: "0", CONTENT_PORT: "0", EXTENSIONS_PORT: "0", GATEWAY_PORT: "0", LOG_LEVEL: "warn", ADMIN_APP_PASSWORD: password },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const banner = await new Promise<string>((resolve, reject) => {
    let output = "";
    npm!.stdout!.on("data", (chunk: Buffer) => { output += chunk.toString(); if (/subgraph gateway\s+\S+/.test(output)) resolve(output); });
    npm!.once("exit", (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
  });
  const router = banner.match(/http:\/\/127\.0\.0\.1:\d+/)![0];
  server = childOf(npm.pid!);
  expect((await fetch(`${router}/ready`)).status).toBe(200);
  expect(mapsLibvips(server)).toBe(false);

  const upload = await fetch(`${router}/wp-json/core/v2/media`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`,
      "content-type": "image/png", "content-disposition": 'attachment; filename="dot.png"',
    },
    body: PNG,
  });
  expect(upload.status, await upload.clone().text()).toBe(201);
  expect(((await upload.json()) as { media_details: { width: number } }).media_details.width).toBe(1);
  expect(mapsLibvips(server)).toBe(true);
}, 120_000);
