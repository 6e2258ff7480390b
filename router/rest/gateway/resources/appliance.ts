// Appliance (/api/v2/appliance…): the node and its settings, apply-settings (5.3.0), the audit
// log and the events. Path choices the seed leaves open ("not shown"): GET/PATCH /appliance for
// the appliance's own settings, GET /audit-log and GET /events for the two logs. The subgraph's
// side is subgraphs/gateway/{appliance,audit,events}/.
import {
  ApplianceDocument, ApplySettingsDocument, AuditEntriesDocument, AuditEntryDocument,
  GatewayEventDocument, GatewayEventsDocument, UpdateApplianceSettingsDocument,
  type AuditEntryPropertiesFragment,
} from "../../../../generated/graphql/operations.ts";
import { EVENT_KINDS } from "../../../../lib/gateway/appliance.ts";
import { collectionResult, itemResult } from "../formats.ts";
import { collectionOperation, itemOperation, type Json, type JsonObject } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { parseCollectionQuery } from "../query.ts";
import { resource } from "../resource.ts";
import { collectionRoute, itemRoute } from "../resource-routes.ts";
import { restrictedTo, route, type GatewayRoute } from "../route.ts";
import { bodyObject, readWritable, singletonResult } from "./singleton.ts";
import { errorResponses } from "./singleton.ts";

const SECURITY: Json = [{ esgToken: [] }];
const errorRefs = errorResponses;

export const appliance = resource({
  name: "Appliance",
  description: "The appliance: the node serving the request and its settings as saved (they take effect after apply-settings).",
  path: "/appliance",
  properties: {
    nodeUid: { type: "string", readOnly: true, description: "Unique identifier of this node; audit entries name nodes by it." },
    hostname: { type: "string", readOnly: true },
    cloud: { type: "boolean", readOnly: true, description: "Cloud appliance: cluster destroy and hard reset are refused." },
    version: { type: "string", readOnly: true },
    mtaHostname: { type: "string", format: "hostname", description: "DMARC reports are sent from no-reply at this hostname." },
    adminEmail: { type: "string", format: "email", description: "Recipient of administrator notifications." },
    quarantineSender: { type: "string", format: "email", description: "Sender of quarantine notifications." },
    pendingChanges: { type: "boolean", readOnly: true, description: "Configuration changes await POST /appliance/apply-settings." },
    lastAppliedAt: { type: "datetime", readOnly: true },
  },
});

export const applyResult = resource({
  name: "ApplySettings",
  description: "What apply-settings did: applied (pending changes took effect) or up-to-date (nothing was pending).",
  properties: {
    status: { type: "enum", values: ["applied", "up-to-date"], readOnly: true },
    appliedAt: { type: "datetime", readOnly: true },
  },
});

export const auditEntry = resource({
  name: "AuditEntry",
  description: "A configuration or settings change: its property changeset ({property: {old, new}}) and the unique id of the node that executed it.",
  path: "/audit-log",
  properties: {
    id: { type: "integer", readOnly: true, filter: true, order: true },
    at: { type: "datetime", readOnly: true, filter: true, order: true },
    action: { type: "enum", values: ["change", "apply", "cluster"], readOnly: true, filter: true },
    section: { type: "string", readOnly: true, filter: true, order: true },
    username: { type: "string", readOnly: true, filter: true },
    nodeUid: { type: "string", readOnly: true, filter: true },
  },
});

export const gatewayEvent = resource({
  name: "Event",
  description: "A notification or signal the gateway recorded.",
  path: "/events",
  properties: {
    id: { type: "integer", readOnly: true, filter: true, order: true },
    kind: { type: "enum", values: EVENT_KINDS, readOnly: true, filter: true, order: true },
    at: { type: "datetime", readOnly: true, filter: true, order: true },
    subject: { type: "string", readOnly: true },
    body: { type: "string", readOnly: true },
    sender: { type: "string", format: "email", readOnly: true, filter: true },
    recipient: { type: "string", format: "email", readOnly: true, filter: true },
    nodeUid: { type: "string", readOnly: true },
  },
});

/** Kinds travel as GraphQL enum names (certificate_expiry) and are shown as the API writes them. */
const eventItem = <T extends { kind: string }>(item: T) => ({ ...item, kind: item.kind.replace(/_/g, "-") as (typeof EVENT_KINDS)[number] });

