// scripts/return-freed-memory.js, which `npm start` runs in every process: memory that buffers
// freed inside malloc's heap goes back to the OS after a full garbage collection. Each case runs in
// a child process of its own, so what it measures is that process's memory alone.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../scripts/return-freed-memory.js");
const run = promisify(execFile);

/**
 * Frees ~64 MB of buffers that sit in malloc's heap below one still alive (so glibc cannot give
 * them back by shrinking the heap's top), then collects garbage; answers the resident memory given
 * back within `waitMs` (sampled every 50 ms), in MB, and whether returnFreedMemory started.
 */
async function freedAfterCollection(start: boolean, waitMs: number): Promise<{ started: boolean; returnedMb: number }> {
  const child = `
    import fs from "node:fs";
    import { returnFreedMemory } from ${JSON.stringify(script)};
    const rss = () => Number(/Rss:\\s+(\\d+)/.exec(fs.readFileSync("/proc/self/smaps_rollup", "utf8"))[1]) / 1024;
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    // Freeing one 4 MB buffer raises glibc's mmap threshold past it, so the 256 KB buffers below
    // come from the heap instead of mappings of their own (which free() would unmap at once).
    Buffer.allocUnsafeSlow(4 << 20).fill(1);
    globalThis.gc();
    let buffers = Array.from({ length: 256 }, () => Buffer.allocUnsafeSlow(256 << 10).fill(1));
    const pin = Buffer.allocUnsafeSlow(256 << 10).fill(1);
    const started = ${start} && returnFreedMemory({ afterMs: 600_000, delayMs: 100 });
    await sleep(100);
    const before = rss();
    buffers = null;
    globalThis.gc();
    let returnedMb = 0;
    for (const until = performance.now() + ${waitMs}; performance.now() < until && returnedMb < 60;) {
      await sleep(50);
      returnedMb = Math.max(returnedMb, before - rss());
    }
    console.log(JSON.stringify({ started, returnedMb, pinned: pin.length }));
    process.exit(0);
  `;
  // V8 frees collected buffers' memory on a helper thread, which a loaded machine may run late; in
  // these children it is freed by the collection itself, so the trim cannot come before it.
  const { stdout } = await run(process.execPath, ["--expose-gc", "--no-concurrent-array-buffer-sweeping", "--input-type=module", "-e", child]);
  return JSON.parse(stdout);
}

describe.runIf(process.platform === "linux")("freed memory given back (glibc's malloc_trim after a full collection)", () => {
  it("gives back what freed buffers held in malloc's heap; without it that memory stays resident", async () => {
    // Without it, nothing within a second (ten times the delay it is given); with it, within 10 s on a loaded machine.
    const [kept, returned] = [await freedAfterCollection(false, 1_000), await freedAfterCollection(true, 10_000)];
    expect(kept.started).toBe(false);
    expect(kept.returnedMb).toBeLessThan(16);
    expect(returned.started).toBe(true);
    expect(returned.returnedMb).toBeGreaterThan(48);
  });
});
