// scripts/return-freed-memory.js, which `npm start` runs in every process: memory that buffers
// freed inside malloc's heap goes back to the OS after a full garbage collection. Each case runs in
// a child process of its own (node --expose-gc), so what it measures is that process's memory alone.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../scripts/return-freed-memory.js");
const run = promisify(execFile);

/**
 * Frees ~64 MB of buffers that sit in malloc's heap below one still alive (so glibc cannot give
 * them back by shrinking the heap's top), then collects garbage; answers the resident memory freed
 * by then, in MB, and whether returnFreedMemory started.
 */
async function freedAfterCollection(start: boolean): Promise<{ started: boolean; returnedMb: number }> {
  const child = `
    import fs from "node:fs";
    import { returnFreedMemory } from ${JSON.stringify(script)};
    const rss = () => Number(/Rss:\\s+(\\d+)/.exec(fs.readFileSync("/proc/self/smaps_rollup", "utf8"))[1]) / 1024;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
    // Freeing one 4 MB buffer raises glibc's mmap threshold past it, so the 256 KB buffers below
    // come from the heap instead of mappings of their own (which free() would unmap at once).
    Buffer.allocUnsafeSlow(4 << 20).fill(1);
    globalThis.gc();
    let buffers = Array.from({ length: 256 }, () => Buffer.allocUnsafeSlow(256 << 10).fill(1));
    const pin = Buffer.allocUnsafeSlow(256 << 10).fill(1);
    const started = ${start} && returnFreedMemory({ afterMs: 60_000 });
    await settle();
    const before = rss();
    buffers = null;
    globalThis.gc();
    await settle();
    console.log(JSON.stringify({ started, returnedMb: before - rss(), pinned: pin.length }));
    process.exit(0);
  `;
  const { stdout } = await run(process.execPath, ["--expose-gc", "--input-type=module", "-e", child]);
  return JSON.parse(stdout);
}

describe.runIf(process.platform === "linux")("freed memory given back (glibc's malloc_trim after a full collection)", () => {
  it("gives back what freed buffers held in malloc's heap; without it that memory stays resident", async () => {
    const [kept, returned] = [await freedAfterCollection(false), await freedAfterCollection(true)];
    expect(kept.started).toBe(false);
    expect(kept.returnedMb).toBeLessThan(16);
    expect(returned.started).toBe(true);
    expect(returned.returnedMb).toBeGreaterThan(48);
  });
});
