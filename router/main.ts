// `npm start`: the whole system, or (with CONTENT_URL, EXTENSIONS_URL and GATEWAY_URL set) the
// router alone in front of subgraphs running elsewhere. WORKERS=1 (the default) runs everything in
// this one process; with WORKERS > 1 this process owns the database and subgraphs and WORKERS router
// processes share the port (router/cluster.ts). npm runs this file's build (scripts/start.js
// imports dist/router.js in npm's child process itself, so it receives npm's signals). Each
// branch imports only what it runs: a router worker loads no subgraph code.
import cluster from "node:cluster";
import { loadConfig } from "../lib/config.ts";
import { stopOnSignals } from "../lib/shutdown.ts";

const started = performance.now();
const config = loadConfig();
const print = (line: string) => { if (config.logLevel !== "silent") console.log(line); };

function printBanner(url: string, subgraphs: { name: string; url: string }[]): void {
  print(`Ready in ${Math.round(performance.now() - started)} ms.`);
  print(`  GraphQL (Apollo Sandbox): ${url}/graphql`);
  print(`  Site REST:                ${url}/${config.restRoot}/`);
  print(`  Email gateway REST:       ${url}/api/v2/`);
  print(`  Metrics (Prometheus):     ${url}/metrics`);
  for (const s of subgraphs) print(`  subgraph ${s.name.padEnd(10)}      ${s.url}`);
}

if (cluster.isWorker) {
  const { runRouterWorker } = await import("./cluster-worker.ts");
  await runRouterWorker(config);
} else if (config.subgraphUrls) {
  const { SUBGRAPHS } = await import("./system.ts");
  const { startRouter } = await import("./server.ts");
  const urls = config.subgraphUrls;
  const router = await startRouter(config, SUBGRAPHS.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: urls[s.name as keyof typeof urls] })));
  print(`Router ready at ${router.url}/graphql (subgraphs: ${Object.values(urls).join(", ")})`);
  stopOnSignals(router.stop, print);
} else if (config.workers > 1) {
  const { startCluster } = await import("./cluster.ts");
  const system = await startCluster(config, print);
  printBanner(system.url, system.subgraphs);
  print(`  processes: database and subgraphs ${process.pid}, router workers ${system.workerPids().join(", ")} (WORKERS=${config.workers})`);
  stopOnSignals(system.stop, print);
} else {
  const { startSystem } = await import("./system.ts");
  const system = await startSystem(config);
  printBanner(system.url, system.subgraphs);
  stopOnSignals(system.stop, print);
}
