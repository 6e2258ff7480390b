// SEO asks the content subgraph as the caller through the extensions subgraph's shared peer client.
export { askSubgraphAs } from "../peer.ts";
