// GraphiQL at /graphiql: an explorer that works offline. Apollo Sandbox (/graphql) loads from
// Apollo's CDN; this page loads only prebuilt bundles that the npm packages ship (GraphiQL's UMD
// build and React 18's, the last React with UMD builds), served from node_modules.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";

export const GRAPHIQL_PATH = "/graphiql";

const require = createRequire(import.meta.url);
/** A file inside an installed package (their `exports` hide the prebuilt bundles from resolve). */
const packaged = (pkg: string, file: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

/** The only files served under /graphiql/: a fixed list, so no request names a path of its own. */
const ASSETS: Record<string, { file: string; type: string }> = {
  "react.production.min.js": { file: packaged("react", "umd/react.production.min.js"), type: "text/javascript" },
  "react-dom.production.min.js": { file: packaged("react-dom", "umd/react-dom.production.min.js"), type: "text/javascript" },
  "graphiql.min.js": { file: packaged("graphiql", "graphiql.min.js"), type: "text/javascript" },
  "graphiql.min.css": { file: packaged("graphiql", "graphiql.min.css"), type: "text/css" },
};

const DEFAULT_QUERY = `# Ctrl-Enter runs the query; the Docs panel lists every type and field.
{
  site {
    name
  }
}
`;

// createFetcher POSTs JSON (`content-type: application/json`), which Apollo's CSRF prevention accepts.
const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width,initial-scale=1" />
    <title>GraphiQL</title>
    <link rel="stylesheet" href="${GRAPHIQL_PATH}/graphiql.min.css" />
    <style>body { margin: 0; } #graphiql { height: 100vh; }</style>
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL…</div>
    <script src="${GRAPHIQL_PATH}/react.production.min.js"></script>
    <script src="${GRAPHIQL_PATH}/react-dom.production.min.js"></script>
    <script src="${GRAPHIQL_PATH}/graphiql.min.js"></script>
    <script>
      const fetcher = GraphiQL.createFetcher({ url: new URL("/graphql", location.href).href });
      ReactDOM.createRoot(document.getElementById("graphiql")).render(
        React.createElement(GraphiQL, { fetcher, defaultQuery: ${JSON.stringify(DEFAULT_QUERY)} }),
      );
    </script>
  </body>
</html>
`;

export function registerGraphiql(app: FastifyInstance): void {
  app.get(GRAPHIQL_PATH, async (_request, reply) => reply.type("text/html; charset=utf-8").send(PAGE));
  app.get<{ Params: { asset: string } }>(`${GRAPHIQL_PATH}/:asset`, async (request, reply) => {
    const asset = Object.hasOwn(ASSETS, request.params.asset) ? ASSETS[request.params.asset] : undefined;
    if (!asset) return reply.status(404).send({ code: "not_found", message: "Not found." });
    return reply
      .headers({ "Content-Type": `${asset.type}; charset=utf-8`, "Cache-Control": "public, max-age=3600" })
      .send(fs.createReadStream(asset.file));
  });
}
