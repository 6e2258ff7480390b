// `npm run start:content`: this subgraph alone, on CONTENT_PORT.
import { runSubgraphProcess } from "../../lib/subgraph-main.ts";
import { contentSubgraph } from "./index.ts";

await runSubgraphProcess(contentSubgraph);
