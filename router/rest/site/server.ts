// The site REST surface over HTTP: /{REST_ROOT}/… and ?rest_route=…, answered the way
// WordPress's REST server answers (method override, bodies, global parameters, headers).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import qs from "qs";
import { DomainError } from "../../../lib/errors.ts";
import type { RouterContext } from "../../graph.ts";
import type { RestDeps } from "../../server.ts";
import { SiteRest, type SiteRequest } from "./dispatch.ts";
import { fromGraphQLError, wpError } from "./errors.ts";
import { applyFields, embedAll, embedRels, fieldList, linksWanted } from "./globals.ts";
import { routeEntry } from "./discovery.ts";
import type { RestResult, SiteUrls } from "./route.ts";
import { siteRoutes } from "./namespaces/index.ts";
import { isMultipart, parseMultipart } from "./multipart.ts";
import { sendLandingPage } from "../../explorer/landing.ts";

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b|\+json\b/i;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

export function siteUrls(siteUrl: string, restRoot: string): SiteUrls {
  const restBase = `${siteUrl}/${restRoot}`;
  return { restBase, home: siteUrl, rest: (path) => `${restBase}${path.startsWith("/") ? path : `/${path}`}` };
}

/** Reads the HTTP request into the dispatcher's terms. */
function readRequest(request: FastifyRequest, path: string, query: Record<string, unknown>): SiteRequest {
  const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
  const type = String(request.headers["content-type"] ?? "");
  const input: SiteRequest = { method: request.method, path, query, headers: request.headers, rawBody: raw };
  if (raw && raw.length > 0) {
    if (JSON_TYPE.test(type)) {
      try {
        const parsed = JSON.parse(raw.toString("utf8"));
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) input.json = parsed;
      } catch {
        input.jsonError = "Syntax error";
      }
    } else if (/^application\/x-www-form-urlencoded/i.test(type)) {
      input.body = qs.parse(raw.toString("utf8"), { depth: 10, arrayLimit: 1000 }) as Record<string, unknown>;
    }
  }
  // `_method` in the query overrides the method whatever it is; else X-HTTP-Method-Override.
  const override = typeof query._method === "string" ? query._method : request.headers["x-http-method-override"];
  if (typeof override === "string" && override) input.method = override.toUpperCase();
  return input;
}

function defaultHeaders(request: FastifyRequest, context: RouterContext | undefined, urls: SiteUrls): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Robots-Tag": "noindex",
    Link: `<${urls.restBase}/>; rel="https://api.w.org/"`,
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Expose-Headers": "X-WP-Total, X-WP-TotalPages, Link",
    "Access-Control-Allow-Headers": "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type",
  };
  const origin = request.headers.origin;
  if (typeof origin === "string") {
    Object.assign(headers, {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": "OPTIONS, GET, POST, PUT, PATCH, DELETE",
      "Access-Control-Allow-Credentials": "true",
    });
  }
  headers.Vary = "Origin";
  if (context?.identity.site) {
    headers.Expires = "Wed, 11 Jan 1984 05:00:00 GMT";
    headers["Cache-Control"] = "no-cache, must-revalidate, max-age=0, no-store, private";
  }
  return headers;
}

