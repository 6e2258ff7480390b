// The layering rules (issue 6), checked by `npm run lint:layers` in CI. Type-only imports count:
// a layer that names another layer's types is coupled to it all the same.
const SUBGRAPH = "^subgraphs/(content|extensions|gateway)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "subgraph-not-to-router",
      comment: "A subgraph is deployed on its own: it never imports the router.",
      severity: "error",
      from: { path: SUBGRAPH },
      to: { path: "^router/" },
    },
    {
      name: "subgraph-not-to-other-subgraph",
      comment:
        "A subgraph owns its folder and its generated resolver types; what two subgraphs share belongs in lib/ " +
        "(subgraphs/schemas.ts and generated/graphql/operations.ts are router-side).",
      severity: "error",
      from: { path: SUBGRAPH },
      to: { path: "^(subgraphs|generated/graphql)/", pathNot: ["^subgraphs/$1/", "^generated/graphql/$1-resolvers\\.ts$"] },
    },
    {
      name: "subgraph-schemas-only-lib",
      comment: "subgraphs/schemas.ts is imported by the router, so it may lean on lib/ only (it reads the SDL files, not the code).",
      severity: "error",
      from: { path: "^subgraphs/schemas\\.ts$" },
      to: { path: "^(router|subgraphs|generated|prisma|test|bench)/" },
    },
    {
      name: "rest-not-to-database",
      comment: "router/rest speaks GraphQL to the subgraphs: it never reaches Prisma, a database driver or the database module, even through a helper.",
      severity: "error",
      from: { path: "^router/rest/" },
      to: {
        reachable: true,
        path: [
          "(^|/)node_modules/(@prisma/|prisma/|pg/|@electric-sql/pglite/|pglite-prisma-adapter/)",
          "(^|/)generated/prisma/",
          "^lib/(db|migrate|pglite-adapter)\\.ts$",
        ],
      },
    },
    {
      name: "lib-not-to-router-or-subgraphs",
      comment: "lib/ is shared by every process: it imports neither the router nor a subgraph.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(router|subgraphs)/" },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
