// `npm run supergraph [file]`: composes the supergraph SDL (with the subgraph URLs from
// CONTENT_URL/EXTENSIONS_URL/GATEWAY_URL, or the default local ports) and writes it to a file,
// so Apollo Router or Hive Gateway can serve the same graph.
import fs from "node:fs";
import { composeSupergraph } from "./compose.ts";
import { contentSubgraph } from "../subgraphs/content/index.ts";
import { extensionsSubgraph } from "../subgraphs/extensions/index.ts";
import { gatewaySubgraph } from "../subgraphs/gateway/index.ts";

const env = process.env;
const file = process.argv[2] ?? "supergraph.graphql";
const sdl = composeSupergraph([
  { name: "content", typeDefs: contentSubgraph.typeDefs, url: env.CONTENT_URL ?? `http://127.0.0.1:${env.CONTENT_PORT ?? 4001}/graphql` },
  { name: "extensions", typeDefs: extensionsSubgraph.typeDefs, url: env.EXTENSIONS_URL ?? `http://127.0.0.1:${env.EXTENSIONS_PORT ?? 4002}/graphql` },
  { name: "gateway", typeDefs: gatewaySubgraph.typeDefs, url: env.GATEWAY_URL ?? `http://127.0.0.1:${env.GATEWAY_PORT ?? 4003}/graphql` },
]);
fs.writeFileSync(file, sdl);
console.log(`Supergraph SDL written to ${file}`);
