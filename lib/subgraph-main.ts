// Runs one subgraph as its own process (npm run start:content, …): the way to scale past one
// machine, with PostgreSQL underneath and the router pointed at each subgraph's URL.
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db.ts";
import { applyMigrations } from "./migrate.ts";
import { serveSubgraph, type ServableSubgraph } from "./subgraph.ts";
import { stopOnSignals } from "./shutdown.ts";

export async function runSubgraphProcess(definition: ServableSubgraph): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config.databaseUrl, { thread: config.databaseThread });
  await applyMigrations(db);
  await definition.install?.(db, config);
  const running = await serveSubgraph(definition, db, config, config.subgraphPorts[definition.name]);
  const print = (line: string) => { if (config.logLevel !== "silent") console.log(line); };
  print(`Subgraph ${definition.name} ready at ${running.url}`);
  stopOnSignals(async () => { await running.stop(); await db.close(); }, print);
}
