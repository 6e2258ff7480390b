// Redirect rules: the filtered list (Red_Item::get_filtered), create, update and the bulk actions,
// with the plugin's rules and errors. Every write bumps the rules version the matcher follows.
import type { Prisma, RedirectionItem } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
export { REDIRECT_FILTERS, REDIRECT_ORDERBY } from "./values.ts";
import { redirectionEnvironment } from "./environment.ts";
import { requireRedirection } from "./permissions.ts";
import {
  ACTION_TYPES, ERROR_CODES, MATCH_TYPES, NEVER, REDIRECT_CODES, sanitizeRule, toView, type RedirectRuleView, type SanitizedRule,
} from "./records.ts";
import { bumpRulesVersion, readOptions, type RedirectionOptions } from "./settings.ts";

export interface ListInput {
  filterBy?: Record<string, unknown> | null;
  orderby?: string | null;
  direction?: string | null;
  perPage?: number | null;
  page?: number | null;
}


/** per_page clamped to 5..200 (default 25), page from 0, direction asc|desc (default desc). */
export function paging(list: ListInput | null | undefined): { take: number; skip: number; direction: "asc" | "desc" } {
  const perPage = Math.min(200, Math.max(5, Math.trunc(list?.perPage ?? 25)));
  const page = Math.max(0, Math.trunc(list?.page ?? 0));
  return { take: perPage, skip: page * perPage, direction: list?.direction === "asc" ? "asc" : "desc" };
}

const filterValue = (filter: Record<string, unknown>, key: string): string | undefined =>
  (Object.hasOwn(filter, key) && filter[key] !== null && filter[key] !== undefined ? String(filter[key]) : undefined);

export function redirectWhere(filterBy: Record<string, unknown> | null | undefined, now: Date): Prisma.RedirectionItemWhereInput {
  const filter = filterBy ?? {};
  const and: Prisma.RedirectionItemWhereInput[] = [];
  const v = (k: string) => filterValue(filter, k);
  if (v("status") !== undefined) and.push({ status: v("status") === "enabled" ? "enabled" : "disabled" });
  if (v("url-match") !== undefined) and.push({ regex: v("url-match") === "regular" });
  const match = v("match");
  if (match !== undefined && (MATCH_TYPES as readonly string[]).includes(match)) and.push({ matchType: match });
  const action = v("action");
  if (action !== undefined && (ACTION_TYPES as readonly string[]).includes(action)) and.push({ actionType: action });
  const http = Number(v("http"));
  if (v("http") !== undefined && (REDIRECT_CODES.includes(http) || ERROR_CODES.includes(http))) and.push({ actionCode: http });
  const access = v("access");
  if (access !== undefined) {
    if (access === "year" || access === "month") {
      const before = new Date(now);
      if (access === "year") before.setUTCFullYear(before.getUTCFullYear() - 1);
      else before.setUTCMonth(before.getUTCMonth() - 1);
      and.push({ lastAccess: { lt: before } });
    } else {
      and.push({ lastAccess: { lte: NEVER } });
    }
  }
  if (v("url") !== undefined) and.push({ url: { contains: v("url") } });
  if (v("target") !== undefined) and.push({ actionData: { contains: v("target") } });
  if (v("title") !== undefined) and.push({ title: { contains: v("title") } });
  const id = (k: string) => { const n = Number(v(k)); return Number.isInteger(n) && Math.abs(n) < 2 ** 31 ? n : -1; };
  if (v("group") !== undefined) and.push({ groupId: id("group") });
  if (v("id") !== undefined) and.push({ id: id("id") });
  return and.length ? { AND: and } : {};
}

export interface RulePage { items: RedirectRuleView[]; total: number }

export async function listRedirects(ctx: ExtensionsContext, list: ListInput | null | undefined): Promise<RulePage> {
  requireRedirection(ctx);
  const { options } = await readOptions(ctx);
  const where = redirectWhere(list?.filterBy, redirectionEnvironment.now());
  const { take, skip, direction } = paging(list);
  const column = { source: "url", last_count: "lastCount", last_access: "lastAccess", position: "position" }[list?.orderby ?? ""] ?? "id";
  const orderBy = [{ [column]: direction }, ...(column === "id" ? [] : [{ id: direction }])] as Prisma.RedirectionItemOrderByWithRelationInput[];
  const [rows, total] = await Promise.all([
    ctx.prisma.redirectionItem.findMany({ where, orderBy, take, skip }),
    ctx.prisma.redirectionItem.count({ where }),
  ]);
  return { items: rows.map((r) => toView(r, options)), total };
}

async function sanitizeContext(ctx: ExtensionsContext, options: RedirectionOptions) {
  const groups = await ctx.prisma.redirectionGroup.findMany({ select: { id: true } });
  const ids = new Set(groups.map((g) => g.id));
  return { options, groupExists: (id: number) => ids.has(id), siteHost: new URL(ctx.config.siteUrl).host };
}

