// Runs one subgraph as its own process (npm run start:content, …): the way to scale past one
// machine, with PostgreSQL underneath and the router pointed at each subgraph's URL.
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db.ts";
import { applyMigrations } from "./migrate.ts";
import { serveSubgraph, type ServableSubgraph } from "./subgraph.ts";

export async function runSubgraphProcess(definition: ServableSubgraph): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config.databaseUrl);
  await applyMigrations(db);
  await definition.install?.(db, config);
  const running = await serveSubgraph(definition, db, config, config.subgraphPorts[definition.name]);
  console.log(`Subgraph ${definition.name} ready at ${running.url}`);
  const stop = async () => { await running.stop(); await db.close(); process.exit(0); };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
