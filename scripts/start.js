// `npm start` (and start:content, …): runs a process from the build in dist/, rebuilding first
// when a source file changed since, so an edited .ts file never runs stale. The server then runs
// in this very process: npm's child receives npm's signals.
import { build, DIST, ENTRY_POINTS, isStale } from "./build.js";

const name = process.argv[2];
if (!(name in ENTRY_POINTS)) throw new Error(`usage: node scripts/start.js ${Object.keys(ENTRY_POINTS).join("|")}`);
if (isStale()) await build();
await import(`${DIST}/${name}.js`);
