// The landing page at `/` (a request without `?rest_route=`, which the site REST layer answers):
// where a newcomer finds the explorers and the API documents. Links are relative so they work on
// whatever host and port the router is reached at; the `Link` header is WordPress's API discovery
// (`<…/wp-json/>; rel="https://api.w.org/"`, as every WordPress page sends it).
import type { FastifyReply } from "fastify";
import { GRAPHIQL_PATH } from "./graphiql.ts";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function page(restRoot: string): string {
  const links: [href: string, title: string, what: string][] = [
    ["/graphql", "Apollo Sandbox", "the GraphQL explorer (loads Apollo's scripts from their CDN: needs the internet)"],
    [GRAPHIQL_PATH, "GraphiQL", "a GraphQL explorer that works offline"],
    [`/${encodeURI(restRoot)}/`, "Site REST index", "WordPress-compatible routes and their arguments"],
    ["/openapi.json", "Site OpenAPI", "OpenAPI document of the site REST routes"],
    ["/api/v2/docs.json", "Email gateway OpenAPI", "OpenAPI 3.1 document of the email gateway routes (/api/v2)"],
  ];
  const items = links
    .map(([href, title, what]) => `      <li><a href="${escapeHtml(href)}">${escapeHtml(title)}</a> — ${escapeHtml(what)}</li>`)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width,initial-scale=1" />
    <title>Site + email gateway federation</title>
    <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; }</style>
  </head>
  <body>
    <h1>Site + email gateway federation</h1>
    <p>One GraphQL supergraph over the site and the email gateway, with their REST routes.</p>
    <ul>
${items}
    </ul>
  </body>
</html>
`;
}

/** Answers the landing page; `restBase` is the REST root's full address (http://site/wp-json). */
export function sendLandingPage(reply: FastifyReply, restRoot: string, restBase: string): FastifyReply {
  return reply
    .headers({ "Content-Type": "text/html; charset=utf-8", Link: `<${restBase}/>; rel="https://api.w.org/"` })
    .send(page(restRoot));
}
