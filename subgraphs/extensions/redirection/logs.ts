// The redirect log and the 404 log (Red_Redirect_Log, Red_404_Log): filtered lists, grouped
// counts, bulk deletes, and the rows the matcher writes (with the insert limits).
import { isIP } from "node:net";
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { ExtensionsContext } from "../context.ts";
export { LOG_FILTERS, NOT_FOUND_FILTERS, LOG_ORDERBY } from "./values.ts";
import { requireRedirection } from "./permissions.ts";
import { siteDate, siteTime } from "./records.ts";
import { paging, type ListInput } from "./redirects.ts";

export type LogKind = "LOG" | "NOT_FOUND";

export const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"];

export interface LogEntryView {
  id: number; created: string; createdTime: string; url: string; agent: string; referrer: string; domain: string; ip: string;
  httpCode: number; requestMethod: string; requestData: unknown; sentTo: string | null; redirectionId: number | null;
  redirectBySlug: string | null; redirectBy: string | null;
}
export interface LogGroupView { count: number; value: string }
export interface LogPage { items: LogEntryView[]; groups: LogGroupView[] | null; total: number }

interface LogRowShape {
  id: number; created: Date; url: string; domain: string | null; agent: string | null; referrer: string | null; ip: string | null;
  httpCode: number; requestMethod: string | null; requestData: string | null;
  sentTo?: string | null; redirectionId?: number | null; redirectBy?: string | null;
}

/** get_redirect_name: `wordpress` is WordPress, anything else PHP's ucwords (words split by whitespace). */
const titleCase = (slug: string) => (slug === "wordpress" ? "WordPress" : slug.replace(/(^|[\s])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase()));

function decodeRequestData(data: string | null): unknown {
  if (!data) return "";
  try {
    return JSON.parse(data);
  } catch {
    return "";
  }
}

export function logView(row: LogRowShape, kind: LogKind): LogEntryView {
  const base = {
    id: row.id, created: siteDate(row.created), createdTime: siteTime(row.created), url: row.url, agent: row.agent ?? "",
    referrer: row.referrer ?? "", domain: row.domain ?? "", ip: row.ip ?? "", httpCode: row.httpCode, requestMethod: row.requestMethod ?? "",
    requestData: decodeRequestData(row.requestData),
  };
  if (kind === "NOT_FOUND") return { ...base, sentTo: null, redirectionId: null, redirectBySlug: null, redirectBy: null };
  const slug = row.redirectBy ?? "";
  return { ...base, sentTo: row.sentTo ?? "", redirectionId: row.redirectionId ?? 0, redirectBySlug: slug, redirectBy: titleCase(slug) };
}

type Where = Prisma.RedirectionLogWhereInput & Prisma.Redirection404WhereInput;

function logWhere(kind: LogKind, filterBy: Record<string, unknown> | null | undefined): Where {
  const filter = filterBy ?? {};
  const v = (k: string) => (filter[k] === undefined || filter[k] === null ? undefined : String(filter[k]));
  const and: Where[] = [];
  const ip = v("ip");
  if (ip !== undefined) and.push(isIP(ip) ? { ip } : { ip: { contains: ip } });
  if (v("url-exact") !== undefined) and.push({ url: v("url-exact") });
  else if (v("url") !== undefined) and.push({ url: { contains: v("url") } });
  if (v("referrer") !== undefined) and.push({ referrer: { contains: v("referrer") } });
  if (v("agent") !== undefined) and.push({ agent: { contains: v("agent") } });
  if (v("domain") !== undefined) and.push({ domain: { contains: v("domain") } });
  const method = v("method");
  if (method !== undefined && METHODS.includes(method)) and.push({ requestMethod: method });
  const http = Number(v("http"));
  if (v("http") !== undefined && Number.isInteger(http) && Math.abs(http) < 2 ** 31) and.push({ httpCode: http });
  if (kind === "LOG") {
    const extra: Prisma.RedirectionLogWhereInput[] = [];
    if (v("target") !== undefined) extra.push({ sentTo: { contains: v("target") } });
    if (v("redirect_by") !== undefined) extra.push({ redirectBy: v("redirect_by") });
    and.push(...(extra as Where[]));
  }
  return and.length ? { AND: and } : {};
}

const GROUP_COLUMNS: Record<string, "ip" | "url" | "agent"> = { ip: "ip", url: "url", agent: "agent", "url-exact": "url" };

