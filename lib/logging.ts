// Fastify's pino logger, set up the same way for the router and every subgraph: one structured
// line per request, tied to a request id that arrives in (or is answered with) `x-request-id` and
// travels on every router → subgraph fetch, so one id finds a request's lines in every process.
import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import type { ApolloServerPlugin, BaseContext, GraphQLRequestContext } from "@apollo/server";
import type { Config } from "./config.ts";
import { errorStatus } from "./errors.ts";

export const REQUEST_ID_HEADER = "x-request-id";

/** A client's id is kept only when short and plain, so it cannot forge log lines or headers. */
const SAFE_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdOf(request: Pick<IncomingMessage, "headers">): string {
  const header = request.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SAFE_ID.test(value) ? value : crypto.randomUUID();
}

/** Fastify logs a request twice (incoming, completed); this logs it once, when answered. */
class RequestLine extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      // A long URL (an over-long address in a filter, a flood of parameters) is logged by its start.
      url: request.url.length > 256 ? `${request.url.slice(0, 256)}…` : request.url,
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, "request failed");
    else reply.log.info(line, "request");
  }
}

/** Logger options for a Fastify server named `service` ("router", "content", …). */
export function loggerOptions(config: Pick<Config, "logLevel" | "logStream">, service: string): FastifyServerOptions {
  return {
    logger: { level: config.logLevel, name: service, ...(config.logStream ? { stream: config.logStream } : {}) },
    genReqId: requestIdOf,
    logController: new RequestLine({ requestIdLogLabel: "requestId" }),
  };
}

/** Answers every request with its id, the caller's own when it sent a usable one. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => { reply.header(REQUEST_ID_HEADER, request.id); });
}

/**
 * Logs the GraphQL errors a client would not cause (a failed fetch, a bug: no status below 500)
 * with their cause, on the request's own logger; the client's mistakes stay at debug.
 */
export function errorLogPlugin<Context extends BaseContext>(logOf: (request: GraphQLRequestContext<Context>) => FastifyBaseLogger): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors(request) {
          const log = logOf(request);
          for (const error of request.errors) {
            // Not every error here went through GraphQLError's constructor (a throwing context function).
            const extensions: Record<string, unknown> = error.extensions ?? {};
            const status = errorStatus(extensions);
            const internal = status === undefined ? !extensions.code || extensions.code === "INTERNAL_SERVER_ERROR" : status >= 500;
            const entry = { err: error.originalError ?? error, path: error.path?.join("."), code: extensions.code, subgraph: extensions.serviceName, operation: request.operationName ?? undefined };
            if (internal) log.error(entry, `GraphQL error: ${error.message}`);
            else log.debug(entry, `GraphQL error: ${error.message}`);
          }
        },
      };
    },
  };
}
