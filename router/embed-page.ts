// Embed pages: the address an oEmbed iframe points at, `<permalink>embed/` (or `?p=N&embed=true`
// with plain links), answered before routing, since a permalink's path is the site's and no
// router route can pattern it. The router stays thin: it recognises the address, asks the content
// subgraph's `embedPage` (which owns posts, permalinks and media) as an anonymous visitor, and sends
// the page with WordPress's site-page headers and a Content-Security-Policy that lets the page run
// nothing but its own inline script. API paths (REST root, /graphql, /api/v2…) are never embeds.
import type { FastifyInstance } from "fastify";
import type { Config } from "../lib/config.ts";
import { ANONYMOUS } from "../lib/identity.ts";
import { routerContext, type Execute } from "./graph.ts";

const EMBED_PAGE = `query EmbedPage($url: String!) { embedPage(url: $url) { status html scriptHashes } }`;

/** Router paths that are not site pages. */
const NOT_SITE = ["/graphql", "/graphiql", "/api/", "/oauth", "/metrics", "/health", "/ready", "/openapi.json", "/wp-content/"];

/** Whether a request asks for an embed page: a path ending in /embed(/), or a non-empty `embed` query argument. */
export function isEmbedRequest(url: string, restRoot: string): boolean {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
  if (!/\/embed\/?$/.test(path) && !query.get("embed")) return false;
  if (query.has("rest_route")) return false;
  const rest = `/${restRoot}`;
  return !(path === rest || path.startsWith(`${rest}/`) || NOT_SITE.some((p) => path.startsWith(p)));
}

export function registerEmbedPages(app: FastifyInstance, deps: { config: Config; execute: Execute }): void {
  const { config, execute } = deps;
  const restBase = `${config.siteUrl}/${config.restRoot}`;
  app.addHook("onRequest", async (request, reply) => {
    if ((request.method !== "GET" && request.method !== "HEAD") || !isEmbedRequest(request.url, config.restRoot)) return;
    const context = { ...await routerContext(ANONYMOUS, config.secretKey), requestId: request.id, log: request.log };
    const result = await execute(EMBED_PAGE, { url: new URL(request.url, config.siteUrl).toString() }, context);
    const page = (result.data as { embedPage?: { status: number; html: string; scriptHashes: string[] } } | null | undefined)?.embedPage;
    if (!page) throw new Error(`embed page failed: ${result.errors?.map((e) => e.message).join("; ") ?? "no data"}`);
    // redirect_canonical: a found embed asked without the trailing slash moves to it.
    const q = request.url.indexOf("?");
    const path = q === -1 ? request.url : request.url.slice(0, q);
    if (page.status === 200 && path.endsWith("/embed")) return reply.status(301).header("Location", new URL(`${path}/${q === -1 ? "" : request.url.slice(q)}`, config.siteUrl).toString()).send("");
    return reply.status(page.status).headers({
      "Content-Type": "text/html; charset=UTF-8",
      Link: `<${restBase}/>; rel="https://api.w.org/"`,
      "X-WP-embed": "true",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": `default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; script-src ${page.scriptHashes.join(" ")}; base-uri 'none'; form-action 'none'`,
    }).send(page.html);
  });
}
