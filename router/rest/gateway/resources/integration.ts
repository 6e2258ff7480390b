// Integration connectors (/api/v2/integration/…): the cloud-suite-B (microsoft-365-config),
// cloud-suite-A (google-connector-config) and directory (ldap) configurations, singletons.
// Methods (the seed names GET and POST, "and writes"; the rest is not shown): GET reads the
// configuration as saved; POST and PATCH (merge-patch) change only the properties sent; PUT
// replaces it (properties not sent go back to their defaults, write-only secrets are kept).
// Every write is pending until POST /appliance/apply-settings. The subgraph's side is
// subgraphs/gateway/connectors/.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import {
  CreateGroupImportDocument, DeleteGroupImportDocument, GroupImportsDocument, RunGroupImportDocument,
  type GroupImportConnector, type GroupImportPropertiesFragment,
  GoogleConnectorConfigDocument, LdapConfigDocument, Microsoft365ConfigDocument,
  UpdateGoogleConnectorConfigDocument, UpdateLdapConfigDocument, UpdateMicrosoft365ConfigDocument,
} from "../../../../generated/graphql/operations.ts";
import { MAX_LDAP_TEXT } from "../../../../lib/gateway/appliance.ts";
import { collectionResult, itemResult, type GraphRecord } from "../formats.ts";
import { GatewayProblem } from "../problems.ts";
import { INT32_MAX } from "../../../../lib/gateway/collection-rules.ts";
import type { Json, JsonObject } from "../openapi.ts";
import { resource, type AnyResource } from "../resource.ts";
import { restrictedTo, route, type GatewayRoute } from "../route.ts";
import { bodyObject, readWritable, singletonResult } from "./singleton.ts";
import { errorResponses } from "./singleton.ts";

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
const errorRefs = errorResponses;

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

export const INTEGRATION_ROUTES: GatewayRoute[] = restrictedTo("admin", [
  configRoute(microsoft365Config, Microsoft365ConfigDocument, (d) => d.microsoft365Config, UpdateMicrosoft365ConfigDocument, (d) => d.updateMicrosoft365Config),
  configRoute(googleConnectorConfig, GoogleConnectorConfigDocument, (d) => d.googleConnectorConfig, UpdateGoogleConnectorConfigDocument, (d) => d.updateGoogleConnectorConfig),
  configRoute(ldapConfig, LdapConfigDocument, (d) => d.ldapConfig, UpdateLdapConfigDocument, (d) => d.updateLdapConfig),
]);

export const groupImport = resource({
  name: "GroupImport",
  description: "A group import set: an external group brought in as users. New sets default both options to yes; functional users never count as licences.",
  path: "/integration/group-import",
  properties: {
    id: { type: "integer", readOnly: true },
    connector: { type: "enum", values: ["microsoft-365", "google", "ldap"] },
    groupName: { type: "string" },
    addGroupEmailToUsers: { type: "boolean", description: "Add the group's address to each member user (default yes)." },
    createFunctionalUserForGroups: { type: "boolean", description: "Create a functional user for the group (default yes)." },
    createdAt: { type: "datetime", readOnly: true },
    lastRunAt: { type: "datetime", readOnly: true },
  },
});

// lastRunAt is null until the first run.
const restImport = (g: GroupImportPropertiesFragment) => ({ ...g, connector: g.connector.replace("_", "-") as "microsoft-365" | "google" | "ldap", lastRunAt: g.lastRunAt as string });
const importId = (raw: string): number => {
  const id = Number(raw);
  if (!(id <= INT32_MAX)) throw new GatewayProblem(404, "Not Found");
  return id;
};
const importSchema: JsonObject = { $ref: "#/components/schemas/GroupImport" };

