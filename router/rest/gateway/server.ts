// The email gateway's REST surface under /api/v2, inside its own Fastify scope: its own body
// parser and error handler, so malformed requests, unknown paths and wrong methods all answer
// in the gateway's error shape. Each route runs its one typed GraphQL operation through the graph.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RestDeps } from "../../server.ts";
import { routerContext, type RouterContext } from "../../graph.ts";
import { ANONYMOUS } from "../../../lib/identity.ts";
import { ERROR_CODES } from "../../../lib/error-codes.ts";
import { grants } from "../../../lib/gateway/roles.ts";
import { RouteTable, type Method } from "../table.ts";
import { GATEWAY_ROUTES } from "./routes.ts";
import { API_BASE, type GatewayEndpoint, type GatewayRequest } from "./route.ts";
import { MEDIA_TYPES, negotiate } from "./negotiation.ts";
import { GatewayProblem, problemBody, problemFrom } from "./problems.ts";
import { operationRunner } from "./operation.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
// Login bodies are tiny; nothing here takes uploads.
const BODY_LIMIT = 1024 * 1024;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: GatewayProblem): FastifyReply {
  // Refused input is logged with what was refused (the messages quote at most the start of an
  // over-long address, seed 001 §7), so an operator can see rejections without the payloads.
  if (problem.violations) request.log.info({ violations: problem.violations }, "constraint violation");
  // JSON-LD clients get the Hydra media type; everyone else RFC 7807's.
  const type = negotiate(header(request, "accept")) === "jsonld" ? MEDIA_TYPES.jsonld : "application/problem+json; charset=utf-8";
  return reply.status(problem.status).headers(problem.headers).header("content-type", type).send(JSON.stringify(problemBody(problem)));
}

function jsonBody(request: FastifyRequest): unknown {
  const type = header(request, "content-type")?.split(";")[0].trim().toLowerCase() ?? "";
  if (!JSON_TYPE.test(type)) {
    throw new GatewayProblem(415, `The content-type "${type}" is not supported. Supported MIME types are "application/json", "application/ld+json".`);
  }
  const raw = Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "";
  try {
    return JSON.parse(raw);
  } catch {
    throw new GatewayProblem(400, "Syntax error: the request body is not valid JSON.");
  }
}

export async function registerGatewayRest(app: FastifyInstance, deps: RestDeps): Promise<void> {
  const table = new RouteTable<GatewayEndpoint>(GATEWAY_ROUTES);

  // Bodies arrive raw and are parsed per endpoint, so bad JSON gets the gateway's error body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error, request, reply) => sendProblem(request, reply, problemFrom(error)));

  const contextFor = async (request: FastifyRequest, endpoint: GatewayEndpoint): Promise<RouterContext> => {
    // Login is public: a stale token sent along must not stop a client from signing in again.
    if (!endpoint.auth) return routerContext(ANONYMOUS, deps.config.secretKey);
    if (!header(request, "x-esg-auth-token")) throw new GatewayProblem(401, ERROR_CODES.gateway_token_required.message);
    // A bad or expired token rejects here with the subgraph's DomainError (401).
    return deps.contextFor(request);
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, "http://localhost");
    const method = (request.method === "HEAD" ? "GET" : request.method) as Method;
    const match = table.match(url.pathname, method);
    if (!match) throw new GatewayProblem(404, `No route found for "${request.method} ${url.pathname}".`);
    const allow = [...new Set(match.route.endpoints.flatMap((e) => e.methods))].join(", ");
    if (request.method === "OPTIONS") return reply.status(204).header("allow", allow).send();
    const endpoint = match.endpoint;
    if (!endpoint) {
      throw new GatewayProblem(405, `No route found for "${request.method} ${url.pathname}": Method Not Allowed (Allow: ${allow})`, undefined, { allow });
    }
    const format = endpoint.negotiate ? negotiate(header(request, "accept")) : "json";
    if (!format) {
      throw new GatewayProblem(406, `Requested format "${header(request, "accept")}" is not supported. Supported MIME types are "${Object.values(MEDIA_TYPES).map((t) => t.split(";")[0]).join('", "')}".`);
    }
    const context = await contextFor(request, endpoint);
    const user = context.identity.gateway;
    if (endpoint.access && user && !grants(endpoint.access, user, Number(match.pathParams.id))) {
      throw new GatewayProblem(403, ERROR_CODES.gateway_forbidden.message);
    }
    const gatewayRequest: GatewayRequest = {
      method, path: url.pathname, pathParams: match.pathParams, query: url.searchParams,
      body: endpoint.body ? jsonBody(request) : undefined, format,
    };
    const response = await endpoint.handle(gatewayRequest, operationRunner(deps.execute, context));
    if (response.status === 204) return reply.status(204).headers(response.headers ?? {}).send();
    // Bytes (a stored attachment) go out as they are, with the headers the endpoint set.
    if (response.body instanceof Uint8Array) return reply.status(response.status ?? 200).headers(response.headers ?? {}).send(Buffer.from(response.body));
    reply.status(response.status ?? 200).header("content-type", MEDIA_TYPES[format]).headers(response.headers ?? {});
    if (endpoint.negotiate) reply.header("vary", "Accept");
    return reply.send(JSON.stringify(response.body));
  };

  app.route({ method: [...METHODS], url: API_BASE, handler: handle });
  app.route({ method: [...METHODS], url: `${API_BASE}/*`, handler: handle });
}
