// `npm start` on every core. A PGlite directory belongs to one process, so this process (the
// cluster's primary) opens the database and serves the three subgraphs on loopback ports, and
// WORKERS router processes (node:cluster shares the public port between them) call those subgraphs
// over HTTP, as a router in front of separately started subgraphs does (router/cluster-worker.ts).
// The primary also relays read-cache invalidations between workers and replaces a worker that dies.
import cluster, { type Worker } from "node:cluster";
import { print as printSdl } from "graphql";
import type { Config } from "../lib/config.ts";
import type { Database } from "../lib/db.ts";
import { serveSubgraph, type RunningSubgraph } from "../lib/subgraph.ts";
import { prepareDatabase, SUBGRAPHS } from "./system.ts";

/** What the primary and its router workers tell each other over the cluster's IPC channel. */
export type ClusterMessage =
  /** a new worker → primary: it listens for messages now (one sent earlier could be lost). */
  | { type: "awaiting-subgraphs" }
  /** primary → a new worker: the subgraphs to compose and call (SDL, so workers load no subgraph code). */
  | { type: "start"; subgraphs: { name: string; url: string; sdl: string }[] }
  /** worker → primary → every other worker: a write went through; drop cached reads. */
  | { type: "read-cache-invalidate" }
  /** primary → worker: finish requests in flight and exit. */
  | { type: "stop" };

export interface RunningCluster {
  /** The public address the workers share. */
  url: string;
  subgraphs: RunningSubgraph[];
  /** Process ids of the workers serving now. */
  workerPids(): number[];
  stop(): Promise<void>;
}

/** The address a worker listens on, as the single-process router reports its own. */
function urlOf({ address, port, addressType }: { address: string; port: number; addressType: number | string }): string {
  const host = address === "0.0.0.0" || address === "::" ? "127.0.0.1" : addressType === 6 ? `[${address}]` : address;
  return `http://${host}:${port}`;
}

/** A worker whose channel may already be closed (it is exiting): nothing to tell it then. */
function tell(worker: Worker, message: ClusterMessage): void {
  if (worker.isConnected()) worker.send(message, undefined, () => {});
}

export async function startCluster(config: Config, print: (line: string) => void): Promise<RunningCluster> {
  const serving = new Set<Worker>();
  let stopping = false;
  let served: { db: Database; subgraphs: RunningSubgraph[] } | undefined;
  // Workers load their code while this process opens the database; each gets the subgraphs once they are served.
  let announce!: (message: ClusterMessage) => void;
  const subgraphsServed = new Promise<ClusterMessage>((resolve) => { announce = resolve; });

  /** Forks one router worker; resolves with its public address once it listens. */
  const fork = () => new Promise<string>((resolve, reject) => {
    const worker = cluster.fork();
    worker.on("message", (message: ClusterMessage) => {
      if (message.type === "awaiting-subgraphs") void subgraphsServed.then((start) => tell(worker, start));
      if (message.type === "read-cache-invalidate") for (const other of serving) if (other !== worker) tell(other, message);
    });
    worker.once("listening", (address) => {
      serving.add(worker);
      resolve(urlOf(address));
    });
    worker.once("exit", (code, signal) => {
      const wasServing = serving.delete(worker);
      if (stopping) return;
      const how = signal ?? `code ${code}`;
      if (!wasServing) { reject(new Error(`Router worker ${worker.process.pid} exited (${how}) before it listened.`)); return; }
      print(`Router worker ${worker.process.pid} exited (${how}); starting another.`);
      fork().then(
        () => print(`Router workers now: ${pids().join(", ")}.`),
        // A replacement that cannot start will not start next time either: stop, for a supervisor to see.
        (error: unknown) => { console.error(error); void stop().finally(() => process.exit(1)); },
      );
    });
  });

  const pids = () => [...serving].map((w) => w.process.pid!);

  const stop = async () => {
    stopping = true;
    const exited = Object.values(cluster.workers ?? {}).map((worker) => new Promise<void>((resolve) => {
      if (!worker || worker.isDead()) { resolve(); return; }
      worker.once("exit", () => resolve());
      // A worker still starting has no request in flight.
      if (serving.has(worker)) tell(worker, { type: "stop" }); else worker.process.kill();
    }));
    await Promise.all(exited);
    if (!served) return;
    await Promise.all(served.subgraphs.map((s) => s.stop()));
    await served.db.close();
  };

  try {
    const listening = Promise.all(Array.from({ length: config.workers }, fork));
    listening.catch(() => {}); // a worker failing while the database opens is reported below, not as unhandled
    const db = await prepareDatabase(config);
    served = { db, subgraphs: await Promise.all(SUBGRAPHS.map((s) => serveSubgraph(s, db, config, config.subgraphPorts[s.name]))) };
    const { subgraphs } = served;
    announce({ type: "start", subgraphs: SUBGRAPHS.map((s, i) => ({ name: s.name, url: subgraphs[i].url, sdl: printSdl(s.typeDefs) })) });
    const [url] = await listening;
    return { url, subgraphs, workerPids: pids, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
