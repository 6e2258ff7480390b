// The system as a user runs it: `npm start` as a child process (whatever package.json's start
// script is at run time: tsx sources or a build), in its own process group so stopping it reaches
// every process npm started. Also what a process tree costs: RSS summed over it from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "./ports.ts";
import { processTree } from "./process-tree.ts";

export const root = path.resolve(import.meta.dirname, "../..");
// None of the caller's database or subgraph settings leak into the bench's processes.
const { DATABASE_URL: _d, CONTENT_URL: _c, EXTENSIONS_URL: _e, GATEWAY_URL: _g, DATA_DIR: _dd, PORT: _p, ...inherited } = process.env;

const children = new Set<ChildProcess>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function killAll(): void {
  for (const child of children) if (child.pid && !exited(child)) { try { process.kill(-child.pid, "SIGKILL"); } catch { /* gone */ } }
}
process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

export { freePort, processTree };

/** A child in its own process group, its output kept for error messages. */
export function spawnGroup(command: string, args: string[], env: Record<string, string | undefined>): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...inherited, ...env } });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let output = "";
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000); };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { child, output: () => output };
}

/** Polls `url` until it answers 200; rejects if the process exits first or after `timeoutMs`. */
export async function waitFor200(url: string, child: ChildProcess, output: () => string, timeoutMs = 180_000): Promise<void> {
  const began = performance.now();
  for (;;) {
    if (exited(child)) throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} answered:\n${output()}`);
    if (performance.now() - began > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${output()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch { /* not listening yet */ }
    await sleep(25);
  }
}

/** SIGTERM to the group (as Ctrl-C would), SIGKILL if it is still there after 15 s. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (exited(child) || !child.pid) return;
  const done = new Promise((resolve) => child.once("exit", resolve));
  try { process.kill(-child.pid, "SIGTERM"); } catch { return; }
  const timer = setTimeout(() => { try { process.kill(-child.pid!, "SIGKILL"); } catch { /* gone */ } }, 15_000);
  await done;
  clearTimeout(timer);
}

export interface Stack {
  url: string;
  /** The content subgraph's own /graphql (a fixed loopback port the bench chose). */
  subgraphUrls: { content: string; extensions: string; gateway: string };
  child: ChildProcess;
  /** Milliseconds from spawn to /ready answering 200. */
  readyMs: number;
  stop(): Promise<void>;
}

/** `npm start` on `dataDir` with LOG_LEVEL=silent, on free loopback ports; resolves once /ready answers 200. */
export async function startStack(dataDir: string, env: Record<string, string | undefined> = {}): Promise<Stack> {
  const [port, content, extensions, gateway] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const began = performance.now();
  const { child, output } = spawnGroup("npm", ["start", "--silent"], {
    LOG_LEVEL: "silent", DATA_DIR: dataDir, PORT: String(port),
    CONTENT_PORT: String(content), EXTENSIONS_PORT: String(extensions), GATEWAY_PORT: String(gateway), ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}/ready`, child, output);
  const readyMs = performance.now() - began;
  const sub = (p: number) => `http://127.0.0.1:${p}/graphql`;
  return { url, subgraphUrls: { content: sub(content), extensions: sub(extensions), gateway: sub(gateway) }, child, readyMs, stop: () => stopGroup(child) };
}

function rssKb(pid: number): { kb: number; command: string } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return { kb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0), command: /Name:\s+(\S+)/.exec(status)?.[1] ?? "?" };
  } catch { return { kb: 0, command: "?" }; }
}

export interface TreeRss { totalMb: number; serverMb: number; launcherMb: number; processes: number }

/**
 * RSS summed over the process tree of `npm start`: `serverMb` is every process below npm (the
 * system itself), `launcherMb` npm's own process (a user running `npm start` pays it too).
 * Shared pages count once per process, as `ps` shows them.
 */
export function treeRss(child: ChildProcess): TreeRss {
  const tree = processTree(child.pid!);
  const [launcher, ...server] = tree.map(rssKb);
  const serverKb = server.reduce((sum, p) => sum + p.kb, 0);
  return { totalMb: (serverKb + launcher.kb) / 1024, serverMb: serverKb / 1024, launcherMb: launcher.kb / 1024, processes: server.length };
}

/** Samples the tree's RSS every `everyMs` until `stop` is called; returns the highest server figure. */
export function sampleRss(child: ChildProcess, everyMs = 500): { stop(): TreeRss } {
  let peak = treeRss(child);
  const timer = setInterval(() => {
    const now = treeRss(child);
    if (now.serverMb > peak.serverMb) peak = now;
  }, everyMs);
  return { stop: () => { clearInterval(timer); return peak; } };
}
