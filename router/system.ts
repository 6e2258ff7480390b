// The whole system in one process: database (migrated, installed), the three subgraphs on their
// own HTTP ports, and the router in front, calling them in-process. Tests start it with `memory:`
// and port 0.
import type { Config } from "../lib/config.ts";
import { openDatabase, type Database } from "../lib/db.ts";
import { applyMigrations } from "../lib/migrate.ts";
import { serveSubgraph, type RunningSubgraph, type ServableSubgraph } from "../lib/subgraph.ts";
import { contentSubgraph } from "../subgraphs/content/index.ts";
import { extensionsSubgraph } from "../subgraphs/extensions/index.ts";
import { gatewaySubgraph } from "../subgraphs/gateway/index.ts";
import { startRouter, type RouterOptions, type RunningRouter } from "./server.ts";
import { createReadCache } from "./read-cache.ts";

export const SUBGRAPHS: ServableSubgraph[] = [contentSubgraph, extensionsSubgraph, gatewaySubgraph];

export interface RunningSystem {
  url: string;
  db: Database;
  router: RunningRouter;
  subgraphs: RunningSubgraph[];
  stop(): Promise<void>;
}

/** Opens the database, applies migrations and runs every subgraph's first-start install. */
export async function prepareDatabase(config: Config): Promise<Database> {
  const db = await openDatabase(config.databaseUrl, { thread: config.databaseThread });
  await applyMigrations(db);
  for (const subgraph of SUBGRAPHS) await subgraph.install?.(db, config);
  return db;
}

export async function startSystem(config: Config, options: Pick<RouterOptions, "readCache"> = {}): Promise<RunningSystem> {
  // PGlite opens (on its own thread) while this thread builds the subgraphs' schemas and the
  // router's graph: each is about a second of a cold start. Requests wait for the database, and
  // the router listens only once it is ready. Its failure is thrown below, where it is awaited.
  const opening = prepareDatabase(config);
  opening.catch(() => undefined);
  // Mutations any router sends these subgraphs (ours, Hive Gateway, router workers) invalidate this process's read cache.
  const readCache = options.readCache ?? createReadCache({ ttlMs: config.readCacheTtlMs, coalesce: config.readCoalescing });
  const onMutation = readCache.active ? () => readCache.invalidate() : undefined;
  const subgraphs = await Promise.all(SUBGRAPHS.map((s) => serveSubgraph(s, opening, config, config.subgraphPorts[s.name], { onMutation })));
  // The router calls these subgraphs in-process; their HTTP servers stay up for other routers.
  let router: RunningRouter;
  try {
    router = await startRouter(config, SUBGRAPHS.map((s, i) => ({ name: s.name, typeDefs: s.typeDefs, url: subgraphs[i].url })), {
      readCache,
      localSubgraphs: Object.fromEntries(subgraphs.map((s) => [s.name, s.local])),
      listenAfter: opening,
    });
  } catch (error) {
    await Promise.all(subgraphs.map((s) => s.stop()));
    await opening.then((db) => db.close(), () => undefined);
    throw error;
  }
  const db = await opening;
  return {
    url: router.url, db, router, subgraphs,
    stop: async () => {
      await router.stop();
      await Promise.all(subgraphs.map((s) => s.stop()));
      await db.close();
    },
  };
}
