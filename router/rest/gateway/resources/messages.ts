// Messages (/api/v2/messages, /api/v2/message/{id}/…): the filtered list, one message, the
// report-as-good/bad actions and their deprecated submit-as-* aliases, release from quarantine,
// scan-analysis removal, attachment fetch, and the ingest route processed mail enters by. The
// subgraph's side is subgraphs/gateway/mail/; the operations are messages.graphql beside this file.
//
// Paths the seed does not show, chosen in the API's style: POST /messages/ingest (a batch of
// records), POST /message/{id}/release, POST /message/{id}/request-release (a user's request, an
// event for the administrators), POST /message/{id}/recall, DELETE /message/{id}/scan-analysis.
import {
  IngestMessagesDocument, MessageAttachmentContentDocument, MessageDocument, MessagesDocument,
  RecallMessageDocument, ReleaseMessageDocument, RemoveScanAnalysisDocument, ReportMessageDocument, RequestMessageReleaseDocument,
} from "../../../../generated/graphql/operations.ts";
import { violationError } from "../../../../lib/gateway/collection-rules.ts";
import { checkIngestBatch } from "../../../../lib/gateway/ingest-record.ts";
import { INGEST_LIMITS, DELIVERY_RESULTS, MESSAGE_DIRECTIONS, MESSAGE_RESULTS, MESSAGE_STATES, SUBMIT_DEPRECATED_SINCE } from "../../../../lib/gateway/messages.ts";
import { collectionResult, itemResult } from "../formats.ts";
import { collectionOperation, itemOperation, noContentOperation, type OpenApiOperation } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { parseCollectionQuery } from "../query.ts";
import { resource, type Property } from "../resource.ts";
import { API_BASE, route, type GatewayRoute } from "../route.ts";

const ID = "[A-Za-z0-9._-]{1,64}";

export const message = resource({
  name: "Message",
  description: "A processed message. For non-administrators `from` is the From header and the envelope (sender, recipients) is null (5.3 §1.11).",
  path: "/messages",
  itemPath: "/message",
  properties: {
    id: { type: "string", readOnly: true, filter: true, order: true, description: "The MTA's queue id." },
    receivedOn: { type: "datetime", filter: true, order: true },
    from: { type: "string", description: "The envelope sender for administrators, the From header for everyone else." },
    sender: { type: "string", format: "email", nullable: true, filter: true, order: true, description: "Envelope sender (empty for bounces)." },
    headerFrom: { type: "string", filter: true, description: "The From header; its filter matches the header's address." },
    recipients: { type: "string", format: "email", list: true, nullable: true, description: "Envelope recipients." },
    hostname: { type: "string", filter: true, description: "The cluster node that processed it (§1.12)." },
    direction: { type: "enum", values: MESSAGE_DIRECTIONS, filter: true },
    subject: { type: "string", filter: true, order: true },
    size: { type: "integer", filter: true, order: true, description: "Bytes." },
    hasAttachments: { type: "boolean", filter: true },
    quarantined: { type: "boolean", filter: true },
    state: { type: "enum", values: MESSAGE_STATES, filter: true },
    result: { type: "enum", values: MESSAGE_RESULTS, filter: true, description: "The scan verdict." },
    deliveryResult: { type: "enum", values: DELIVERY_RESULTS, filter: true },
    // Filters only: matched against the message's other data, never shown in the list.
    recipient: { type: "string", format: "email", filter: true, writeOnly: true, description: "Filter: an envelope recipient." },
    email: { type: "string", format: "email", filter: true, writeOnly: true, description: "Filter: the sender or a recipient." },
    uriHost: { type: "string", filter: true, writeOnly: true, description: "Filter: a host of a URI in the body (§1.12)." },
    nodeId: { type: "string", filter: true, writeOnly: true, description: "Filter: the unique id of the cluster node that processed it (§1.12)." },
    senderIp: { type: "string", filter: true, writeOnly: true, description: "Filter: the client IP." },
    messageId: { type: "string", filter: true, writeOnly: true, description: "Filter: the Message-ID header (shown on the item)." },
    sentOn: { type: "datetime", filter: true, order: true, writeOnly: true, description: "Filter: the Date header (shown on the item)." },
  },
});

/** The list's shown properties (the item starts from them). */
const LIST_PROPERTIES = Object.fromEntries(Object.entries(message.properties).filter(([, p]) => !("writeOnly" in p && p.writeOnly)));

