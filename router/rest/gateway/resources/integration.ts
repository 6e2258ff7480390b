// Integration connectors (/api/v2/integration/…): the cloud-suite-B (microsoft-365-config),
// cloud-suite-A (google-connector-config) and directory (ldap) configurations, singletons.
// Methods (the seed names GET and POST, "and writes"; the rest is not shown): GET reads the
// configuration as saved; POST and PATCH (merge-patch) change only the properties sent; PUT
// replaces it (properties not sent go back to their defaults, write-only secrets are kept).
// Every write is pending until POST /appliance/apply-settings. The subgraph's side is
// subgraphs/gateway/connectors/.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import {
  GoogleConnectorConfigDocument, LdapConfigDocument, Microsoft365ConfigDocument,
  UpdateGoogleConnectorConfigDocument, UpdateLdapConfigDocument, UpdateMicrosoft365ConfigDocument,
} from "../../../../generated/graphql/operations.ts";
import { MAX_LDAP_TEXT } from "../../../../lib/gateway/appliance.ts";
import type { GraphRecord } from "../formats.ts";
import type { Json, JsonObject } from "../openapi.ts";
import { resource, type AnyResource } from "../resource.ts";
import { route, type GatewayRoute } from "../route.ts";
import { bodyObject, readWritable, singletonResult } from "./singleton.ts";

const pending = {
  pendingChanges: { type: "boolean", readOnly: true, description: "Saved changes await POST /appliance/apply-settings." },
  lastAppliedAt: { type: "datetime", readOnly: true, description: "When this configuration last took effect." },
} as const;
const groups = { type: "boolean", description: "Take user email addresses from imported groups (5.3.8)." } as const;

export const microsoft365Config = resource({
  name: "Microsoft365Config",
  description: "Cloud-suite-B connector configuration.",
  path: "/integration/microsoft-365-config",
  properties: {
    enabled: { type: "boolean" },
    tenant: { type: "string", description: "Tenant id (GUID) or domain (5.3.7)." },
    clientId: { type: "string" },
    clientSecret: { type: "string", format: "password", writeOnly: true },
    hasClientSecret: { type: "boolean", readOnly: true },
    userEmailFromGroups: groups,
    ...pending,
  },
});

export const googleConnectorConfig = resource({
  name: "GoogleConnectorConfig",
  description: "Cloud-suite-A connector configuration.",
  path: "/integration/google-connector-config",
  properties: {
    enabled: { type: "boolean", description: "Whether the connector runs (5.3.8)." },
    organizationId: { type: "string", description: "The organization (customer) id (5.3.8)." },
    googleCustomerId: { type: "string", description: "Deprecated in 5.3.8: use organizationId. Still accepted and mapped onto it; shows the same value." },
    adminEmail: { type: "string", format: "email" },
    serviceAccountKey: { type: "string", format: "password", writeOnly: true },
    hasServiceAccountKey: { type: "boolean", readOnly: true },
    userEmailFromGroups: groups,
    ...pending,
  },
});

export const ldapConfig = resource({
  name: "LdapConfig",
  description: `Directory (LDAP) connector configuration; DNs and filters up to ${MAX_LDAP_TEXT} characters.`,
  path: "/integration/ldap",
  properties: {
    enabled: { type: "boolean", description: "Whether the connector runs (5.3.8); needs a host." },
    host: { type: "string", format: "hostname" },
    port: { type: "integer" },
    encryption: { type: "enum", values: ["none", "starttls", "ldaps"] },
    bindDn: { type: "string" },
    bindPassword: { type: "string", format: "password", writeOnly: true },
    hasBindPassword: { type: "boolean", readOnly: true },
    baseDn: { type: "string" },
    userFilter: { type: "string" },
    groupFilter: { type: "string" },
    emailAttribute: { type: "string" },
    userEmailFromGroups: groups,
    ...pending,
  },
});

const SECURITY: Json = [{ esgToken: [] }];
const errorRefs = (...statuses: number[]): JsonObject => Object.fromEntries(statuses.map((s) =>
  [String(s), { $ref: `#/components/responses/${s === 422 ? "ConstraintViolations" : `Error${s}`}` }]));

function configRoute<R, W, V>(
  config: AnyResource,
  read: TypedDocumentNode<R, Record<string, never>>, readItem: (data: R) => GraphRecord,
  write: TypedDocumentNode<W, V>, writeItem: (data: W) => GraphRecord,
): GatewayRoute {
  const schema: JsonObject = { $ref: `#/components/schemas/${config.name}` };
  const ok = { 200: { description: config.name, content: { "application/json": { schema } } } };
  const writeOperation = (method: string, summary: string, type = "application/json"): JsonObject => ({
    operationId: `${method}${config.name}`, tags: [config.name], summary, security: SECURITY,
    requestBody: { required: true, content: { [type]: { schema } } },
    responses: { ...ok, ...errorRefs(400, 401, 403, 415, 422) },
  });
  const writeHandler = (replace: boolean) => async (request: Parameters<GatewayRoute["endpoints"][number]["handle"]>[0], run: Parameters<GatewayRoute["endpoints"][number]["handle"]>[1]) => {
    const input = readWritable(config, bodyObject(request));
    // The input was checked against the declaration, which lists exactly the input type's fields.
    const data = await run(write, { input, replace } as V);
    return singletonResult(config, writeItem(data), request.format);
  };
  return route(config.path ?? "", [
    {
      methods: ["GET"], auth: true, negotiate: true, resource: config,
      openapi: { operationId: `get${config.name}`, tags: [config.name], summary: `Retrieves the ${config.name} resource as saved.`, security: SECURITY, responses: { ...ok, ...errorRefs(401, 403, 406) } },
      handle: async (request, run) => singletonResult(config, readItem(await run(read, {})), request.format),
    },
    { methods: ["POST"], auth: true, body: true, negotiate: true, resource: config, openapi: writeOperation("post", "Saves the properties sent as pending (others keep their value)."), handle: writeHandler(false) },
    { methods: ["PATCH"], auth: true, body: true, negotiate: true, resource: config, openapi: writeOperation("patch", "Saves the properties sent as pending (others keep their value).", "application/merge-patch+json"), handle: writeHandler(false) },
    { methods: ["PUT"], auth: true, body: true, negotiate: true, resource: config, openapi: writeOperation("put", "Replaces the configuration as pending: properties not sent go back to their defaults; secrets not sent are kept."), handle: writeHandler(true) },
  ]);
}

export const INTEGRATION_ROUTES: GatewayRoute[] = [
  configRoute(microsoft365Config, Microsoft365ConfigDocument, (d) => d.microsoft365Config, UpdateMicrosoft365ConfigDocument, (d) => d.updateMicrosoft365Config),
  configRoute(googleConnectorConfig, GoogleConnectorConfigDocument, (d) => d.googleConnectorConfig, UpdateGoogleConnectorConfigDocument, (d) => d.updateGoogleConnectorConfig),
  configRoute(ldapConfig, LdapConfigDocument, (d) => d.ldapConfig, UpdateLdapConfigDocument, (d) => d.updateLdapConfig),
];
