// `npm start`: the whole system in one process, or (with CONTENT_URL, EXTENSIONS_URL and
// GATEWAY_URL set) the router alone in front of subgraphs running elsewhere. npm runs this file
// with `node --import tsx`, so npm's child is this process itself and receives npm's signals.
import { loadConfig } from "../lib/config.ts";
import { stopOnSignals } from "../lib/shutdown.ts";
import { startSystem, SUBGRAPHS } from "./system.ts";
import { startRouter } from "./server.ts";

const started = performance.now();
const config = loadConfig();
const print = (line: string) => { if (config.logLevel !== "silent") console.log(line); };

if (config.subgraphUrls) {
  const urls = config.subgraphUrls;
  const router = await startRouter(config, SUBGRAPHS.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: urls[s.name as keyof typeof urls] })));
  print(`Router ready at ${router.url}/graphql (subgraphs: ${Object.values(urls).join(", ")})`);
  stopOnSignals(router.stop, print);
} else {
  const system = await startSystem(config);
  const ms = Math.round(performance.now() - started);
  print(`Ready in ${ms} ms.`);
  print(`  GraphQL (Apollo Sandbox): ${system.url}/graphql`);
  print(`  Site REST:                ${system.url}/${config.restRoot}/`);
  print(`  Email gateway REST:       ${system.url}/api/v2/`);
  print(`  Metrics (Prometheus):     ${system.url}/metrics`);
  for (const s of system.subgraphs) print(`  subgraph ${s.name.padEnd(10)}      ${s.url}`);
  stopOnSignals(system.stop, print);
}