export async function listLogs(ctx: ExtensionsContext, kind: LogKind, list: ListInput | null | undefined, groupBy?: string | null): Promise<LogPage> {
  requireRedirection(ctx);
  const where = logWhere(kind, list?.filterBy);
  const { take, skip, direction } = paging(list);
  const groupColumn = groupBy ? GROUP_COLUMNS[groupBy] : undefined;
  if (groupBy && groupColumn && (kind === "NOT_FOUND" || groupBy !== "url-exact")) {
    // SQL: count per value, ordered by the count then the value; total = distinct values.
    const all = kind === "LOG"
      ? await ctx.prisma.redirectionLog.groupBy({ by: [groupColumn], where: where as Prisma.RedirectionLogWhereInput, _count: { _all: true } })
      : await ctx.prisma.redirection404.groupBy({ by: [groupColumn], where: where as Prisma.Redirection404WhereInput, _count: { _all: true } });
    const groups = (all as unknown as (Record<string, string | null> & { _count: { _all: number } })[])
      .map((g) => ({ count: g._count._all, value: g[groupColumn] ?? "" }))
      // ORDER BY count <direction>, <column> (the value always ascending).
      .sort((a, b) => (a.count - b.count) * (direction === "asc" ? 1 : -1) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    return { items: [], groups: groups.slice(skip, skip + take), total: groups.length };
  }
  const column = list?.orderby === "ip" || list?.orderby === "url" ? list.orderby : "id";
  const orderBy = [{ [column]: direction }, ...(column === "id" ? [] : [{ id: direction }])];
  if (kind === "LOG") {
    const [rows, total] = await Promise.all([
      ctx.prisma.redirectionLog.findMany({ where, orderBy: orderBy as Prisma.RedirectionLogOrderByWithRelationInput[], take, skip }),
      ctx.prisma.redirectionLog.count({ where }),
    ]);
    return { items: rows.map((r) => logView(r, kind)), groups: null, total };
  }
  const [rows, total] = await Promise.all([
    ctx.prisma.redirection404.findMany({ where, orderBy: orderBy as Prisma.Redirection404OrderByWithRelationInput[], take, skip }),
    ctx.prisma.redirection404.count({ where }),
  ]);
  return { items: rows.map((r) => logView(r, kind)), groups: null, total };
}

/** POST /bulk/{log|404}/delete: numeric items by id, other items by the grouped value, or everything the filter matches. */
export async function deleteLogs(
  ctx: ExtensionsContext, kind: LogKind, items: readonly string[] | null | undefined, global: boolean | null | undefined,
  groupBy: string | null | undefined, list: ListInput | null | undefined,
): Promise<LogPage> {
  requireRedirection(ctx, "delete");
  const remove = (where: Where) => (kind === "LOG" ? ctx.prisma.redirectionLog.deleteMany({ where }) : ctx.prisma.redirection404.deleteMany({ where }));
  if (items) {
    for (const item of items) {
      if (/^\d+$/.test(item)) {
        if (Number(item) < 2 ** 31) await remove({ id: Number(item) });
      } else if (groupBy) await remove(groupBy === "ip" ? { ip: item } : groupBy === "agent" ? { agent: item } : { url: item });
    }
  } else if (global) {
    await remove(logWhere(kind, list?.filterBy));
  }
  // The answer is the list for the request's own parameters (grouped when they group); the 404
  // route drops a url-exact grouping first.
  return listLogs(ctx, kind, list, kind === "NOT_FOUND" && groupBy === "url-exact" ? null : groupBy);
}

/** A row for the redirect or 404 log, cut to the plugin's column limits. */
export interface LogInsert {
  created: Date; url: string; domain: string; agent: string; referrer: string; ip: string; httpCode: number; method: string;
  requestData?: unknown; sentTo?: string; redirectionId?: number; redirectBy?: string;
}

function cut(row: LogInsert) {
  let url = row.url;
  try { url = decodeURIComponent(url); } catch { /* kept */ }
  return {
    created: row.created, url: url.slice(0, 2000), domain: row.domain.slice(0, 255), agent: row.agent.slice(0, 255),
    referrer: row.referrer.slice(0, 255), ip: row.ip.slice(0, 45), httpCode: row.httpCode,
    requestMethod: METHODS.includes(row.method) ? row.method : "",
    requestData: row.requestData === undefined || row.requestData === null ? null : JSON.stringify(row.requestData),
  };
}

export async function insertRedirectLog(ctx: Pick<ExtensionsContext, "prisma">, row: LogInsert): Promise<void> {
  await ctx.prisma.redirectionLog.create({
    data: { ...cut(row), sentTo: row.sentTo ?? "", redirectionId: row.redirectionId ?? 0, redirectBy: (row.redirectBy ?? "redirection").toLowerCase().slice(0, 50) },
  });
}

export async function insert404Log(ctx: Pick<ExtensionsContext, "prisma">, row: LogInsert): Promise<void> {
  await ctx.prisma.redirection404.create({ data: cut(row) });
}
