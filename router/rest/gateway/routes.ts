// The /api/v2 route table: every email gateway route, from the areas' declarations. Matching,
// 405 + Allow and the OpenAPI document (GET /api/v2/docs.json) derive from this list.
import { openApiDocument } from "./openapi.ts";
import { AUTH_ROUTES } from "./resources/auth.ts";
import { LICENSING_ROUTES } from "./resources/licensing.ts";
import { MESSAGE_ROUTES } from "./resources/messages.ts";
import { RESTRICTED_SENDER_ROUTES } from "./resources/restricted-senders.ts";
import { APPLIANCE_ROUTES } from "./resources/appliance.ts";
import { GROUP_IMPORT_ROUTES, INTEGRATION_ROUTES } from "./resources/integration.ts";
import { USER_ROUTES } from "./resources/users.ts";
import { CLUSTER_ROUTES } from "./resources/cluster.ts";
import { DOMAIN_ROUTES } from "./resources/domains.ts";
import { VERSION_ROUTES } from "./resources/versions.ts";
import { entrypointRoutes } from "./entrypoint.ts";
import { route, type GatewayRoute } from "./route.ts";

let document: ReturnType<typeof openApiDocument> | undefined;

const RESOURCE_ROUTES: GatewayRoute[] = [...AUTH_ROUTES, ...LICENSING_ROUTES, ...MESSAGE_ROUTES, ...RESTRICTED_SENDER_ROUTES, ...APPLIANCE_ROUTES, ...INTEGRATION_ROUTES, ...GROUP_IMPORT_ROUTES, ...USER_ROUTES, ...CLUSTER_ROUTES, ...DOMAIN_ROUTES, ...VERSION_ROUTES];

export const GATEWAY_ROUTES: GatewayRoute[] = [
  ...RESOURCE_ROUTES,
  // The entry point and the JSON-LD contexts, derived from the resource routes.
  ...entrypointRoutes(RESOURCE_ROUTES),
  // Public, as API Platform's docs are: it describes the API, it holds no data.
  route("/docs.json", [{
    methods: ["GET"], auth: false,
    openapi: {
      operationId: "getApiDocs", tags: ["Documentation"], summary: "This OpenAPI 3.1 document.", security: [],
      responses: { 200: { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } } },
    },
    handle: async () => ({ body: (document ??= openApiDocument(GATEWAY_ROUTES)) }),
  }]),
];