/** The item adds what the list leaves out (email-gateway-api.md §4.1: keep the list light). */
const messageDetail = resource({
  name: "MessageDetail",
  path: "/messages",
  itemPath: "/message",
  properties: {
    ...(LIST_PROPERTIES as Record<string, Property>),
    messageId: { type: "string", nullable: true, description: "The Message-ID header." },
    sentOn: { type: "datetime", nullable: true, description: "The Date header." },
    senderIp: { type: "string", nullable: true },
    nodeId: { type: "string", nullable: true, description: "The unique id of the cluster node." },
    score: { type: "integer", nullable: true, description: "The spam score (a number)." },
    uriHosts: { type: "string", list: true },
    releasedAt: { type: "datetime", nullable: true },
    releasedBy: { type: "string", nullable: true },
    releaseSender: { type: "string", nullable: true, description: "The envelope sender the release used; empty for bounces." },
    attachments: { type: "string", list: true, description: "[{ position, name, contentType, size, sha256, stored }]" },
    scanAnalysis: { type: "string", nullable: true, description: "{ verdict, score, createdAt, engines: [{ engine, result, detail }] } or null once removed." },
    reports: { type: "string", list: true, description: "[{ id, kind, route, reportedBy, reportedAt, learning: [{ effect, subject, weight }] }]" },
  },
});

const idOf = (pathParams: Record<string, string>) => decodeURIComponent(pathParams.id);

/** RFC 9745 `Deprecation` (the date it was deprecated) and RFC 8594 `Link: rel="successor-version"`. */
function deprecationHeaders(id: string, successor: string): Record<string, string> {
  return {
    deprecation: `@${Math.floor(SUBMIT_DEPRECATED_SINCE.getTime() / 1000)}`,
    link: `<${API_BASE}/message/${encodeURIComponent(id)}/${successor}>; rel="successor-version"`,
  };
}

function reportRoute(action: "report-as-good" | "report-as-bad" | "submit-as-good" | "submit-as-bad"): GatewayRoute {
  const kind = action.endsWith("good") ? "good" as const : "bad" as const;
  const deprecated = action.startsWith("submit");
  const successor = `report-as-${kind}`;
  const openapi: OpenApiOperation = {
    ...noContentOperation({
      operationId: `${action.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase())}Message`,
      summary: deprecated ? `Deprecated alias of ${successor} (since 5.3.0): behaves the same and says so in a Deprecation header.` : `Reports the message as ${kind}; the learning is recorded on the message.`,
      tag: message.name, errors: [401, 404],
    }),
    ...(deprecated ? { deprecated: true } : {}),
    parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
  };
  return route(`/message/{id}/${action}`, [{
    methods: ["POST"], auth: true, openapi,
    handle: async (request, run) => {
      const id = idOf(request.pathParams);
      await run(ReportMessageDocument, { id, kind, route: action.replace(/-/g, "_") as never });
      return { status: 204, body: undefined, headers: deprecated ? deprecationHeaders(id, successor) : {} };
    },
  }], { id: ID });
}

/** A JSON body `{ messages: [...] }` or a bare array of records. */
function ingestBody(body: unknown): unknown[] {
  const records = Array.isArray(body) ? body : (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(records)) throw new GatewayProblem(400, 'The body must be an array of message records, or { "messages": [...] }.');
  if (records.length > INGEST_LIMITS.batch) {
    throw new GatewayProblem(422, `At most ${INGEST_LIMITS.batch} messages per call.`, [{ propertyPath: "messages", message: `At most ${INGEST_LIMITS.batch} messages per call.` }]);
  }
  // The subgraph checks again for every caller; checked here too so that values GraphQL's input
  // types would refuse (an unknown direction) come back as the same 422 violations, all at once.
  const { rejected } = checkIngestBatch(records);
  if (rejected.length) throw violationError(rejected.flatMap((r) => r.violations));
  return records;
}

