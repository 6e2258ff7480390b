// `npm run seed`: fills the configured database (DATABASE_URL, else PGlite under DATA_DIR) with
// the demo site and gateway data. PGlite keeps one process per data directory: stop the server
// first. Safe to run again: only what is missing is added.
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../router/system.ts";
import { seedDemo } from "./seed.ts";

const config = loadConfig();
const db = await prepareDatabase(config);
try {
  const report = await seedDemo(db, config);
  const added = Object.entries(report).filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`);
  console.log(added.length ? `Seeded: ${added.join(", ")}.` : "Nothing to add: the demo data is already there.");
} finally {
  await db.close();
}
