// Redirects really happen: a site path outside the API prefixes (REST root, /graphql, /api/v2,
// /oauth, /metrics, the explorers…) reaches no route of the router, so the not-found handler asks
// the extensions subgraph's matcher (serveRedirect, router-only) and answers with the rule's code
// and target, as the Redirection plugin does; nothing matched is the 404 it always was.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { askSubgraph, type SubgraphTarget } from "../lib/authenticate.ts";
import type { RestDeps } from "./server.ts";

/** Paths the router's own surfaces answer; redirects never apply to them. */
const API_PREFIXES = ["/graphql", "/graphiql", "/api/", "/oauth", "/metrics", "/health", "/ready", "/openapi.json", "/wp-content/uploads/"];

/** Where `pass` to another site fetches from (tests replace it with a local fake). */
export const redirectPassClient = {
  fetch: async (url: string): Promise<{ status: number; body: string; contentType: string }> => {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: await response.text(), contentType: response.headers.get("content-type") ?? "text/html" };
  },
};

interface Outcome { action: string; code: number; target: string | null; headers: { name: string; value: string }[] }

const SERVE = `mutation($request: RedirectRequestInput!) { serveRedirect(request: $request) { action code target ruleId headers { name value } } }`;
const RANDOM_POST = `query($offset: Int) { posts(perPage: 1, offset: $offset) { totalCount nodes { link } } }`;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function registerRedirects(app: FastifyInstance, deps: RestDeps, extensions: SubgraphTarget): void {
  const { config } = deps;
  const restPrefix = `/${config.restRoot}`;
  const isApi = (path: string) => path === restPrefix || path.startsWith(`${restPrefix}/`) || API_PREFIXES.some((p) => path === p.replace(/\/$/, "") || path.startsWith(p));

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({ message: `Route ${request.method}:${request.url} not found`, error: "Not Found", statusCode: 404 });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0];
    if (isApi(path)) return notFound(request, reply);
    let identity: Awaited<ReturnType<RestDeps["contextFor"]>>["identity"] | undefined;
    try {
      identity = (await deps.contextFor(request)).identity;
    } catch {
      identity = undefined;
    }
    const headers = Object.entries(request.headers).filter(([, v]) => v !== undefined).map(([name, v]) => ({ name, value: String(first(v)) }));
    let data: { serveRedirect: Outcome };
    try {
      data = await askSubgraph<{ serveRedirect: Outcome }>(extensions, SERVE, {
      request: {
        url: request.url, method: request.method, host: first(request.headers.host) ?? "", scheme: request.protocol, remoteAddr: request.ip,
        agent: first(request.headers["user-agent"]) ?? null, referrer: first(request.headers.referer) ?? null,
        acceptLanguage: first(request.headers["accept-language"]) ?? null, cookie: first(request.headers.cookie) ?? null,
        headers, loggedIn: identity?.site !== undefined, roles: identity?.site?.roles ?? [],
      },
      }, config.secretKey, request.id);
    } catch (error) {
      // The matcher unreachable: logged, and the path answers the 404 it would without redirects.
      request.log.error({ err: error }, "redirect matching failed");
      return notFound(request, reply);
    }
    const outcome = data.serveRedirect;
    for (const h of outcome.headers) reply.header(h.name, h.value);
    switch (outcome.action) {
      case "url":
        return reply.status(outcome.code).header("Location", outcome.target ?? "/").send("");
      case "random": {
        const context = await deps.contextFor(request).catch(() => undefined);
        if (!context) return notFound(request, reply);
        const count = await deps.execute(RANDOM_POST, { offset: 0 }, context);
        const total = (count.data as { posts?: { totalCount: number } } | undefined)?.posts?.totalCount ?? 0;
        if (total === 0) return notFound(request, reply);
        const pick = await deps.execute(RANDOM_POST, { offset: Math.floor(Math.random() * total) }, context);
        const link = (pick.data as { posts?: { nodes: { link: string }[] } } | undefined)?.posts?.nodes[0]?.link ?? "/";
        return reply.status(outcome.code).header("Location", link).send("");
      }
      case "error":
        return reply.status(outcome.code).type("text/html; charset=UTF-8").send(`<!DOCTYPE html><title>${outcome.code}</title><h1>${outcome.code === 410 ? "410 Gone" : "Not Found"}</h1>`);
      case "pass": {
        const target = outcome.target ?? "/";
        if (/^https?:\/\//i.test(target)) {
          const remote = await redirectPassClient.fetch(target);
          return reply.status(200).type(remote.contentType).send(remote.body);
        }
        // An internal pass-through: the request is answered as if the target had been asked for.
        const injected = await app.inject({ method: request.method as "GET", url: target, headers: request.headers as Record<string, string> });
        reply.status(injected.statusCode);
        for (const [name, value] of Object.entries(injected.headers)) if (value !== undefined && name !== "content-length" && name !== "transfer-encoding" && name !== "connection") reply.header(name, value);
        return reply.send(injected.rawPayload);
      }
      default:
        return notFound(request, reply);
    }
  });
}
