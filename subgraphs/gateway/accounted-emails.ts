// Licensing: accounted email addresses (GET /licensing/accounted-email). An address is
// accounted once it has sent or received scanned mail; the record keeps first and last seen
// and the delivery count (5.3.5), and expires 30 days after it was last seen. Functional
// users (shared mailboxes, groups) and addresses seen on a single day only do not count.
import type { Database } from "../../lib/db.ts";
import type { AccountedEmail, Prisma } from "../../generated/prisma/client.ts";
import { buildCollectionQuery, violationError, type FieldSpec, type FilterCondition, type OrderCondition } from "./filters.ts";
import { pageWindow } from "./pagination.ts";

export type { AccountedEmail };

export const ACCOUNTED_EMAIL_TYPES = ["address", "mailbox", "functional"] as const;
export type AccountedEmailType = (typeof ACCOUNTED_EMAIL_TYPES)[number];

export const EXPIRY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** RFC 5321's path limit; the gateway rejects longer addresses (seed §8). */
export const MAX_ADDRESS_LENGTH = 254;

/** Filterable and sortable properties, by their API names (the address is called `email`, as the seed's filter is). */
export const ACCOUNTED_EMAIL_FIELDS: Record<string, FieldSpec> = {
  id: { column: "id", kind: "integer" },
  email: { column: "address", kind: "address" },
  domain: { column: "domain", kind: "address" },
  type: { column: "type", kind: "choice", choices: ACCOUNTED_EMAIL_TYPES },
  accounted: { column: "accounted", kind: "boolean" },
  deliveryCount: { column: "deliveryCount", kind: "integer" },
  firstSeenOn: { column: "firstSeenOn", kind: "datetime" },
  lastSeenOn: { column: "lastSeenOn", kind: "datetime" },
  expiresOn: { column: "expiresOn", kind: "datetime" },
};

export interface AccountedEmailQuery {
  filter?: Record<string, FilterCondition[] | null | undefined> | null;
  order?: OrderCondition[] | null;
  page: number;
  itemsPerPage: number;
}

export interface AccountedEmailPage { items: AccountedEmail[]; totalItems: number; page: number; itemsPerPage: number }

/** One page and the size of the whole filtered set: two statements, whatever the page size. */
export async function listAccountedEmails(db: Database, query: AccountedEmailQuery): Promise<AccountedEmailPage> {
  // filters.ts builds clauses by column name; the field table above names only real columns.
  const built = buildCollectionQuery(ACCOUNTED_EMAIL_FIELDS, query.filter, query.order);
  const where = { AND: built.where } as Prisma.AccountedEmailWhereInput;
  const orderBy = built.orderBy as Prisma.AccountedEmailOrderByWithRelationInput[];
  const window = pageWindow(query.page, query.itemsPerPage);
  const [items, totalItems] = await Promise.all([
    db.prisma.accountedEmail.findMany({ where, orderBy, skip: window.skip, take: window.take }),
    db.prisma.accountedEmail.count({ where }),
  ]);
  return { items, totalItems, page: window.page, itemsPerPage: window.itemsPerPage };
}

/** Records by id, in the order asked (null where missing): the batch function of the per-request loader. */
export async function accountedEmailsByIds(db: Database, ids: readonly number[]): Promise<(AccountedEmail | null)[]> {
  const rows = await db.prisma.accountedEmail.findMany({ where: { id: { in: [...ids] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** Whether a record counts toward the licence: not a functional user, and seen on more than one day. */
export function countsTowardLicence(type: string, firstSeenOn: Date, lastSeenOn: Date): boolean {
  return type !== "functional" && utcDay(firstSeenOn) !== utcDay(lastSeenOn);
}

export const expiryOf = (lastSeenOn: Date): Date => new Date(lastSeenOn.getTime() + EXPIRY_DAYS * DAY_MS);

export interface Delivery { address: string; type?: AccountedEmailType; at?: Date }

/** Accounts one successful delivery for an address (the nightly accounting calls this per delivery). */
export async function recordDelivery(db: Database, delivery: Delivery): Promise<AccountedEmail> {
  const address = delivery.address.trim().toLowerCase();
  if (address.length > MAX_ADDRESS_LENGTH || !/^[^@\s]+@[^@\s]+$/.test(address)) {
    throw violationError([{ propertyPath: "email", message: `"${address.slice(0, 64)}" is not a valid email address of at most ${MAX_ADDRESS_LENGTH} characters.` }]);
  }
  const at = delivery.at ?? new Date();
  const existing = await db.prisma.accountedEmail.findUnique({ where: { address } });
  if (!existing) {
    const type = delivery.type ?? "address";
    return db.prisma.accountedEmail.create({
      data: {
        address, type, domain: address.slice(address.lastIndexOf("@") + 1),
        firstSeenOn: at, lastSeenOn: at, deliveryCount: 1, expiresOn: expiryOf(at), accounted: countsTowardLicence(type, at, at),
      },
    });
  }
  const type = delivery.type ?? existing.type;
  const firstSeenOn = at < existing.firstSeenOn ? at : existing.firstSeenOn;
  const lastSeenOn = at > existing.lastSeenOn ? at : existing.lastSeenOn;
  return db.prisma.accountedEmail.update({
    where: { id: existing.id },
    data: {
      type, firstSeenOn, lastSeenOn, expiresOn: expiryOf(lastSeenOn),
      deliveryCount: { increment: 1 }, accounted: countsTowardLicence(type, firstSeenOn, lastSeenOn),
    },
  });
}
