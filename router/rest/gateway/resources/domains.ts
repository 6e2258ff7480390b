// Domains (/api/v2/domains…). Paths the seed does not show, in the API's style: GET/POST
// /domains, GET/DELETE /domains/{id}, GET /domains/{id}/summary (MX, SPF, DKIM and DMARC
// validated), POST /domains/{id}/trial (the one-time trial of a managed service provider tenant's
// domain; 409 the second time). The subgraph's side is subgraphs/gateway/domains/.
import {
  CreateGatewayDomainDocument, DeleteGatewayDomainDocument, GatewayDomainDocument, GatewayDomainsDocument,
  GatewayDomainSummaryDocument, StartGatewayDomainTrialDocument, type GatewayDomainPropertiesFragment,
} from "../../../../generated/graphql/operations.ts";
import { INT32_MAX } from "../../../../lib/gateway/collection-rules.ts";
import { itemResult } from "../formats.ts";
import type { Json, JsonObject } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { resource } from "../resource.ts";
import { collectionRoute } from "../resource-routes.ts";
import { restrictedTo, route, type GatewayRequest, type GatewayRoute } from "../route.ts";
import { bodyObject, readWritable } from "./singleton.ts";
import { errorResponses } from "./singleton.ts";

export const gatewayDomain = resource({
  name: "Domain",
  description: "A domain the gateway relays for.",
  path: "/domains",
  properties: {
    id: { type: "integer", readOnly: true, filter: true, order: true },
    name: { type: "string", format: "hostname", filter: true, order: true },
    tenant: { type: "string", filter: true, order: true, description: "The managed service provider tenant; null for none." },
    dkimSelector: { type: "string", description: "Default: default." },
    createdAt: { type: "datetime", readOnly: true },
    trialStartedAt: { type: "datetime", readOnly: true, description: "The one-time trial's start; null if never." },
    trialEndsAt: { type: "datetime", readOnly: true, filter: true, order: true },
  },
});

const SECURITY: Json = [{ esgToken: [] }];
const errorRefs = errorResponses;
const domainSchema: JsonObject = { $ref: "#/components/schemas/Domain" };
const checkSchema: JsonObject = {
  type: "object", required: ["records", "valid", "problems"],
  properties: { records: { type: "array", items: { type: "string" } }, valid: { type: "boolean" }, problems: { type: "array", items: { type: "string" } } },
};
const summarySchema: JsonObject = {
  type: "object", description: "MX, SPF, DKIM and DMARC records found and what is wrong with them.",
  properties: { domain: { type: "string" }, mtaHostname: { type: "string" }, valid: { type: "boolean" }, mx: checkSchema, spf: checkSchema, dkim: checkSchema, dmarc: checkSchema },
};

// tenant, trialStartedAt and trialEndsAt are null where they do not apply.
const restDomain = (d: GatewayDomainPropertiesFragment) => d as GatewayDomainPropertiesFragment & { tenant: string; trialStartedAt: string; trialEndsAt: string };
const domainId = (request: GatewayRequest): number => {
  const id = Number(request.pathParams.id);
  if (!(id <= INT32_MAX)) throw new GatewayProblem(404, "Not Found");
  return id;
};
const notFound = () => new GatewayProblem(404, "Not Found");

const collection = collectionRoute(gatewayDomain, {
  operation: GatewayDomainsDocument,
  variables: (query) => query,
  page: (data) => ({ ...data.gatewayDomains, items: data.gatewayDomains.items.map(restDomain) }),
});

export const DOMAIN_ROUTES: GatewayRoute[] = restrictedTo("admin", [
  {
    ...collection,
    endpoints: [...collection.endpoints, {
      methods: ["POST"], auth: true, body: true, negotiate: true, resource: gatewayDomain,
      openapi: {
        operationId: "postDomain", tags: ["Domain"], summary: "Creates a Domain resource.", security: SECURITY,
        requestBody: { required: true, content: { "application/json": { schema: domainSchema } } },
        responses: { 201: { description: "Domain", content: { "application/json": { schema: domainSchema } } }, ...errorRefs(400, 401, 403, 415, 422) },
      },
      handle: async (request, run) => {
        const body = readWritable<{ name: string; tenant: string; dkimSelector: string }>(gatewayDomain, bodyObject(request));
        if (!body.name) throw new GatewayProblem(422, "name: This value should not be blank.", [{ propertyPath: "name", message: "This value should not be blank." }]);
        const data = await run(CreateGatewayDomainDocument, { input: { name: body.name, tenant: body.tenant ?? null, dkimSelector: body.dkimSelector ?? null } });
        return { ...itemResult(gatewayDomain, restDomain(data.createGatewayDomain), request.format), status: 201 };
      },
    }],
  },
  route("/domains/{id}", [
    {
      methods: ["GET"], auth: true, negotiate: true, resource: gatewayDomain,
      openapi: { operationId: "getDomainItem", tags: ["Domain"], summary: "Retrieves a Domain resource.", security: SECURITY, responses: { 200: { description: "Domain", content: { "application/json": { schema: domainSchema } } }, ...errorRefs(401, 403, 404) } },
      handle: async (request, run) => {
        const domain = (await run(GatewayDomainDocument, { id: domainId(request) })).gatewayDomain;
        if (!domain) throw notFound();
        return itemResult(gatewayDomain, restDomain(domain), request.format);
      },
    },
    {
      methods: ["DELETE"], auth: true,
      openapi: { operationId: "deleteDomainItem", tags: ["Domain"], summary: "Removes the Domain resource.", security: SECURITY, responses: { 204: { description: "Removed" }, ...errorRefs(401, 403, 404) } },
      handle: async (request, run) => {
        if (!(await run(DeleteGatewayDomainDocument, { id: domainId(request) })).deleteGatewayDomain) throw notFound();
        return { status: 204, body: undefined };
      },
    },
  ], { id: "\\d+" }),
  route("/domains/{id}/summary", [{
    methods: ["GET"], auth: true,
    openapi: { operationId: "getDomainSummary", tags: ["Domain"], summary: "The domain summary: MX, SPF, DKIM and DMARC records, validated.", security: SECURITY, responses: { 200: { description: "Domain summary", content: { "application/json": { schema: summarySchema } } }, ...errorRefs(401, 403, 404) } },
    handle: async (request, run) => {
      const summary = (await run(GatewayDomainSummaryDocument, { id: domainId(request) })).gatewayDomainSummary;
      if (!summary) throw notFound();
      return { body: summary };
    },
  }], { id: "\\d+" }),
  route("/domains/{id}/trial", [{
    methods: ["POST"], auth: true, negotiate: true, resource: gatewayDomain,
    openapi: { operationId: "startDomainTrial", tags: ["Domain"], summary: "Starts the domain's one-time trial (managed service provider tenants only).", security: SECURITY, responses: { 200: { description: "Domain", content: { "application/json": { schema: domainSchema } } }, ...errorRefs(401, 403, 404, 409) } },
    handle: async (request, run) => itemResult(gatewayDomain, restDomain((await run(StartGatewayDomainTrialDocument, { id: domainId(request) })).startGatewayDomainTrial), request.format),
  }], { id: "\\d+" }),
]);
