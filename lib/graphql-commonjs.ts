// graphql-js's CommonJS build: the copy Apollo's packages require (@apollo/subgraph, composition,
// the gateway), so their schemas are that copy's objects, and graphql-js refuses to validate or
// execute against a schema from another copy ("Cannot use GraphQLSchema from another module or
// realm"). In node an `import` of graphql resolves to this build too; a test runner that resolves
// imports itself (Vitest) may give the ES module build instead. Code that validates, executes or
// prints Apollo's schemas takes graphql from here.
import { createRequire } from "node:module";

export const graphqlCommonJs = createRequire(import.meta.url)("graphql") as typeof import("graphql");
