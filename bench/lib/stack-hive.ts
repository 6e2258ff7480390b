// Hive Gateway (The Guild's federation router, a devDependency) in front of the same subgraph
// processes as our router: the supergraph is the one `npm run supergraph` exports, pointed at the
// running stack's subgraph ports, and the gateway reads the repository's gateway.config.ts (which
// forwards the caller's credentials, as test/operations/hive-gateway.test.ts checks).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, root, spawnGroup, stopGroup, type Stack } from "./stack-process.ts";

const run = promisify(execFile);

export interface Hive { url: string; stop(): Promise<void> }

export async function startHive(stack: Stack): Promise<Hive> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hive-"));
  const file = path.join(dir, "supergraph.graphql");
  const { content, extensions, gateway } = stack.subgraphUrls;
  await run("npm", ["run", "--silent", "supergraph", "--", file], {
    cwd: root, env: { ...process.env, CONTENT_URL: content, EXTENSIONS_URL: extensions, GATEWAY_URL: gateway },
  });
  const port = await freePort();
  const bin = path.join(root, "node_modules/.bin/hive-gateway");
  const { child, output } = spawnGroup(bin, ["supergraph", file, "--port", String(port), "--host", "127.0.0.1"], { NODE_ENV: "production" });
  const url = `http://127.0.0.1:${port}/graphql`;
  const began = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hive-gateway exited (${child.exitCode}):\n${output()}`);
    if (performance.now() - began > 60_000) throw new Error(`hive-gateway did not answer within 60 s:\n${output()}`);
    try {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{__typename}"}' });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, stop: async () => { await stopGroup(child); fs.rmSync(dir, { recursive: true, force: true }); } };
}
