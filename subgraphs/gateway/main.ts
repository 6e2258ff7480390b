// `npm run start:gateway`: this subgraph alone, on GATEWAY_PORT.
import { runSubgraphProcess } from "../../lib/subgraph-main.ts";
import { gatewaySubgraph } from "./index.ts";

await runSubgraphProcess(gatewaySubgraph);