export async function registerSiteRest(app: FastifyInstance, deps: RestDeps): Promise<void> {
  const { config } = deps;
  const urls = siteUrls(config.siteUrl, config.restRoot);
  const site = new SiteRest(siteRoutes(), deps.execute, urls);

  // Bodies stay raw here: JSON errors, form bodies and file uploads are WordPress's to interpret.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  const handle = async (request: FastifyRequest, reply: FastifyReply, path: string, query: Record<string, unknown>) => {
    let context: RouterContext | undefined;
    let result: RestResult;
    let allow: string | undefined;
    const input = readRequest(request, path || "/", query);
    // As in PHP, a multipart body becomes form fields and files, and no raw body is left.
    if (input.rawBody?.length && isMultipart(request.headers["content-type"])) {
      const { fields, files } = await parseMultipart(input.rawBody, String(request.headers["content-type"]));
      Object.assign(input, { body: fields, files, rawBody: undefined });
    }
    try {
      context = await deps.contextFor(request);
      if (input.method === "OPTIONS") {
        // OPTIONS answers with the route's own index entry, with no permission or argument checks.
        const match = site.table.match(input.path.replace(/(.)\/+$/, "$1"), "OPTIONS");
        result = { status: 200, body: match ? routeEntry(match.route, urls, "help") : [] };
        if (match) allow = await site.allow(match.route, context, match.pathParams);
      } else {
        const dispatched = await site.dispatch(input, context);
        result = dispatched.route?.serve ? dispatched.route.serve(dispatched.result, input.query) : dispatched.result;
        if (dispatched.route) allow = await site.allow(dispatched.route, context, dispatched.pathParams);
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      result = fromGraphQLError({ message: error.message, extensions: error.extensions });
    }

    const ok = (result.status ?? 200) < 400;
    let body = result.body;
    if (ok && context) {
      const fields = fieldList(query._fields);
      const rels = embedRels(query._embed);
      if (rels && linksWanted(fields) && body && typeof body === "object") {
        const embedded = await embedAll((Array.isArray(body) ? body : [body]) as Record<string, unknown>[], rels, site, context);
        body = Array.isArray(body) ? embedded : embedded[0];
      }
      body = applyFields(body, fields, linksWanted(fields) || rels !== undefined);
    }
    // The route's own headers (an endpoint that knows the item narrows the route's Allow). WordPress
    // sends no Allow at all when the caller may use none of the route's methods (settings, for visitors).
    const own: Record<string, string> = { ...(allow ? { Allow: allow } : {}), ...(result.headers ?? {}) };
    let status = result.status ?? 200;
    let headers: Record<string, string> = { ...defaultHeaders(request, context, urls), ...own };
    if ("_envelope" in query) {
      // Enveloped: always 200; the route's own headers travel only inside the body.
      body = { body, status, headers: Object.keys(own).length ? own : [] };
      headers = defaultHeaders(request, context, urls);
      status = 200;
    }
    if (result.raw && !("_envelope" in query) && typeof query._jsonp !== "string") {
      reply.status(status).headers({ ...headers, "Content-Type": result.raw.contentType });
      return reply.send(request.method === "HEAD" ? "" : result.raw.data);
    }
    const jsonp = typeof query._jsonp === "string" ? query._jsonp : "";
    let text = JSON.stringify(body, null, "_pretty" in query ? 4 : undefined).replaceAll("/", "\\/");
    let contentType = "application/json; charset=UTF-8";
    if (jsonp) {
      if (!/^[\w.]+$/.test(jsonp)) {
        status = 400;
        text = JSON.stringify({ code: "rest_callback_invalid", message: "Invalid JSONP callback function." });
      } else {
        contentType = "application/javascript; charset=UTF-8";
        text = `/**/${jsonp}(${text})`;
      }
    }
    reply.status(status).headers({ ...headers, "Content-Type": contentType });
    return reply.send(request.method === "HEAD" ? "" : text);
  };

  const prefix = `/${config.restRoot}`;
  const fromUrl = (request: FastifyRequest) => {
    const [pathPart, search = ""] = request.url.split("?", 2);
    return { pathPart: decodeURIComponent(pathPart), query: qs.parse(search, { depth: 10, arrayLimit: 1000 }) as Record<string, unknown> };
  };
  app.route({
    method: [...METHODS], url: prefix, exposeHeadRoute: false,
    handler: (request, reply) => handle(request, reply, "/", fromUrl(request).query),
  });
  app.route({
    method: [...METHODS], url: `${prefix}/*`, exposeHeadRoute: false,
    handler: (request, reply) => {
      const { pathPart, query } = fromUrl(request);
      return handle(request, reply, pathPart.slice(prefix.length) || "/", query);
    },
  });
  // `?rest_route=/core/v2/posts` works whatever the permalink settings, as in WordPress.
  for (const url of ["/", "/index.php"]) {
    app.route({
      method: [...METHODS], url, exposeHeadRoute: false,
      handler: (request, reply) => {
        const { query } = fromUrl(request);
        const route = query.rest_route;
        if (route === undefined) {
          // Without rest_route, `/` is the site's front page: here the landing page (GET/HEAD only).
          if (url === "/" && (request.method === "GET" || request.method === "HEAD")) {
            return sendLandingPage(reply, config.restRoot, urls.restBase);
          }
          return reply.status(404).send({ code: "not_found", message: "Not found." });
        }
        if (typeof route !== "string") {
          return reply.status(400).send(wpError("rest_path_invalid_type", "The REST route parameter must be a string.", 400).body);
        }
        const rest = { ...query };
        delete rest.rest_route;
        return handle(request, reply, route.replace(/(.)\/+$/, "$1") || "/", rest);
      },
    });
  }
}