const safeFilename = (name: string) => name.replace(/["\\\r\n]/g, "_");

export const MESSAGE_ROUTES: GatewayRoute[] = [
  route("/messages", [{
    methods: ["GET"], auth: true, negotiate: true, resource: message, openapi: collectionOperation(message),
    handle: async (request, run) => {
      const { variables, filtered } = parseCollectionQuery(message, request.query);
      // Without order parameters the subgraph's default applies (newest first).
      const data = await run(MessagesDocument, { ...variables, order: variables.order.length ? variables.order as never : undefined });
      return collectionResult(message, data.messages, request, filtered);
    },
  }]),
  route("/messages/ingest", [{
    methods: ["POST"], auth: true, access: "admin", body: true,
    openapi: {
      operationId: "ingestMessages", tags: [message.name],
      summary: "Ingests processed mail: messages, quarantine, licence accounting and restricted senders derive from it.",
      description: `A JSON array of message records (or { messages: [...] }), at most ${INGEST_LIMITS.batch}. Any violation refuses the whole call (422). Records whose id was already ingested are skipped. Administrators only.`,
      security: [{ esgToken: [] }],
      requestBody: { required: true, content: { "application/json": { schema: { type: "array", items: { type: "object" } } } } },
      responses: {
        200: { description: "What was stored", content: { "application/json": { schema: { type: "object", properties: Object.fromEntries(["ingested", "duplicates", "accountedDeliveries", "restrictedSenders"].map((k) => [k, { type: "integer" }])) } } } },
        ...Object.fromEntries([400, 401, 403, 415].map((s) => [String(s), { $ref: `#/components/responses/Error${s}` }])),
        422: { $ref: "#/components/responses/ConstraintViolations" },
      },
    },
    handle: async (request, run) => {
      const data = await run(IngestMessagesDocument, { messages: ingestBody(request.body) as never });
      return { body: data.ingestMessages };
    },
  }]),
  route("/message/{id}", [{
    methods: ["GET"], auth: true, negotiate: true, resource: messageDetail, openapi: itemOperation(messageDetail),
    handle: async (request, run) => {
      const data = await run(MessageDocument, { id: idOf(request.pathParams) });
      if (!data.message) throw new GatewayProblem(404, "Not Found");
      return itemResult(messageDetail, data.message, request.format);
    },
  }], { id: ID }),
  reportRoute("report-as-good"),
  reportRoute("report-as-bad"),
  reportRoute("submit-as-good"),
  reportRoute("submit-as-bad"),
  route("/message/{id}/release", [{
    methods: ["POST"], auth: true, access: "mailAdmin",
    openapi: {
      ...noContentOperation({ operationId: "releaseMessage", summary: "Releases a quarantined message to its recipients, keeping its envelope sender (empty for bounces). 409 when not in quarantine.", tag: message.name, errors: [401, 403, 404] }),
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    },
    handle: async (request, run) => {
      await run(ReleaseMessageDocument, { id: idOf(request.pathParams) });
      return { status: 204, body: undefined };
    },
  }], { id: ID }),
  route("/message/{id}/request-release", [{
    methods: ["POST"], auth: true,
    openapi: {
      ...noContentOperation({ operationId: "requestMessageRelease", summary: "Asks the administrators to release a message of the caller's mail from quarantine (a release-request event, naming the caller by full name or username). 409 when not in quarantine.", tag: message.name, errors: [401, 404] }),
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    },
    handle: async (request, run) => {
      await run(RequestMessageReleaseDocument, { id: idOf(request.pathParams) });
      return { status: 204, body: undefined };
    },
  }], { id: ID }),
  route("/message/{id}/recall", [{
    methods: ["POST"], auth: true, access: "mailAdmin",
    openapi: {
      ...noContentOperation({ operationId: "recallMessage", summary: "Recalls a delivered message from the mailboxes (threat remediation, §1.13). 409 when it was not delivered or is already recalled.", tag: message.name, errors: [401, 403, 404] }),
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    },
    handle: async (request, run) => {
      await run(RecallMessageDocument, { id: idOf(request.pathParams) });
      return { status: 204, body: undefined };
    },
  }], { id: ID }),
  route("/message/{id}/scan-analysis", [{
    methods: ["DELETE"], auth: true, access: "mailAdmin",
    openapi: {
      ...noContentOperation({ operationId: "removeMessageScanAnalysis", summary: "Removes the message's scan analysis record (administrators and domain administrators only, 5.3 §1.14).", tag: message.name, errors: [401, 403, 404] }),
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    },
    handle: async (request, run) => {
      await run(RemoveScanAnalysisDocument, { id: idOf(request.pathParams) });
      return { status: 204, body: undefined };
    },
  }], { id: ID }),
  route("/message/{id}/fetch/{attachment}", [{
    methods: ["GET"], auth: true,
    openapi: {
      operationId: "fetchMessageAttachment", tags: [message.name],
      summary: "Fetches an attachment (by 0-based position or file name); only while the message is stored in quarantine (5.3.2).",
      security: [{ esgToken: [] }],
      parameters: [
        { name: "id", in: "path", required: true, schema: { type: "string" } },
        { name: "attachment", in: "path", required: true, schema: { type: "string" } },
      ],
      responses: {
        200: { description: "The attachment's bytes, with its media type", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
        401: { $ref: "#/components/responses/Error401" }, 404: { $ref: "#/components/responses/Error404" },
      },
    },
    handle: async (request, run) => {
      const id = idOf(request.pathParams);
      const wanted = decodeURIComponent(request.pathParams.attachment);
      const data = await run(MessageAttachmentContentDocument, { id });
      const attachment = data.message?.attachments.find((a) => /^\d+$/.test(wanted) ? a.position === Number(wanted) : a.name === wanted);
      if (!data.message || !attachment) throw new GatewayProblem(404, "Not Found");
      if (attachment.content === null) throw new GatewayProblem(404, "The message is not stored in quarantine.");
      const bytes = Buffer.from(attachment.content, "base64");
      return {
        body: new Uint8Array(bytes),
        headers: {
          "content-type": attachment.contentType,
          "content-length": String(bytes.length),
          "content-disposition": `attachment; filename="${safeFilename(attachment.name)}"; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
          "x-content-type-options": "nosniff",
        },
      };
    },
  }], { id: ID, attachment: "[^/]+" }),
];
