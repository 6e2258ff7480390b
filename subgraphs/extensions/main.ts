// `npm run start:extensions`: this subgraph alone, on EXTENSIONS_PORT.
import { runSubgraphProcess } from "../../lib/subgraph-main.ts";
import { extensionsSubgraph } from "./index.ts";

await runSubgraphProcess(extensionsSubgraph);