/** Red_Item::create for one sanitized rule: position defaults to the group's count; status from the payload. */
export async function insertRule(ctx: ExtensionsContext, rule: SanitizedRule): Promise<RedirectionItem> {
  const position = rule.position === null ? await ctx.prisma.redirectionItem.count({ where: { groupId: rule.groupId } }) : rule.position;
  return ctx.prisma.redirectionItem.create({
    data: {
      url: rule.url, matchUrl: rule.matchUrl, regex: rule.regex, matchType: rule.matchType, actionType: rule.actionType,
      actionCode: rule.actionCode, actionData: rule.actionData, title: rule.title, groupId: rule.groupId, position,
      status: rule.status ?? "enabled", matchData: (rule.matchData ?? undefined) as Prisma.InputJsonValue | undefined,
      lastCount: rule.lastCount ?? 0, lastAccess: rule.lastAccess ?? NEVER,
    },
  });
}

/** POST /redirect: one rule, or one per unique URL when `url` is a list; answers the list. */
export async function createRedirects(ctx: ExtensionsContext, input: Record<string, unknown>, list: ListInput | null | undefined): Promise<RulePage> {
  requireRedirection(ctx, "add");
  const { options } = await readOptions(ctx);
  const sanitize = await sanitizeContext(ctx, options);
  // No `url` at all creates nothing (the list is answered); each URL is created in turn, so an
  // error leaves the earlier ones created, as the plugin does.
  const urls = input.url === undefined || input.url === null ? [] : Array.isArray(input.url) ? [...new Set(input.url.map(String))] : [input.url];
  try {
    for (const url of urls) await insertRule(ctx, sanitizeRule({ ...input, url }, sanitize));
  } finally {
    if (urls.length) await bumpRulesVersion(ctx);
  }
  return listRedirects(ctx, list);
}

/** POST /redirect/{id}: the rule updated (status is left alone; bulk enable/disable changes it). */
export async function updateRedirect(ctx: ExtensionsContext, id: number, input: Record<string, unknown>): Promise<RedirectRuleView> {
  requireRedirection(ctx, "add");
  const existing = Number.isSafeInteger(id) && Math.abs(id) < 2 ** 31 ? await ctx.prisma.redirectionItem.findUnique({ where: { id } }) : null;
  if (!existing) fail("redirect_update_failed", { data: { error_code: 331 } });
  const { options } = await readOptions(ctx);
  const rule = sanitizeRule(input, await sanitizeContext(ctx, options), true);
  const position = rule.position ?? 0;
  const row = await ctx.prisma.redirectionItem.update({
    where: { id },
    data: {
      url: rule.url, matchUrl: rule.matchUrl, regex: rule.regex, matchType: rule.matchType, actionType: rule.actionType,
      actionCode: rule.actionCode, actionData: rule.actionData, title: rule.title, groupId: rule.groupId, position,
      matchData: (rule.matchData ?? null) as Prisma.InputJsonValue,
      ...(rule.lastCount !== undefined ? { lastCount: rule.lastCount } : {}),
      ...(rule.lastAccess ? { lastAccess: rule.lastAccess } : {}),
    },
  });
  await bumpRulesVersion(ctx);
  return toView(row, options);
}

export type BulkRedirectAction = "delete" | "enable" | "disable" | "reset";

/** Ids of `items` (strings or numbers); a non-numeric id is -1 (never found). */
export const itemIds = (items: readonly string[] | null | undefined): number[] =>
  (items ?? []).map((i) => { const n = Number(i); return Number.isInteger(n) && Math.abs(n) < 2 ** 31 ? n : -1; });

/** POST /bulk/redirect/{action}: by `items` (an unknown id stops there, earlier ones stay done) or `global` (the filter). */
export async function bulkRedirects(
  ctx: ExtensionsContext, action: BulkRedirectAction, items: readonly string[] | null | undefined, global: boolean | null | undefined, list: ListInput | null | undefined,
): Promise<RulePage> {
  requireRedirection(ctx, action === "delete" ? "delete" : "add");
  const apply = (where: Prisma.RedirectionItemWhereInput) => {
    switch (action) {
      case "delete": return ctx.prisma.redirectionItem.deleteMany({ where });
      case "enable": return ctx.prisma.redirectionItem.updateMany({ where, data: { status: "enabled" } });
      case "disable": return ctx.prisma.redirectionItem.updateMany({ where, data: { status: "disabled" } });
      default: return ctx.prisma.redirectionItem.updateMany({ where, data: { lastCount: 0, lastAccess: NEVER } });
    }
  };
  try {
    // `items` first (each must exist); else `global` (everything the filter matches).
    if (items) {
      for (const id of itemIds(items)) {
        const done = await apply({ id });
        if (done.count === 0) fail("redirect_bulk_failed", { data: { error_code: 101 } });
      }
    } else if (global) {
      await apply(redirectWhere(list?.filterBy, redirectionEnvironment.now()));
    }
  } finally {
    await bumpRulesVersion(ctx);
  }
  return listRedirects(ctx, list);
}
