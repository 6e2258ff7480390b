// Restricted senders (/api/v2/restricted-sender): senders held back after their outbound mail was
// caught, derived from ingested mail; filterable by sender (5.3.5). DELETE lifts a restriction.
// The subgraph's side is subgraphs/gateway/restricted-senders/.
import { LiftSenderRestrictionDocument, RestrictedSenderDocument, RestrictedSendersDocument } from "../../../../generated/graphql/operations.ts";
import { INT32_MAX } from "../../../../lib/gateway/collection-rules.ts";
import { RESTRICTION_REASONS } from "../../../../lib/gateway/messages.ts";
import { collectionResult, itemResult } from "../formats.ts";
import { collectionOperation, itemOperation, noContentOperation } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { parseCollectionQuery } from "../query.ts";
import { resource } from "../resource.ts";
import { restrictedTo, route, type GatewayRoute } from "../route.ts";

export const restrictedSender = resource({
  name: "RestrictedSender",
  description: "A local sender held back after its outbound mail was found to be spam, a virus or phishing.",
  path: "/restricted-sender",
  properties: {
    id: { type: "integer", readOnly: true, filter: true, order: true },
    sender: { type: "string", format: "email", filter: true, order: true },
    reason: { type: "enum", values: RESTRICTION_REASONS, filter: true },
    restrictedAt: { type: "datetime", filter: true, order: true },
    lastMessageAt: { type: "datetime", filter: true, order: true },
    messageCount: { type: "integer", filter: true, order: true },
    lastMessageId: { type: "string", nullable: true },
  },
});

/** The graph spells reasons as enum values (outbound_spam); the API with dashes. */
const shown = <T extends { reason: string }>(item: T) => ({ ...item, reason: item.reason.replace(/_/g, "-") });

const notFound = () => new GatewayProblem(404, "Not Found");

export const RESTRICTED_SENDER_ROUTES: GatewayRoute[] = restrictedTo("mailAdmin", [
  route("/restricted-sender", [{
    methods: ["GET"], auth: true, negotiate: true, resource: restrictedSender, openapi: collectionOperation(restrictedSender),
    handle: async (request, run) => {
      const { variables, filtered } = parseCollectionQuery(restrictedSender, request.query);
      const data = await run(RestrictedSendersDocument, variables as never);
      const page = data.restrictedSenders;
      return collectionResult(restrictedSender, { ...page, items: page.items.map(shown) }, request, filtered);
    },
  }]),
  route("/restricted-sender/{id}", [
    {
      methods: ["GET"], auth: true, negotiate: true, resource: restrictedSender, openapi: itemOperation(restrictedSender),
      handle: async (request, run) => {
        const id = Number(request.pathParams.id);
        if (id > INT32_MAX) throw notFound();
        const data = await run(RestrictedSenderDocument, { id });
        if (!data.restrictedSender) throw notFound();
        return itemResult(restrictedSender, shown(data.restrictedSender), request.format);
      },
    },
    {
      methods: ["DELETE"], auth: true,
      openapi: { ...noContentOperation({ operationId: "liftSenderRestriction", summary: "Lifts the restriction.", tag: restrictedSender.name, errors: [401, 403, 404] }), parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }] },
      handle: async (request, run) => {
        const id = Number(request.pathParams.id);
        if (id > INT32_MAX) throw notFound();
        await run(LiftSenderRestrictionDocument, { id });
        return { status: 204, body: undefined };
      },
    },
  ], { id: "\\d+" }),
]);
