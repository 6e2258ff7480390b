// Messages: the filtered, ordered, paged list (GET /messages), one message (GET /message/{id}) and
// the per-request loaders behind Message's fields. Filters are the gateway grammar
// (lib/gateway/collection-rules.ts) over the message's columns and, for recipient / email / URI
// host, over its address and host rows. Pages are offset pages or keyset pages (`after`), both
// ordered by the declared keys then the id, each served by an index ending (receivedOn, id).
import type { GatewayMessage, Prisma } from "../../../generated/prisma/client.ts";
import type { MessageField, MessageFilter, MessageOrder } from "../../../generated/graphql/gateway-resolvers.ts";
import { domainError } from "../../../lib/errors.ts";
import {
  isViolation, pageWindow, parseCondition, parseDirection, violationError, type Direction, type Violation,
} from "../../../lib/gateway/collection-rules.ts";
import { DELIVERY_RESULTS, MESSAGE_DIRECTIONS, MESSAGE_RESULTS, MESSAGE_STATES } from "../../../lib/gateway/messages.ts";
import { buildCollectionQuery, type ColumnSpec, type FilterInput } from "../collection-query.ts";
import type { GatewayContext } from "../context.ts";
import { COUNTED_COLUMNS, MESSAGE_COUNTER, counterName, type CountedColumn } from "./ingest.ts";
import { purgeExpiredWorkerMail } from "./retention.ts";
import { mailScope, scopeWhere, showsEnvelope, type MailScope } from "./scope.ts";

/** A message as the caller may see it: the row, and whether the envelope is shown (§1.11). */
export interface MessageView { row: GatewayMessage; envelope: boolean }

type ScalarFilter = Exclude<keyof MessageFilter, "recipient" | "email" | "uriHost">;

/** Filterable columns by their API names; keyed by the schema's filter fields, so a rename fails `tsc`. */
const COLUMNS: Record<ScalarFilter, ColumnSpec<GatewayMessage>> = {
  id: { column: "id", type: "string" },
  messageId: { column: "messageId", type: "string" },
  sender: { column: "sender", type: "string", format: "email" },
  headerFrom: { column: "headerFromAddress", type: "string", format: "email" },
  subject: { column: "subject", type: "string" },
  senderIp: { column: "senderIp", type: "string" },
  hostname: { column: "hostname", type: "string" },
  nodeId: { column: "nodeId", type: "string" },
  direction: { column: "direction", type: "enum", values: MESSAGE_DIRECTIONS },
  result: { column: "result", type: "enum", values: MESSAGE_RESULTS },
  deliveryResult: { column: "deliveryResult", type: "enum", values: DELIVERY_RESULTS },
  state: { column: "state", type: "enum", values: MESSAGE_STATES },
  quarantined: { column: "quarantined", type: "boolean" },
  hasAttachments: { column: "hasAttachments", type: "boolean" },
  size: { column: "size", type: "integer" },
  receivedOn: { column: "receivedOn", type: "datetime" },
  sentOn: { column: "sentOn", type: "datetime" },
};

/** Columns ingest stores lower-cased (addresses, hostnames): their equality needs no LOWER(). */
const LOWERED: Partial<Record<keyof MessageFilter, "sender" | "headerFromAddress" | "hostname">> = {
  sender: "sender", headerFrom: "headerFromAddress", hostname: "hostname",
};

/** Filters over the rows beside the message: the address rows (by role) and the URI host rows. */
const RELATED = {
  recipient: { spec: { type: "string", format: "email" }, where: (c: Prisma.GatewayMessageAddressWhereInput): Prisma.GatewayMessageWhereInput => ({ addresses: { some: { role: "recipient", ...c } } }) },
  email: { spec: { type: "string", format: "email" }, where: (c: Prisma.GatewayMessageAddressWhereInput): Prisma.GatewayMessageWhereInput => ({ addresses: { some: { role: { in: ["sender", "recipient"] }, ...c } } }) },
  uriHost: { spec: { type: "string" }, where: (c: Prisma.GatewayMessageUriHostWhereInput): Prisma.GatewayMessageWhereInput => ({ hosts: { some: c } }) },
} as const;

/** Sort keys: the column and its type (keyset cursors carry their values). */
const SORTS: Record<MessageField, { column: "id" | "receivedOn" | "sentOn" | "size" | "subject" | "sender"; type: "string" | "datetime" | "integer" }> = {
  id: { column: "id", type: "string" },
  receivedOn: { column: "receivedOn", type: "datetime" },
  sentOn: { column: "sentOn", type: "datetime" },
  size: { column: "size", type: "integer" },
  subject: { column: "subject", type: "string" },
  sender: { column: "sender", type: "string" },
};

