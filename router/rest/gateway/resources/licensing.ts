// Licensing (/api/v2/licensing/…): accounted email records, read-only. The subgraph's side is
// subgraphs/gateway/licensing/; the operations are licensing.graphql beside this file.
import { AccountedEmailDocument, AccountedEmailsDocument } from "../../../../generated/graphql/operations.ts";
import { ACCOUNTED_EMAIL_TYPES, EXPIRY_DAYS } from "../../../../lib/gateway/licensing.ts";
import { resource } from "../resource.ts";
import { collectionRoute, itemRoute } from "../resource-routes.ts";
import { restrictedTo, type GatewayRoute } from "../route.ts";

export const accountedEmail = resource({
  name: "AccountedEmail",
  description: "An address that sent or received scanned mail; the collection's filtered total is the licence count.",
  path: "/licensing/accounted-email",
  properties: {
    id: { type: "integer", readOnly: true, filter: true, order: true },
    email: { type: "string", format: "email", filter: true, order: true },
    type: { type: "enum", values: ACCOUNTED_EMAIL_TYPES, filter: true, order: true },
    domain: { type: "string", filter: true, order: true },
    firstSeenOn: { type: "datetime", filter: true, order: true },
    lastSeenOn: { type: "datetime", filter: true, order: true },
    deliveryCount: { type: "integer", filter: true, order: true },
    expiresOn: { type: "datetime", description: `lastSeenOn + ${EXPIRY_DAYS} days.`, filter: true, order: true },
    accounted: { type: "boolean", description: "Counts toward the licence.", filter: true, order: true },
  },
});

export const LICENSING_ROUTES: GatewayRoute[] = restrictedTo("admin", [
  collectionRoute(accountedEmail, {
    operation: AccountedEmailsDocument,
    variables: (query) => query,
    page: (data) => data.accountedEmails,
  }),
  itemRoute(accountedEmail, {
    operation: AccountedEmailDocument,
    variables: (id) => ({ id }),
    item: (data) => data.accountedEmail,
  }),
]);
