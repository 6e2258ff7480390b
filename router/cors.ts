// CORS for the surfaces browser apps call directly: /graphql and /api/v2 (/wp-json answers CORS
// itself, as WordPress does). Preflights are answered here, before Apollo's CSRF prevention
// sees them; simple cross-site requests that skip the preflight still reach it and are refused.
// A root onRequest hook rather than @fastify/cors: the plugin adds a catch-all `OPTIONS *` route
// and strict-preflight 400s for every path, which cannot be confined to two prefixes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../lib/config.ts";

/** Headers a front end sends: credentials of both dialects, JSON bodies, Apollo's CSRF opt-in, tracing. */
const ALLOWED_HEADERS = ["authorization", "content-type", "x-esg-auth-token", "x-switch-user", "apollo-require-preflight", "x-apollo-operation-name", "x-request-id"];
const EXPOSED_HEADERS = ["x-request-id", "link", "location", "allow"];
// Browsers may cache a preflight this long (Chromium caps it at 2 hours).
const MAX_AGE_SECONDS = 7200;

const SURFACES: { matches(path: string): boolean; methods: string }[] = [
  { matches: (path) => path === "/graphql", methods: "GET, POST, OPTIONS" },
  { matches: (path) => path === "/api/v2" || path.startsWith("/api/v2/"), methods: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" },
];

export function registerCors(app: FastifyInstance, config: Pick<Config, "corsOrigins">): void {
  const allowed = (origin: string) => config.corsOrigins === "*" || config.corsOrigins.includes(origin);

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0];
    const surface = SURFACES.find((s) => s.matches(path));
    if (!surface) return;
    // The answer depends on Origin whenever the allowed set is a list.
    if (config.corsOrigins !== "*") reply.header("vary", "Origin");
    const origin = request.headers.origin;
    if (typeof origin !== "string" || !allowed(origin)) return;
    reply.header("access-control-allow-origin", config.corsOrigins === "*" ? "*" : origin);
    reply.header("access-control-expose-headers", EXPOSED_HEADERS.join(", "));
    if (request.method !== "OPTIONS" || !request.headers["access-control-request-method"]) return;
    // A preflight: answered here, so neither CSRF prevention nor authentication sees it.
    return reply.status(204).headers({
      "access-control-allow-methods": surface.methods,
      "access-control-allow-headers": ALLOWED_HEADERS.join(", "),
      "access-control-max-age": String(MAX_AGE_SECONDS),
    }).send();
  });
}