export interface MessageQuery {
  filter?: MessageFilter | null;
  order?: readonly MessageOrder[] | null;
  page: number;
  itemsPerPage: number;
  after?: string | null;
}

export interface MessagePage { items: MessageView[]; totalItems: number; page: number; itemsPerPage: number; endCursor: string | null }

type SortKey = { column: (typeof SORTS)[MessageField]["column"]; type: string; direction: Direction };

function relatedWhere(name: keyof typeof RELATED, conditions: readonly FilterInput[], violations: Violation[]): Prisma.GatewayMessageWhereInput[] {
  const column = name === "uriHost" ? "host" : "address";
  const out: Prisma.GatewayMessageWhereInput[] = [];
  for (const condition of conditions) {
    const parsed = parseCondition(name, RELATED[name].spec, condition.operator ?? "eq", condition.value);
    if (isViolation(parsed)) { violations.push(parsed); continue; }
    // The related rows hold normalised (lower-case) values: compare exactly, through their index.
    const lower = (v: unknown) => String(v).toLowerCase();
    const values = Array.isArray(parsed.value) ? parsed.value.map(lower) : [lower(parsed.value)];
    const like = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);
    const c = ((): Record<string, unknown> | undefined => {
      switch (parsed.operator) {
        case "eq": case "in": return { [column]: { in: values } };
        case "contains": return { [column]: { contains: like(values[0]) } };
        case "start": return { [column]: { startsWith: like(values[0]) } };
        case "end": return { [column]: { endsWith: like(values[0]) } };
        default: return undefined;
      }
    })();
    if (c) { out.push(RELATED[name].where(c as never)); continue; }
    // neq / ncontains: no related row matches.
    const positive = parsed.operator === "neq" ? { [column]: { in: values } } : { [column]: { contains: like(values[0]) } };
    out.push({ NOT: RELATED[name].where(positive as never) });
  }
  return out;
}

function orderKeys(order: readonly MessageOrder[] | null | undefined, violations: Violation[]): SortKey[] {
  const keys: SortKey[] = [];
  for (const { field, direction } of order?.length ? order : [{ field: "receivedOn" as const, direction: "desc" }]) {
    const dir = parseDirection(field, direction ?? "asc");
    if (isViolation(dir)) { violations.push(dir); continue; }
    if (!keys.some((k) => k.column === SORTS[field].column)) keys.push({ ...SORTS[field], direction: dir });
  }
  // The id breaks ties, in the direction of the last key, so one index serves both directions.
  if (!keys.some((k) => k.column === "id")) keys.push({ column: "id", type: "string", direction: keys.at(-1)?.direction ?? "desc" });
  return keys;
}

const encodeCursor = (values: unknown[]): string => Buffer.from(JSON.stringify(values)).toString("base64url");

