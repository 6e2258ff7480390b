import type { FastifyInstance } from "fastify";
import type { RestDeps } from "../../server.ts";
export async function registerGatewayRest(_app: FastifyInstance, _deps: RestDeps): Promise<void> {}
