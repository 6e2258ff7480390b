// `npm start` (and start:content, …): runs a process from the build in dist/, rebuilding first
// when a source file changed since, so an edited .ts file never runs stale. The server then runs
// in this very process: npm's child receives npm's signals.
import cluster from "node:cluster";
import { build, DIST, ENTRY_POINTS, isStale } from "./build.js";

// @apollo/gateway otherwise reports usage to Apollo and probes cloud metadata hosts at start: the
// server needs no internet, and says nothing about its users to anyone (set it to "" to opt in).
process.env.APOLLO_TELEMETRY_DISABLED ??= "1";

const name = process.argv[2];
if (!(name in ENTRY_POINTS)) throw new Error(`usage: node scripts/start.js ${Object.keys(ENTRY_POINTS).join("|")}`);
// A router worker (router/cluster.ts) runs what its primary checked and built.
if (cluster.isPrimary && isStale()) await build();
await import(`${DIST}/${name}.js`);