/** The changeset as an object, property → {old, new}, as the audit log shows it. */
const auditItem = (entry: AuditEntryPropertiesFragment) => ({
  ...entry, changeset: Object.fromEntries(entry.changeset.map((c) => [c.property, { old: c.old, new: c.new }])),
});
const withChangeset = { ...auditEntry, shown: [...auditEntry.shown, { name: "changeset", field: "changeset" }] };

const applianceSchema: JsonObject = { $ref: "#/components/schemas/Appliance" };

export const APPLIANCE_ROUTES: GatewayRoute[] = restrictedTo("admin", [
  route("/appliance", [
    {
      methods: ["GET"], auth: true, negotiate: true, resource: appliance,
      openapi: { operationId: "getAppliance", tags: ["Appliance"], summary: "Retrieves the Appliance resource.", security: SECURITY, responses: { 200: { description: "Appliance", content: { "application/json": { schema: applianceSchema } } }, ...errorRefs(401, 403, 406) } },
      handle: async (request, run) => singletonResult(appliance, (await run(ApplianceDocument, {})).appliance, request.format),
    },
    {
      methods: ["PATCH"], auth: true, body: true, negotiate: true, resource: appliance,
      openapi: {
        operationId: "patchAppliance", tags: ["Appliance"], summary: "Saves appliance settings as pending; POST /appliance/apply-settings makes them take effect.", security: SECURITY,
        requestBody: { required: true, content: { "application/merge-patch+json": { schema: applianceSchema } } },
        responses: { 200: { description: "Appliance", content: { "application/json": { schema: applianceSchema } } }, ...errorRefs(400, 401, 403, 415, 422) },
      },
      handle: async (request, run) => {
        const input = readWritable<{ mtaHostname: string; adminEmail: string; quarantineSender: string }>(appliance, bodyObject(request));
        const data = await run(UpdateApplianceSettingsDocument, { input });
        return singletonResult(appliance, data.updateApplianceSettings, request.format);
      },
    },
  ]),
  route("/appliance/apply-settings", [{
    methods: ["POST"], auth: true, resource: applyResult,
    openapi: {
      operationId: "applySettings", tags: ["Appliance"], security: SECURITY,
      summary: "Applies pending configuration changes; required after any configuration change for it to take effect (5.3.0).",
      description: "Synchronous: answers 200 once every pending section is in force (status applied, with the sections), or 200 with status up-to-date when nothing was pending. No body.",
      responses: { 200: { description: "Apply result", content: { "application/json": { schema: { $ref: "#/components/schemas/ApplySettings" } } } }, ...errorRefs(401, 403) },
    },
    handle: async (_request, run) => {
      const { applySettings } = await run(ApplySettingsDocument, {});
      return { body: { status: applySettings.status === "applied" ? "applied" : "up-to-date", appliedSections: applySettings.appliedSections, appliedAt: applySettings.appliedAt } };
    },
  }]),
  route("/audit-log", [{
    methods: ["GET"], auth: true, negotiate: true, resource: auditEntry, openapi: collectionOperation(auditEntry),
    handle: async (request, run) => {
      const { variables, filtered } = parseCollectionQuery(auditEntry, request.query);
      const { auditEntries } = await run(AuditEntriesDocument, variables);
      return collectionResult(withChangeset, { ...auditEntries, items: auditEntries.items.map(auditItem) }, request, filtered);
    },
  }]),
  route("/audit-log/{id}", [{
    methods: ["GET"], auth: true, negotiate: true, resource: auditEntry, openapi: itemOperation(auditEntry),
    handle: async (request, run) => {
      const id = Number(request.pathParams.id);
      if (id > 2 ** 31 - 1) throw new GatewayProblem(404, "Not Found");
      const { auditEntry: entry } = await run(AuditEntryDocument, { id });
      if (!entry) throw new GatewayProblem(404, "Not Found");
      return itemResult(withChangeset, auditItem(entry), request.format);
    },
  }], { id: "\\d+" }),
  collectionRoute(gatewayEvent, {
    operation: GatewayEventsDocument,
    variables: (query) => query,
    page: (data) => ({ ...data.gatewayEvents, items: data.gatewayEvents.items.map(eventItem) }),
  }),
  itemRoute(gatewayEvent, {
    operation: GatewayEventDocument,
    variables: (id) => ({ id }),
    item: (data) => (data.gatewayEvent ? eventItem(data.gatewayEvent) : null),
  }),
]);