export const GROUP_IMPORT_ROUTES: GatewayRoute[] = restrictedTo("admin", [
  route("/integration/group-import", [
    {
      methods: ["GET"], auth: true, negotiate: true, resource: groupImport,
      openapi: { operationId: "getGroupImportCollection", tags: ["GroupImport"], summary: "Retrieves the collection of GroupImport resources (one page).", security: SECURITY, responses: { 200: { description: "GroupImport collection", content: { "application/json": { schema: { type: "array", items: importSchema } } } }, ...errorRefs(401, 403, 406) } },
      handle: async (request, run) => {
        const items = (await run(GroupImportsDocument, {})).groupImports.map(restImport);
        return collectionResult(groupImport, { items, totalItems: items.length, page: 1, itemsPerPage: Math.max(items.length, 1) }, request, false);
      },
    },
    {
      methods: ["POST"], auth: true, body: true, negotiate: true, resource: groupImport,
      openapi: { operationId: "postGroupImport", tags: ["GroupImport"], summary: "Creates a GroupImport resource; both options default to yes.", security: SECURITY, requestBody: { required: true, content: { "application/json": { schema: importSchema } } }, responses: { 201: { description: "GroupImport", content: { "application/json": { schema: importSchema } } }, ...errorRefs(400, 401, 403, 415, 422) } },
      handle: async (request, run) => {
        const body = readWritable<{ connector: string; groupName: string; addGroupEmailToUsers: boolean; createFunctionalUserForGroups: boolean }>(groupImport, bodyObject(request));
        if (!body.connector || !body.groupName) {
          const missing = (["connector", "groupName"] as const).filter((k) => !body[k]).map((k) => ({ propertyPath: k, message: "This value should not be blank." }));
          throw new GatewayProblem(422, missing.map((v) => `${v.propertyPath}: ${v.message}`).join("\n"), missing);
        }
        const input = { ...body, connector: body.connector.replace("-", "_") as GroupImportConnector, groupName: body.groupName };
        const created = (await run(CreateGroupImportDocument, { input })).createGroupImport;
        return { ...itemResult(groupImport, restImport(created), request.format), status: 201 };
      },
    },
  ]),
  route("/integration/group-import/{id}", [{
    methods: ["DELETE"], auth: true,
    openapi: { operationId: "deleteGroupImportItem", tags: ["GroupImport"], summary: "Removes the GroupImport resource.", security: SECURITY, responses: { 204: { description: "Removed" }, ...errorRefs(401, 403, 404) } },
    handle: async (request, run) => {
      if (!(await run(DeleteGroupImportDocument, { id: importId(request.pathParams.id) })).deleteGroupImport) throw new GatewayProblem(404, "Not Found");
      return { status: 204, body: undefined };
    },
  }], { id: "\\d+" }),
  route("/integration/group-import/{id}/run", [{
    methods: ["POST"], auth: true, body: true,
    openapi: {
      operationId: "runGroupImport", tags: ["GroupImport"], security: SECURITY,
      summary: "Imports the group as the directory answers it ({groupEmail, members}); the connector must be enabled (applied).",
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["groupEmail", "members"], properties: { groupEmail: { type: "string", format: "email" }, members: { type: "array", items: { type: "string", format: "email" } } } } } } },
      responses: { 200: { description: "What the run did", content: { "application/json": { schema: { type: "object", properties: { groupEmail: { type: "string" }, functionalUser: { type: "boolean" }, usersUpdated: { type: "integer" }, membersUnknown: { type: "integer" } } } } } }, ...errorRefs(400, 401, 403, 404, 409, 415, 422) },
    },
    handle: async (request, run) => {
      const { groupEmail, members } = bodyObject(request);
      const violations = [
        ...(typeof groupEmail === "string" ? [] : [{ propertyPath: "groupEmail", message: "This value should be of type string." }]),
        ...(Array.isArray(members) && members.length <= 10_000 && members.every((m) => typeof m === "string") ? [] : [{ propertyPath: "members", message: "This value should be a list of at most 10000 strings." }]),
      ];
      if (violations.length) throw new GatewayProblem(422, violations.map((v) => `${v.propertyPath}: ${v.message}`).join("\n"), violations);
      const data = await run(RunGroupImportDocument, { id: importId(request.pathParams.id), groupEmail: groupEmail as string, members: members as string[] });
      return { body: data.runGroupImport };
    },
  }], { id: "\\d+" }),
]);
