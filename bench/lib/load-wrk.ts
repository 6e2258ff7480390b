// Load with wrk (keep-alive, --latency), as the issue's figures were taken: one run prints
// requests/second, p50 and p99. Requests that are not a plain GET (a body, a rotating path,
// unique titles per request) are a small Lua script written to a temp file.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface Load {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers outside 2xx/3xx, and socket errors (connect, read, write, timeout). */
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  /** A Lua script (see the builders below); plain GET of `url` without one. */
  script?: string;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const duration = (text: string | undefined) => {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? "");
  return match ? Number(match[1]) * UNIT_MS[match[2]] : NaN;
};

/** Parses wrk's --latency report. */
export function parseWrk(output: string): Load {
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    reqPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN),
    // wrk prints 0us percentiles when no request completed: no latency, not a fast one.
    p50Ms: requests ? duration(/^\s+50%\s+(\S+)/m.exec(output)?.[1]) : NaN,
    p99Ms: requests ? duration(/^\s+99%\s+(\S+)/m.exec(output)?.[1]) : NaN,
    requests,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/** One wrk run. The timeout is long so slow answers count in p99 instead of vanishing as timeouts. */
export async function load({ url, connections, seconds, script }: LoadOptions): Promise<Load> {
  const args = ["--latency", "-t", String(Math.min(2, connections)), "-c", String(connections), "-d", `${seconds}s`, "--timeout", "60s"];
  let file: string | undefined;
  if (script) {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-wrk-")), "request.lua");
    fs.writeFileSync(file, script);
    args.push("-s", file);
  }
  try {
    const { stdout } = await run("wrk", [...args, url], { maxBuffer: 1 << 20 });
    return parseWrk(stdout);
  } finally {
    if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

const lua = (text: string) => JSON.stringify(text); // a JSON string literal is a valid Lua string literal for these texts

/** Each request asks the next of `paths` (relative to the URL's origin), in turn. */
export function rotatingGetScript(paths: string[]): string {
  return `local paths = { ${paths.map(lua).join(", ")} }
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
`;
}

/** The same POST body on every request. */
export function fixedPostScript(body: string, headers: Record<string, string>): string {
  return `wrk.method = "POST"
wrk.body = ${lua(body)}
${Object.entries(headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`).join("\n")}
`;
}

/** POSTs whose body is the next of `bodies`, each wrk thread starting at another point of the list. */
export function rotatingPostScript(bodies: string[], headers: Record<string, string>): string {
  return `wrk.method = "POST"
${Object.entries(headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`).join("\n")}
local bodies = { ${bodies.map(lua).join(", ")} }
next_thread = 0
function setup(thread)
  thread:set("start", next_thread * 7)
  next_thread = next_thread + 1
end
local i = nil
request = function()
  i = ((i or start) % #bodies) + 1
  return wrk.format(nil, nil, nil, bodies[i])
end
`;
}

/**
 * POSTs whose body is unique per request: `bodyLua` is a Lua expression over `key` (a string
 * unique across threads and runs), e.g. a title. Creates with the same title would make every
 * slug a longer hunt for a free suffix, in WordPress and here.
 */
export function uniquePostScript(bodyLua: string, headers: Record<string, string>): string {
  const runId = Math.random().toString(36).slice(2, 8);
  return `wrk.method = "POST"
${Object.entries(headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`).join("\n")}
next_thread = 1
function setup(thread)
  thread:set("tid", tostring(next_thread))
  next_thread = next_thread + 1
end
local n = 0
request = function()
  n = n + 1
  local key = ${lua(runId)} .. "-" .. tostring(tid) .. "-" .. n
  return wrk.format(nil, nil, nil, ${bodyLua})
end
`;
}
