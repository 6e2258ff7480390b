// One router process of `npm start`'s cluster (router/cluster.ts): the router in front of the
// primary's subgraphs, on the public port node:cluster shares. It loads no subgraph code: their
// SDL and addresses come from the primary. Its read cache tells the primary of every write seen
// here and forgets its answers when told of a write seen by another worker.
import cluster from "node:cluster";
import diagnostics from "node:diagnostics_channel";
import type { ServerResponse } from "node:http";
import { parse } from "graphql";
import type { Config } from "../lib/config.ts";
import { stopOnSignals } from "../lib/shutdown.ts";
import type { ClusterMessage } from "./cluster.ts";
import { createReadCache } from "./read-cache.ts";
import { startRouter } from "./server.ts";

/** Names the worker that answered, so an operator (and the cluster test) can tell processes apart. */
export const WORKER_HEADER = "x-router-worker";

const send = (message: ClusterMessage) => process.send!(message);

/** The primary's subgraphs, asked for once this process listens for the answer. */
function subgraphsFromPrimary(): Promise<Extract<ClusterMessage, { type: "start" }>["subgraphs"]> {
  return new Promise((resolve) => {
    const onMessage = (message: ClusterMessage) => {
      if (message.type !== "start") return;
      process.off("message", onMessage);
      resolve(message.subgraphs);
    };
    process.on("message", onMessage);
    send({ type: "awaiting-subgraphs" });
  });
}

export async function runRouterWorker(config: Config): Promise<void> {
  const id = String(cluster.worker!.id);
  // Every response of this process's HTTP server, set before Fastify sees the request.
  diagnostics.subscribe("http.server.request.start", (message) => {
    (message as { response: ServerResponse }).response.setHeader(WORKER_HEADER, id);
  });
  const readCache = createReadCache({ ttlMs: config.readCacheTtlMs, coalesce: config.readCoalescing });
  readCache.onInvalidate(() => send({ type: "read-cache-invalidate" }));
  process.on("message", (message: ClusterMessage) => { if (message.type === "read-cache-invalidate") readCache.invalidate({ remote: true }); });
  const subgraphs = await subgraphsFromPrimary();
  const router = await startRouter(config, subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl, { noLocation: true }) })), { readCache });
  // Ctrl-C signals the terminal's whole process group: the primary stops the workers in order.
  process.on("SIGINT", () => {});
  // The primary reports exits (and replaces a worker stopped by SIGTERM alone), so this one says nothing.
  const stopFor = stopOnSignals(router.stop, undefined, ["SIGTERM"]);
  process.on("message", (message: ClusterMessage) => { if (message.type === "stop") stopFor("stop"); });
}
