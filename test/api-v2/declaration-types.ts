// Type-level checks of the /api/v2 declaration kit, run by `npm run typecheck` (nothing here
// executes). Each @ts-expect-error marks a mistake the kit must catch at compile time: should the
// kit stop catching it, the directive itself fails tsc.
import { AccountedEmailDocument, AccountedEmailsDocument } from "../../generated/graphql/operations.ts";
import { resource } from "../../router/rest/gateway/resource.ts";
import { collectionRoute, itemRoute } from "../../router/rest/gateway/resource-routes.ts";
import { accountedEmail } from "../../router/rest/gateway/resources/licensing.ts";

const { properties } = accountedEmail;
const item = { operation: AccountedEmailDocument, variables: (id: number) => ({ id }) } as const;
const collection = { operation: AccountedEmailsDocument, variables: <Q>(query: Q) => query } as const;

// The declaration as it stands binds.
itemRoute(accountedEmail, { ...item, item: (data) => data.accountedEmail });
collectionRoute(accountedEmail, { ...collection, page: (data) => data.accountedEmails });

// A property the operation does not select.
const unselected = resource({ ...accountedEmail, properties: { ...properties, nickname: { type: "string" } } });
// @ts-expect-error nickname is not in the item the graph answers
itemRoute(unselected, { ...item, item: (data) => data.accountedEmail });

// A property declared with another type than the graph's.
const mistyped = resource({ ...accountedEmail, properties: { ...properties, deliveryCount: { type: "string" } } });
// @ts-expect-error deliveryCount is an Int in the graph
itemRoute(mistyped, { ...item, item: (data) => data.accountedEmail });

// A filter the graph's filter input does not take (write-only, so only the filter is wrong).
const unfilterable = resource({ ...accountedEmail, properties: { ...properties, secret: { type: "string", writeOnly: true, filter: true } } });
// @ts-expect-error missingFilters: "secret"
collectionRoute(unfilterable, { ...collection, page: (data) => data.accountedEmails });

// An order the graph cannot sort by.
const unsortable = resource({ ...accountedEmail, properties: { ...properties, secret: { type: "string", writeOnly: true, order: true } } });
// @ts-expect-error "secret" is not an AccountedEmailField
collectionRoute(unsortable, { ...collection, page: (data) => data.accountedEmails });
