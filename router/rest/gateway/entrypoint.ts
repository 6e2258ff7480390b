// API Platform's entry point (GET /api/v2/) and the JSON-LD @context documents that Hydra bodies
// name (GET /api/v2/contexts/<Name>), both derived from the routes they describe: the entry point
// lists every resource with a collection operation (as API Platform's does: singletons such as the
// appliance or a connector's configuration are not collections and are not listed); a resource's
// context maps its declared properties.
// Public, as docs.json is: they describe the API and hold no data.
import { collectionIri, type AnyResource } from "./resource.ts";
import { API_BASE, route, type GatewayRoute } from "./route.ts";
import { MEDIA_TYPES } from "./negotiation.ts";
import { GatewayProblem } from "./problems.ts";
import { collectionOperation, type Json, type JsonObject } from "./openapi.ts";

const HYDRA = "http://www.w3.org/ns/hydra/core#";
// API Platform's terms expand under the API's documentation; here that is the OpenAPI document.
const VOCAB = `${API_BASE}/docs.json#`;
const ENTRYPOINT = "Entrypoint";
/** Bodies that are not resources but carry a context (problems.ts): their keys. */
const PROBLEM_TERMS: Record<string, string[]> = {
  Error: ["title", "detail", "status"],
  ConstraintViolationList: ["title", "detail", "status", "violations", "propertyPath", "message"],
};

export const contextIri = (name: string): string => `${API_BASE}/contexts/${name}`;
/** The entry point's key for a resource, as API Platform names it: the short name, first letter lowered. */
const entryKey = (resource: AnyResource): string => resource.name[0].toLowerCase() + resource.name.slice(1);

/** Resources served as collections (a collection operation at the resource's own path), in route order. */
function collections(routes: readonly GatewayRoute[]): AnyResource[] {
  return routes.flatMap((r) => r.endpoints
    .filter((e) => e.methods.includes("GET") && e.resource?.path !== undefined && e.resource.path === r.path
      && e.openapi.operationId === collectionOperation(e.resource).operationId)
    .map((e) => e.resource as AnyResource));
}

/** Every @context document bodies may name: the entry point's, each addressable resource's, the problems'. */
function contexts(routes: readonly GatewayRoute[]): Map<string, JsonObject> {
  const documents = new Map<string, JsonObject>();
  const context = (terms: Record<string, Json>): JsonObject => ({ "@context": { "@vocab": VOCAB, hydra: HYDRA, ...terms } });
  documents.set(ENTRYPOINT, context(Object.fromEntries(collections(routes).map((r) => [entryKey(r), { "@id": `${ENTRYPOINT}/${entryKey(r)}`, "@type": "@id" }]))));
  for (const resource of new Set(routes.flatMap((r) => r.endpoints.flatMap((e) => e.resource?.path !== undefined ? [e.resource] : [])))) {
    documents.set(resource.name, context(Object.fromEntries(Object.keys(resource.properties).map((p) => [p, `${resource.name}/${p}`]))));
  }
  for (const [name, terms] of Object.entries(PROBLEM_TERMS)) documents.set(name, context(Object.fromEntries(terms.map((t) => [t, `${name}/${t}`]))));
  return documents;
}

/** GET /api/v2/ (and /api/v2) and GET /api/v2/contexts/{name}, over the given resource routes. */
export function entrypointRoutes(routes: readonly GatewayRoute[]): GatewayRoute[] {
  const listed = collections(routes);
  const documents = contexts(routes);
  const links = listed.map((r) => [entryKey(r), collectionIri(r)] as const);
  const entrypoint = route("/", [{
    methods: ["GET"], auth: false, negotiate: true,
    openapi: {
      operationId: "getEntrypoint", tags: ["Documentation"], summary: "The entry point: every resource collection's IRI.", security: [],
      responses: {
        200: {
          description: "Hydra Entrypoint, HAL links or plain JSON, by Accept",
          content: Object.fromEntries(["application/hal+json", "application/ld+json", "application/json"].map((type) => [type, { schema: { type: "object" } }])),
        },
      },
    },
    handle: async (request) => {
      switch (request.format) {
        case "jsonld": return { body: { "@context": contextIri(ENTRYPOINT), "@id": API_BASE, "@type": ENTRYPOINT, ...Object.fromEntries(links) } };
        case "hal": return { body: { _links: { self: { href: API_BASE }, ...Object.fromEntries(links.map(([key, href]) => [key, { href }])) } } };
        case "json": return { body: Object.fromEntries(links) };
      }
    },
  }]);
  const context = route("/contexts/{name}", [{
    methods: ["GET"], auth: false,
    openapi: {
      operationId: "getContext", tags: ["Documentation"], summary: "A JSON-LD @context that Hydra bodies name.", security: [],
      parameters: [{ name: "name", in: "path", required: true, schema: { type: "string", enum: [...documents.keys()] } }],
      responses: {
        200: { description: "JSON-LD context", content: { "application/ld+json": { schema: { type: "object" } } } },
        404: { $ref: "#/components/responses/Error404" },
      },
    },
    handle: async (request) => {
      const document = documents.get(request.pathParams.name);
      if (!document) throw new GatewayProblem(404, "Not Found");
      return { body: document, headers: { "content-type": MEDIA_TYPES.jsonld } };
    },
  }]);
  // API Platform's entry point answers with and without the trailing slash.
  return [{ ...entrypoint, pattern: `${API_BASE}/?` }, context];
}
