// Hive Gateway over the exported supergraph (`npm run supergraph`, then
// `npx hive-gateway supergraph supergraph.graphql`): the subgraphs check the caller's own
// credentials (lib/subgraph.ts), so the gateway passes them on, with the request id and, when
// SUBGRAPH_SECRET is set, the secret the subgraphs require. Kept out of tsconfig.json: the
// gateway's types augment graphql's error extensions for the whole program.
import { defineConfig } from "@graphql-hive/gateway";

const FORWARDED = ["authorization", "x-esg-auth-token", "x-switch-user", "x-request-id"];

export const gatewayConfig = defineConfig({
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({
      ...Object.fromEntries(FORWARDED.map((name) => [name, request.headers.get(name)])),
      ...(process.env.SUBGRAPH_SECRET ? { "x-subgraph-secret": process.env.SUBGRAPH_SECRET } : {}),
    }),
  },
});
