// `npm run build` step: writes the public API schema (the supergraph as clients see it) to
// generated/graphql/api-schema.graphql, so codegen can type the REST layer's operation documents
// against exactly the graph they run on.
import fs from "node:fs";
import { printSchema } from "graphql";
import { composeApiSchema } from "./compose.ts";
import { SUBGRAPH_SCHEMAS } from "../subgraphs/schemas.ts";

const file = process.argv[2] ?? "generated/graphql/api-schema.graphql";
fs.mkdirSync(new URL(".", `file://${process.cwd()}/${file}`), { recursive: true });
fs.writeFileSync(file, printSchema(composeApiSchema(SUBGRAPH_SCHEMAS.map((s) => ({ ...s, url: "http://unused/graphql" })))));
