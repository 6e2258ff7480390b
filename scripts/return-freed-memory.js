// glibc's malloc keeps what a process frees inside its arenas, to hand it out again, and gives the OS
// back only the top of each arena: a page stays resident while any allocation sits above it. Node
// allocates through malloc what V8 compiles with (its zones: up to ~90 MB during a start of ours,
// all freed by the time it is ready) and the backing stores of Buffers and ArrayBuffers (every
// request's and answer's bytes). malloc_trim(0) gives every whole free page of every arena back, in
// ~2–3 ms: `npm start` at rest on the bench site went from 328–341 MB to 297–318 (bench/README.md
// "Freed memory given back"). It runs once after the start and a second after a full garbage
// collection (when V8 frees the backing stores of the buffers it collected), at most once a second.
// Called through koffi (a C FFI whose npm packages carry prebuilt binaries): Node has no binding
// for malloc_trim, and a native addon of our own would need a compiler at every install.
import { createRequire } from "node:module";
import { constants, PerformanceObserver } from "node:perf_hooks";

const require = createRequire(import.meta.url);

/** The C library's malloc_trim, or undefined where there is none (not Linux, musl, no koffi build). */
function loadMallocTrim() {
  if (process.platform !== "linux") return undefined;
  try {
    return require("koffi").load("libc.so.6").func("int malloc_trim(size_t pad)");
  } catch {
    return undefined;
  }
}

/**
 * Starts giving freed heap memory back to the OS: `afterMs` after the call, then `delayMs` after a
 * full garbage collection (V8 frees the collected buffers' memory on a helper thread meanwhile;
 * collections during the delay join the pending trim, so at most one trim per `delayMs`). Answers
 * whether it could (glibc only); the observer and timers never keep the process alive.
 */
export function returnFreedMemory({ afterMs = 1_000, delayMs = 1_000 } = {}) {
  const trim = loadMallocTrim();
  if (!trim) return false;
  setTimeout(() => trim(0), afterMs).unref();
  let pending = false;
  const observer = new PerformanceObserver((list) => {
    if (pending || !list.getEntries().some((entry) => entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) return;
    pending = true;
    setTimeout(() => { pending = false; trim(0); }, delayMs).unref();
  });
  observer.observe({ entryTypes: ["gc"] });
  return true;
}
