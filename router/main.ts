// `npm start`: the whole system in one process, or (with CONTENT_URL, EXTENSIONS_URL and
// GATEWAY_URL set) the router alone in front of subgraphs running elsewhere.
import { loadConfig } from "../lib/config.ts";
import { startSystem, SUBGRAPHS } from "./system.ts";
import { startRouter } from "./server.ts";

const started = performance.now();
const config = loadConfig();

if (config.subgraphUrls) {
  const urls = config.subgraphUrls;
  const router = await startRouter(config, SUBGRAPHS.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: urls[s.name as keyof typeof urls] })));
  console.log(`Router ready at ${router.url}/graphql (subgraphs: ${Object.values(urls).join(", ")})`);
  const stop = async () => { await router.stop(); process.exit(0); };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} else {
  const system = await startSystem(config);
  const ms = Math.round(performance.now() - started);
  console.log(`Ready in ${ms} ms.`);
  console.log(`  GraphQL (Apollo Sandbox): ${system.url}/graphql`);
  console.log(`  Site REST:                ${system.url}/${config.restRoot}/`);
  console.log(`  Email gateway REST:       ${system.url}/api/v2/`);
  for (const s of system.subgraphs) console.log(`  subgraph ${s.name.padEnd(10)}      ${s.url}`);
  const stop = async () => { await system.stop(); process.exit(0); };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
