// Request bodies are limited before they are read. Most routes take small JSON: past 8 MB (PHP's
// default post_max_size, which WordPress sites run with) a body is refused from its declared
// length at once. Only the routes that take files (media uploads on
// the site, and /graphql, whose media mutations carry them) accept up to the upload limit, and
// only from a caller that presents credentials, so an anonymous client cannot make the router
// buffer 64 MB before anyone has checked who it is.
import type { FastifyInstance, FastifyRequest } from "fastify";

export const SMALL_BODY_BYTES = 8 * 1024 * 1024;
export const UPLOAD_BODY_BYTES = 64 * 1024 * 1024;

const takesFiles = (request: FastifyRequest, restRoot: string): boolean => {
  const [path, query = ""] = request.url.split("?", 2);
  if (path === "/graphql") return true;
  const route = path.startsWith(`/${restRoot}/`) ? path.slice(restRoot.length + 1) : new URLSearchParams(query).get("rest_route") ?? "";
  return /^\/core\/v2\/media(\/|$)/i.test(route);
};

const presentsCredentials = (request: FastifyRequest): boolean =>
  request.headers.authorization !== undefined || request.headers["x-esg-auth-token"] !== undefined;

export function limitBodies(app: FastifyInstance, restRoot: string): void {
  app.addHook("onRequest", async (request, reply) => {
    const declared = Number(request.headers["content-length"] ?? 0);
    if (!(declared > SMALL_BODY_BYTES)) return;
    if (declared <= UPLOAD_BODY_BYTES && takesFiles(request, restRoot) && presentsCredentials(request)) return;
    const message = `The request body is larger than ${declared > UPLOAD_BODY_BYTES || takesFiles(request, restRoot) ? UPLOAD_BODY_BYTES : SMALL_BODY_BYTES} bytes`
      + (takesFiles(request, restRoot) && !presentsCredentials(request) ? " allowed without credentials." : ".");
    // Each surface's own error shape: WordPress's for the site, problem+json for /api/v2, GraphQL's for /graphql.
    const body = request.url.startsWith("/api/v2")
      ? { "@context": "/api/v2/contexts/Error", "@type": "hydra:Error", "hydra:title": "An error occurred", "hydra:description": message, title: "An error occurred", detail: message, status: 413 }
      : request.url.startsWith("/graphql")
        ? { errors: [{ message, extensions: { code: "body_too_large", status: 413 } }] }
        : { code: "rest_request_too_large", message, data: { status: 413 } };
    // The body is not read: the connection closes after the answer.
    await reply.status(413).header("connection", "close").send(body);
  });
}
