// Licensing: accounted email addresses (GET /licensing/accounted-email). An address is
// accounted once it has sent or received scanned mail; the record keeps first and last seen
// and the delivery count (5.3.5), and expires 30 days after it was last seen. Functional
// users (shared mailboxes, groups) and addresses seen on a single day only do not count. The
// records are written only by ingest (mail/ingest.ts, one set-based upsert per batch); this module
// reads them.
import type { AccountedEmail, Prisma } from "../../../generated/prisma/client.ts";
import type { AccountedEmailField, AccountedEmailFilter, AccountedEmailOrder } from "../../../generated/graphql/gateway-resolvers.ts";
import { pageWindow } from "../../../lib/gateway/collection-rules.ts";
import { ACCOUNTED_EMAIL_TYPES } from "../../../lib/gateway/licensing.ts";
import type { GatewayContext } from "../context.ts";
import { buildCollectionQuery, type ColumnSpec } from "../collection-query.ts";

export type { AccountedEmail };

/**
 * Filterable and sortable properties, by their API names (the address is called `email`, as the
 * seed's filter is): keyed by the schema's filter fields and sort enum, so renaming either in
 * licensing.graphql fails `tsc` here.
 */
const COLUMNS: Record<keyof AccountedEmailFilter | AccountedEmailField, ColumnSpec<AccountedEmail>> = {
  id: { column: "id", type: "integer" },
  email: { column: "address", type: "string", format: "email" },
  domain: { column: "domain", type: "string" },
  type: { column: "type", type: "enum", values: ACCOUNTED_EMAIL_TYPES },
  accounted: { column: "accounted", type: "boolean" },
  deliveryCount: { column: "deliveryCount", type: "integer" },
  firstSeenOn: { column: "firstSeenOn", type: "datetime" },
  lastSeenOn: { column: "lastSeenOn", type: "datetime" },
  expiresOn: { column: "expiresOn", type: "datetime" },
};

export interface AccountedEmailQuery {
  filter?: AccountedEmailFilter | null;
  order?: readonly AccountedEmailOrder[] | null;
  page: number;
  itemsPerPage: number;
}

export interface AccountedEmailPage { items: AccountedEmail[]; totalItems: number; page: number; itemsPerPage: number }

/** One page and the size of the whole filtered set: two statements, whatever the page size. */
export async function listAccountedEmails(ctx: Pick<GatewayContext, "db">, query: AccountedEmailQuery): Promise<AccountedEmailPage> {
  const window = pageWindow(query.page, query.itemsPerPage);
  const built = buildCollectionQuery(COLUMNS, query.filter, query.order);
  // The clauses name only columns of COLUMNS, which are typed against the model.
  const where = { AND: built.where } as Prisma.AccountedEmailWhereInput;
  const orderBy = built.orderBy as Prisma.AccountedEmailOrderByWithRelationInput[];
  const [items, totalItems] = await Promise.all([
    ctx.db.prisma.accountedEmail.findMany({ where, orderBy, skip: window.skip, take: window.take }),
    ctx.db.prisma.accountedEmail.count({ where }),
  ]);
  return { items, totalItems, page: window.page, itemsPerPage: window.itemsPerPage };
}

/** Records by id, in the order asked (null where missing): the batch function of the per-request loader. */
export async function accountedEmailsByIds(ctx: Pick<GatewayContext, "db">, ids: readonly number[]): Promise<(AccountedEmail | null)[]> {
  const rows = await ctx.db.prisma.accountedEmail.findMany({ where: { id: { in: [...ids] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
