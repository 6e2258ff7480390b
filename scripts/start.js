// `npm start` (and start:content, …): runs a process from the build in dist/, rebuilding first
// when a source file changed since, so an edited .ts file never runs stale. The server then runs
// in this very process: npm's child receives npm's signals. npm's scripts run it with
// --v8-pool-size=1, one V8 helper thread, and --max-semi-space-size=4, a young generation of 8 MB
// instead of 32 (README "Starting" and "Memory"; node takes them only on its command line).
import cluster from "node:cluster";
import path from "node:path";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { build, DIST, ENTRY_POINTS, isStale } from "./build.js";
import { loadOnFirstUse } from "./load-on-first-use.js";
import { returnFreedMemory } from "./return-freed-memory.js";

// @apollo/gateway otherwise reports usage to Apollo and probes cloud metadata hosts at start: the
// server needs no internet, and says nothing about its users to anyone (set it to "" to opt in).
process.env.APOLLO_TELEMETRY_DISABLED ??= "1";

// @apollo/gateway loads OpenTelemetry's metrics SDK, its cloud resource detectors and its OTLP
// exporter at start, used only to report usage to Apollo (off here, above): ~20 MB resident and
// ~0.1 s of every start (bench/README.md "Footprint"). They load if that reporting is turned on.
loadOnFirstUse(path.join("@apollo", "gateway", "dist", "utilities", "opentelemetry.js"), [
  "@opentelemetry/sdk-metrics", "@opentelemetry/resources", "@opentelemetry/exporter-metrics-otlp-http",
  "@opentelemetry/resource-detector-alibaba-cloud", "@opentelemetry/resource-detector-aws",
  "@opentelemetry/resource-detector-gcp", "@opentelemetry/resource-detector-azure",
]);

const name = process.argv[2];
if (!(name in ENTRY_POINTS)) throw new Error(`usage: node scripts/start.js ${Object.keys(ENTRY_POINTS).join("|")}`);
// A router worker (router/cluster.ts) runs what its primary checked and built.
if (cluster.isPrimary && isStale()) await build();
await import(`${DIST}/${name}.js`);
// While collecting is cheap V8 lets the heap grow to ~4× what survived the last full collection: under
// load ~0.85–1 GB resident for 90–150 MB live. A limit of 1.5× what survived keeps the peak under
// the bench's load at 358–368 MB against 410 with 2× (uncached 100-post pages 3–12 % slower, batches
// ~5 %; bench/README.md "A smaller heap under load"). Set once started: during the start,
// where the heap only grows, it costs ~0.3 s of collections. A value given to node
// (node --heap-growing-percent=N scripts/start.js router) wins.
if (!process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) v8.setFlagsFromString("--heap-growing-percent=50");
// V8 sets the old generation's next limit at a full collection, from what survived and the growth
// factor of that moment: the start's last one used the start's factor (up to 4×), so the first load
// grew the heap to ~500 MB before the limit above took hold. One full collection now (50–90 ms; a
// request arriving meanwhile waits) sets the limit from what the started program holds
// (bench/README.md "A smaller heap under load"). V8 offers no other way to ask for one than
// `gc` in a new context once --expose-gc is set (as jest's leak detector does).
v8.setFlagsFromString("--expose-gc");
runInNewContext("gc")();
// Started: what the start compiled with is freed; give it back, and what requests free later.
returnFreedMemory();
