// A singleton resource (the appliance, a connector's configuration): one item at the resource's
// own path, shaped in the negotiated format like any item, its IRI being that path.
import type { Format, GatewayRequest, GatewayResult } from "../route.ts";
import type { JsonObject } from "../openapi.ts";
import { shownProperties, type GraphRecord } from "../formats.ts";
import { collectionIri, type AnyResource } from "../resource.ts";
import { GatewayProblem, type Violation } from "../problems.ts";

export function singletonResult(resource: AnyResource, item: GraphRecord, format: Format): GatewayResult {
  const properties = shownProperties(resource, item);
  const iri = collectionIri(resource);
  switch (format) {
    case "jsonld": return { body: { "@context": `/api/v2/contexts/${resource.name}`, "@id": iri, "@type": resource.name, ...properties } };
    case "hal": return { body: { _links: { self: { href: iri } }, ...properties } };
    case "json": return { body: properties };
  }
}

/** The JSON object a write sends, or a 400 as API Platform's deserializer answers a non-object. */
export function bodyObject(request: GatewayRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new GatewayProblem(400, "The request body must be a JSON object.");
  return body as Record<string, unknown>;
}

type Kind = "string" | "boolean" | "integer";
/**
 * The writable properties a body sets, checked against their declared JSON types. Read-only
 * properties are ignored, as API Platform ignores them (a client may send back what it read);
 * unknown ones are violations (a typo must not silently do nothing). 422 lists every problem.
 */
export function readWritable<T extends Record<string, unknown>>(resource: AnyResource, body: Record<string, unknown>, aliases: Record<string, string> = {}): Partial<T> {
  const violations: Violation[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = aliases[key] ?? key;
    const property = resource.properties[name];
    if (property?.readOnly) continue;
    if (!property) {
      violations.push({ propertyPath: key, message: `Unknown property "${key}".` });
      continue;
    }
    const kind: Kind = property.type === "boolean" ? "boolean" : property.type === "integer" ? "integer" : "string";
    const fits = (v: unknown) => (kind === "boolean" && typeof v === "boolean")
      || (kind === "integer" && Number.isInteger(v))
      || (kind === "string" && typeof v === "string");
    // A list property is a JSON array of its type (API Platform's collection-valued properties).
    const ok = value === null || (property.list ? Array.isArray(value) && value.every(fits) : fits(value));
    if (!ok) {
      violations.push({ propertyPath: key, message: property.list ? `This value should be of type array of ${kind}.` : `This value should be of type ${kind}.` });
      continue;
    }
    const invalid = property.type === "enum" && value !== null ? (property.list ? value as string[] : [value as string]).find((v) => !property.values.includes(v)) : undefined;
    if (invalid !== undefined && property.type === "enum") {
      violations.push({ propertyPath: key, message: `The value "${invalid}" is not a valid choice; allowed: ${property.values.join(", ")}.` });
      continue;
    }
    if (!(name in out) || key === name) out[name] = value;
  }
  if (violations.length) throw new GatewayProblem(422, violations.map((v) => `${v.propertyPath}: ${v.message}`).join("\n"), violations);
  return out as Partial<T>;
}

/**
 * OpenAPI responses for error statuses: the document's shared ones by $ref, and 409 (a state
 * conflict, which the shared set does not have) inline with the same error body.
 */
export function errorResponses(...statuses: number[]): JsonObject {
  const conflict: JsonObject = { description: "State conflict", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Error" } }, "application/ld+json": { schema: { $ref: "#/components/schemas/Error" } } } };
  return Object.fromEntries(statuses.map((s): [string, JsonObject] => [String(s), s === 409
    ? conflict
    : { $ref: `#/components/responses/${s === 422 ? "ConstraintViolations" : `Error${s}`}` }]));
}