function decodeCursor(cursor: string, keys: SortKey[]): unknown[] {
  let values: unknown;
  try { values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")); } catch { values = undefined; }
  const ok = Array.isArray(values) && values.length === keys.length && keys.every((k, i) => {
    const v = (values as unknown[])[i];
    return k.type === "integer" ? typeof v === "number" : typeof v === "string";
  });
  if (!ok) throw domainError("BAD_USER_INPUT", { message: "The cursor does not belong to this order; start again without `after`." });
  return (values as unknown[]).map((v, i) => keys[i].type === "datetime" ? new Date(v as string) : v);
}

/** Rows after the cursor's position: (k1 > v1) OR (k1 = v1 AND k2 > v2) OR …, each in its direction. */
function keysetWhere(keys: SortKey[], values: unknown[]): Prisma.GatewayMessageWhereInput {
  return {
    OR: keys.map((key, i) => ({
      AND: [
        ...keys.slice(0, i).map((k, j) => ({ [k.column]: values[j] })),
        { [key.column]: { [key.direction === "asc" ? "gt" : "lt"]: values[i] } },
      ],
    })),
  };
}

function cursorOf(row: GatewayMessage, keys: SortKey[]): string {
  return encodeCursor(keys.map((k) => {
    const v = row[k.column];
    return v instanceof Date ? v.toISOString() : v;
  }));
}

/** Characters of the subject its key holds (migration 20261124120000_message_subject_key). */
const SUBJECT_KEY_LENGTH = 200;

/**
 * The subject prefix as a range of the subject's key, lower(left(subject, 200)) in code point
 * order: key >= lower(prefix) AND key < the same with its last character incremented, which the
 * (subjectKey, receivedOn, id) index answers without visiting the table. ILIKE compares lower()
 * of both sides, so for a printable ASCII prefix of at most 200 characters (where JavaScript's
 * and PostgreSQL's lower() agree) the range is exactly the ILIKE 'prefix%' and replaces it
 * (`exact`); a longer one is narrowed by its first 200 characters and the ILIKE decides; any
 * other prefix keeps the ILIKE alone.
 */
function subjectPrefixRange(raw: string): { where: Prisma.GatewayMessageWhereInput[]; exact: boolean } {
  const prefix = raw.toLowerCase().slice(0, SUBJECT_KEY_LENGTH);
  if (!/^[\x20-\x7e]+$/.test(prefix)) return { where: [], exact: false };
  const next = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return { where: [{ subjectKey: { gte: prefix, lt: next } }], exact: raw.length <= SUBJECT_KEY_LENGTH };
}

/** The `where` of a filter (every violation in one 422). */
export function messageWhere(filter: MessageFilter | null | undefined): Prisma.GatewayMessageWhereInput[] {
  const violations: Violation[] = [];
  const where: Prisma.GatewayMessageWhereInput[] = [];
  const scalar: Partial<Record<ScalarFilter, readonly FilterInput[] | null>> = {};
  for (const [name, conditions] of Object.entries(filter ?? {}) as [keyof MessageFilter, readonly FilterInput[] | null][]) {
    if (!conditions) continue;
    if (name in RELATED) { where.push(...relatedWhere(name as keyof typeof RELATED, conditions, violations)); continue; }
    const lowered = LOWERED[name];
    const rest: FilterInput[] = [];
    for (const condition of conditions) {
      const operator = condition.operator ?? "eq";
      // Stored lower-cased: equality compares the lower-cased value exactly, through the column's index
      // (a case-insensitive LOWER(column) = … could not use it).
      if (lowered && (operator === "eq" || operator === "in" || operator === "neq")) {
        const parsed = parseCondition(name, COLUMNS[name as ScalarFilter], operator, condition.value);
        if (isViolation(parsed)) { violations.push(parsed); continue; }
        const values = (Array.isArray(parsed.value) ? parsed.value : [parsed.value]).map((v) => String(v).trim().toLowerCase());
        where.push(operator === "neq" ? { NOT: { [lowered]: { in: values } } } : { [lowered]: { in: values } });
      } else if (name === "subject" && operator === "start") {
        // A subject prefix: a range of the subject's key, and the ILIKE only where the range is not exact.
        const range = subjectPrefixRange(condition.value);
        where.push(...range.where);
        if (!range.exact) rest.push(condition);
      } else rest.push(condition);
    }
    if (rest.length) scalar[name as ScalarFilter] = rest;
  }
  try {
    where.push(...(buildCollectionQuery(COLUMNS, scalar, []).where as Prisma.GatewayMessageWhereInput[]));
  } catch (error) {
    const data = (error as { extensions?: { data?: { violations?: Violation[] } } }).extensions?.data;
    if (!data?.violations) throw error;
    violations.push(...data.violations);
  }
  if (violations.length) throw violationError(violations);
  return where;
}

/** One page and the honest size of the filtered set. */
export async function listMessages(ctx: Pick<GatewayContext, "db" | "identity">, query: MessageQuery): Promise<MessagePage> {
  const scope = await mailScope(ctx);
  await purgeExpiredWorkerMail(ctx);
  const window = pageWindow(query.after ? 1 : query.page, query.itemsPerPage);
  const violations: Violation[] = [];
  const keys = orderKeys(query.order, violations);
  let filters: Prisma.GatewayMessageWhereInput[];
  try {
    filters = messageWhere(query.filter);
  } catch (error) {
    const data = (error as { extensions?: { data?: { violations?: Violation[] } } }).extensions?.data;
    if (!data?.violations) throw error;
    violations.unshift(...data.violations);
    filters = [];
  }
  if (violations.length) throw violationError(violations);
  if (query.after && keys.some((k) => k.column === "sentOn")) {
    throw domainError("BAD_USER_INPUT", { message: "Keyset paging (after) is not available when ordering by sentOn, which may be empty; use page." });
  }
  const scoped = scopeWhere(scope);
  const where: Prisma.GatewayMessageWhereInput = { AND: [...(scoped ? [scoped] : []), ...filters] };
  const pageWhere: Prisma.GatewayMessageWhereInput = query.after ? { AND: [where, keysetWhere(keys, decodeCursor(query.after, keys))] } : where;
  const orderBy = keys.map((k) => ({ [k.column]: k.direction })) as Prisma.GatewayMessageOrderByWithRelationInput[];
  const [rows, totalItems] = await Promise.all([
    pageRows(ctx, { where: pageWhere, orderBy, skip: query.after ? 0 : window.skip, take: window.take + 1 }, !!query.filter?.subject?.some((c) => c.operator === "start")),
    countMessages(ctx, scope, query.filter, filters, where),
  ]);
  const more = rows.length > window.take;
  const items = rows.slice(0, window.take);
  return {
    items: items.map((row) => ({ row, envelope: showsEnvelope(scope) })),
    totalItems, page: window.page, itemsPerPage: window.itemsPerPage,
    endCursor: more && items.length ? cursorOf(items[items.length - 1], keys) : null,
  };
}

/**
 * A page of rows. With `idsFirst` (a subject prefix), the page's ids first, then their rows: the
 * (subjectKey, receivedOn, id) index yields the matches' ids and dates alone, where a page of
 * whole rows would read every match from the table to sort them by date. Other filters are
 * served in their order by their own indexes, and one statement is cheaper.
 */
async function pageRows(ctx: Pick<GatewayContext, "db">, page: Pick<Prisma.GatewayMessageFindManyArgs, "where" | "orderBy" | "skip" | "take">, idsFirst: boolean): Promise<GatewayMessage[]> {
  if (!idsFirst) return ctx.db.prisma.gatewayMessage.findMany(page);
  const ids = (await ctx.db.prisma.gatewayMessage.findMany({ ...page, select: { id: true } })).map((r) => r.id);
  if (!ids.length) return [];
  const byId = new Map((await ctx.db.prisma.gatewayMessage.findMany({ where: { id: { in: ids } } })).map((row) => [row.id, row]));
  // A message purged between the two statements is left out of the page.
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * An administrator's unfiltered total, or one filtered by a single equality on a counted column
 * (quarantined, state, result, direction), is a counter row ingest, purge, release and recall keep
 * in step; anything else is counted.
 */
async function countMessages(ctx: Pick<GatewayContext, "db">, scope: MailScope, filter: MessageFilter | null | undefined, filters: unknown[], where: Prisma.GatewayMessageWhereInput): Promise<number> {
  if (scope.kind === "all") {
    const name = counterFor(filter, filters.length);
    if (name) {
      const counter = await ctx.db.prisma.gatewayMessageCounter.findUnique({ where: { name } });
      return Number(counter?.value ?? 0n);
    }
  }
  return ctx.db.prisma.gatewayMessage.count({ where });
}

function counterFor(filter: MessageFilter | null | undefined, clauses: number): string | undefined {
  if (clauses === 0) return MESSAGE_COUNTER;
  const entries = Object.entries(filter ?? {}).filter(([, c]) => c && c.length);
  if (clauses !== 1 || entries.length !== 1) return undefined;
  const [name, conditions] = entries[0] as [string, readonly FilterInput[]];
  if (!(COUNTED_COLUMNS as readonly string[]).includes(name) || conditions.length !== 1 || (conditions[0].operator ?? "eq") !== "eq") return undefined;
  const raw = conditions[0].value;
  const value = name === "quarantined" ? (raw === "true" || raw === "1" ? "true" : "false") : raw;
  return counterName(name as CountedColumn, value);
}

/** One message in the caller's scope, or null. */
export async function findMessage(ctx: Pick<GatewayContext, "db" | "identity">, id: string, scope?: MailScope): Promise<MessageView | null> {
  const s = scope ?? await mailScope(ctx);
  await purgeExpiredWorkerMail(ctx);
  const scoped = scopeWhere(s);
  const row = await ctx.db.prisma.gatewayMessage.findFirst({ where: { AND: [{ id }, ...(scoped ? [scoped] : [])] } });
  return row ? { row, envelope: showsEnvelope(s) } : null;
}

/** Messages by id, in the order asked (null where missing): the batch function of a loader. */
export async function messagesByIds(ctx: Pick<GatewayContext, "db">, ids: readonly string[]): Promise<(GatewayMessage | null)[]> {
  const rows = await ctx.db.prisma.gatewayMessage.findMany({ where: { id: { in: [...ids] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
