// Serving redirects (Redirection's WordPress module): the request's URL against the enabled rules
// in (position, id) order, the match types' conditions, the action, the hit counted atomically,
// and the redirect or 404 log row. The enabled rules are compiled once per rules version (each
// write bumps it, so every process rebuilds when it reads a newer one): rules keyed by their
// `match_url` in a Map, regex rules in a list, both in position order, so a request costs two
// Map lookups and a scan of the regex rules, whatever the number of plain rules.
import { isIP } from "node:net";
import type { RedirectionItem } from "../../../generated/prisma/client.ts";
import type { PrismaClient } from "../../../lib/db.ts";
import type { ExtensionsContext } from "../context.ts";
import { redirectionEnvironment } from "./environment.ts";
import { insert404Log, insertRedirectLog } from "./logs.ts";
import { actionDataOf, flagsOf, logExcluded, type Json } from "./records.ts";
import { readOptions, type RedirectionOptions } from "./settings.ts";
import {
  addQueryToTarget, buildUrl, compileRegex, matchUrlOf, parseQuery, queryAfter, regexReplace, sourceMatches, urldecode, type SourceFlags,
} from "./url.ts";

/** The request as the router saw it (REQUEST_URI and the headers the match types read). */
export interface ServeRequest {
  url: string;
  method: string;
  host: string;
  /** http or https (the log's domain is scheme://server name, as the plugin writes it). */
  scheme?: string | null;
  remoteAddr: string;
  agent?: string | null;
  referrer?: string | null;
  acceptLanguage?: string | null;
  cookie?: string | null;
  headers?: { name: string; value: string }[] | null;
  loggedIn?: boolean | null;
  roles?: string[] | null;
}

export interface ServeOutcome {
  /** none (nothing matched), url, error, nothing, random, pass. */
  action: string;
  code: number;
  target: string | null;
  ruleId: number | null;
  headers: { name: string; value: string }[];
}

interface CompiledRule {
  row: RedirectionItem;
  flags: SourceFlags;
  regex: RegExp | null;
  data: Json;
}

interface CompiledRules { version: number; byUrl: Map<string, CompiledRule[]>; regex: CompiledRule[] }

const compiled = new WeakMap<PrismaClient, { key: string; rules: Promise<CompiledRules> }>();

const byPosition = (a: CompiledRule, b: CompiledRule) => a.row.position - b.row.position || a.row.id - b.row.id;

async function compile(prisma: PrismaClient, options: RedirectionOptions, version: number): Promise<CompiledRules> {
  const rows = await prisma.redirectionItem.findMany({ where: { status: "enabled" }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  const byUrl = new Map<string, CompiledRule[]>();
  const regex: CompiledRule[] = [];
  for (const row of rows) {
    const flags = flagsOf(row, options);
    const rule: CompiledRule = { row, flags, regex: flags.flag_regex ? compileRegex(row.url.replace(/ /g, "%20"), flags.flag_case) : null, data: actionDataOf(row) };
    if (row.matchUrl === "regex") regex.push(rule);
    else {
      const list = byUrl.get(row.matchUrl);
      if (list) list.push(rule);
      else byUrl.set(row.matchUrl, [rule]);
    }
  }
  return { version, byUrl, regex };
}

/** The compiled rules of this rules version and these site-wide flags (part of every rule's flags), built once. */
export async function compiledRules(prisma: PrismaClient, options: RedirectionOptions, version: number): Promise<CompiledRules> {
  const key = JSON.stringify([version, options.flag_query, options.flag_case, options.flag_trailing, options.flag_regex]);
  const cached = compiled.get(prisma);
  if (cached && cached.key === key) return cached.rules;
  const rules = compile(prisma, options, version);
  compiled.set(prisma, { key, rules });
  rules.catch(() => compiled.delete(prisma));
  return rules;
}

/** Candidates in (position, id) order: the path's rules, the path+query's rules, and every regex rule. */
export function candidates(rules: CompiledRules, url: string): CompiledRule[] {
  const path = matchUrlOf(url);
  const query = queryAfter(url);
  const withQuery = query ? buildUrl(path, parseQuery(query)) : path;
  const lists = [rules.byUrl.get(path) ?? [], withQuery !== path ? rules.byUrl.get(withQuery) ?? [] : [], rules.regex].filter((l) => l.length > 0);
  if (lists.length === 1) return lists[0];
  return lists.flat().sort(byPosition);
}

const header = (request: ServeRequest, name: string): string =>
  request.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? "";

function cookieValue(request: ServeRequest, name: string): string | undefined {
  for (const part of (request.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

const valueMatches = (value: string, expected: string, regex: boolean): boolean => {
  if (!regex) return value === expected;
  const compiledPattern = compileRegex(expected, true);
  return compiledPattern ? compiledPattern.test(value) : false;
};

/** The client address: the first configured header present (only behind a listed proxy, or any when none listed), else REMOTE_ADDR. */
export function clientIp(request: ServeRequest, options: RedirectionOptions): string {
  const proxies = options.ip_proxy ?? [];
  if (proxies.length === 0 || proxies.includes(request.remoteAddr)) {
    for (const name of options.ip_headers ?? []) {
      if (name === "REMOTE_ADDR") break;
      const value = header(request, name.replace(/^HTTP_/, "").replace(/_/g, "-"));
      const first = value.split(",")[0]?.trim() ?? "";
      if (first && isIP(first)) return first;
    }
  }
  return isIP(request.remoteAddr) ? request.remoteAddr : "";
}

/** ip_logging: 0 none, 1 full, 2 masked (IPv4 last octet 0, IPv6 first 64 bits kept). */
export function loggedIp(ip: string, mode: number): string {
  if (mode === 0 || !ip) return "";
  if (mode === 1) return ip;
  if (isIP(ip) === 4) return ip.replace(/\.\d+$/, ".0");
  const groups = ip.split("::")[0].split(":").slice(0, 4);
  return `${groups.join(":")}::`;
}

/** A match type's condition: [matched, target] (null target = the rule does not fire). */
function conditionTarget(rule: CompiledRule, request: ServeRequest, ip: string): string | null {
  const data = (rule.data && typeof rule.data === "object" && !Array.isArray(rule.data) ? rule.data : {}) as Record<string, Json>;
  const str = (v: Json | undefined) => (typeof v === "string" ? v : "");
  const fromNotFrom = (matched: boolean) => {
    const target = matched ? str(data.url_from) : str(data.url_notfrom);
    return target === "" ? null : target;
  };
  switch (rule.row.matchType) {
    case "url": return str(data.url);
    case "page": return str(data.url);
    case "login": {
      const target = request.loggedIn ? str(data.logged_in) : str(data.logged_out);
      return target === "" ? null : target;
    }
    case "referrer": return fromNotFrom(valueMatches(request.referrer ?? "", str(data.referrer), data.regex === true));
    case "agent": return fromNotFrom(valueMatches(request.agent ?? "", str(data.agent), data.regex === true));
    case "header": return fromNotFrom(valueMatches(header(request, str(data.name)), str(data.value), data.regex === true));
    case "cookie": {
      const value = cookieValue(request, str(data.name));
      return fromNotFrom(value !== undefined && valueMatches(value, str(data.value), data.regex === true));
    }
    case "role": return fromNotFrom((request.roles ?? []).includes(str(data.role)));
    case "server": {
      let host = "";
      try { host = new URL(str(data.server)).hostname; } catch { host = ""; }
      return fromNotFrom(host !== "" && host.toLowerCase() === request.host.replace(/:\d+$/, "").toLowerCase());
    }
    case "ip": return fromNotFrom(Array.isArray(data.ip) && data.ip.some((i) => typeof i === "string" && i === ip));
    case "language": {
      const tags = (request.acceptLanguage ?? "").split(",").map((t) => t.split(";")[0].trim().toLowerCase()).filter(Boolean);
      const wanted = str(data.language).split(",").map((l) => l.trim().toLowerCase()).filter(Boolean);
      return fromNotFrom(wanted.some((w) => tags.includes(w)));
    }
    // A custom filter is a WordPress hook; none is registered here, so it never matches.
    case "custom": return fromNotFrom(false);
    default: return null;
  }
}

const NO_CACHE = [
  { name: "Expires", value: "Wed, 11 Jan 1984 05:00:00 GMT" },
  { name: "Cache-Control", value: "no-cache, must-revalidate, max-age=0, no-store, private" },
];

/**
 * Response headers of a redirect (the plugin's wp_redirect filter): X-Redirect-By; a 307 is never
 * cached; otherwise the configured redirect headers, and for a 301 the redirect_cache hours
 * (-1 no-cache, 0 nothing).
 */
function redirectHeaders(code: number, options: RedirectionOptions, now: Date): { name: string; value: string }[] {
  const headers = [{ name: "X-Redirect-By", value: "redirection" }];
  if (code === 307) return headers.concat(NO_CACHE);
  headers.push(...configuredHeaders(options, "redirect"));
  if (code === 301) {
    const hours = Number(options.redirect_cache);
    if (hours === -1) headers.push(...NO_CACHE);
    else if (hours > 0) {
      headers.push({ name: "Expires", value: new Date(now.getTime() + hours * 3600_000).toUTCString() }, { name: "Cache-Control", value: `max-age=${hours * 3600}` });
    }
  }
  return headers;
}

function configuredHeaders(options: RedirectionOptions, where: "site" | "redirect"): { name: string; value: string }[] {
  const list = Array.isArray(options.headers) ? options.headers as Record<string, unknown>[] : [];
  return list
    .filter((h) => (h.location ?? "site") === where || where === "redirect" && h.location === "site")
    .filter((h) => typeof h.headerName === "string" && h.headerName !== "")
    .map((h) => ({ name: String(h.headerName), value: String(h.headerValue ?? "") }));
}

const EXPIRY_INTERVAL_MS = 10 * 60 * 1000;
const EXPIRY_BATCH = 20000;
const lastExpiry = new WeakMap<object, number>();

/**
 * The plugin's log expiry (its daily cron, re-run after 10 minutes while rows remain): rows older
 * than expire_redirect / expire_404 days (when > 0) are deleted, at most 20,000 a run. Here it runs
 * as requests are served, at most every 10 minutes per process and database.
 */
export async function expireLogs(ctx: Pick<ExtensionsContext, "prisma">, options: RedirectionOptions, now: Date): Promise<void> {
  const last = lastExpiry.get(ctx.prisma);
  if (last !== undefined && now.getTime() - last < EXPIRY_INTERVAL_MS && now.getTime() >= last) return;
  lastExpiry.set(ctx.prisma, now.getTime());
  const cutoff = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const redirectDays = Number(options.expire_redirect);
  if (redirectDays > 0) {
    const old = await ctx.prisma.redirectionLog.findMany({ where: { created: { lt: cutoff(redirectDays) } }, select: { id: true }, take: EXPIRY_BATCH });
    if (old.length) await ctx.prisma.redirectionLog.deleteMany({ where: { id: { in: old.map((r) => r.id) } } });
  }
  const notFoundDays = Number(options.expire_404);
  if (notFoundDays > 0) {
    const old = await ctx.prisma.redirection404.findMany({ where: { created: { lt: cutoff(notFoundDays) } }, select: { id: true }, take: EXPIRY_BATCH });
    if (old.length) await ctx.prisma.redirection404.deleteMany({ where: { id: { in: old.map((r) => r.id) } } });
  }
}

/** The first candidate whose source matches the URL (the matching step alone, for the benchmark). */
export function firstSourceMatch(rules: CompiledRules, url: string): RedirectionItem | null {
  const decoded = urldecode(url);
  for (const rule of candidates(rules, url)) if (sourceMatches(rule.row.url, decoded, rule.flags, rule.regex)) return rule.row;
  return null;
}

/** Answers one request: the first rule whose action fires, its hit counted and logged; else the 404 log. */
export async function serveRedirect(ctx: Pick<ExtensionsContext, "prisma">, request: ServeRequest): Promise<ServeOutcome> {
  // eslint-disable-next-line no-control-regex
  const url = request.url.replace(/[\u0000-\u001f\u007f]/g, "");
  const none: ServeOutcome = { action: "none", code: 404, target: null, ruleId: null, headers: [] };
  if (!url) return none;
  const { options, rulesVersion } = await readOptions(ctx);
  const now = redirectionEnvironment.now();
  const rules = await compiledRules(ctx.prisma as PrismaClient, options, rulesVersion);
  const q = url.indexOf("?");
  const decoded = urldecode(url);
  const original = q === -1 ? decoded : `${urldecode(url.slice(0, q))}${url.slice(q)}`;
  const ip = clientIp(request, options);
  await expireLogs(ctx, options, now);
  const logRow = (code: number) => ({
    created: now, url, domain: `${request.scheme === "https" ? "https" : "http"}://${request.host.replace(/:\d+$/, "")}`, agent: request.agent ?? "", referrer: request.referrer ?? "",
    ip: loggedIp(ip, Number(options.ip_logging)), httpCode: code, method: request.method.toUpperCase(),
    // log_header: the request's headers go into request_data.
    ...(options.log_header ? { requestData: { headers: Object.fromEntries((request.headers ?? []).map((h) => [h.name, h.value])) } } : {}),
  });

  for (const rule of candidates(rules, url)) {
    if (!sourceMatches(rule.row.url, decoded, rule.flags, rule.regex)) continue;
    let target = conditionTarget(rule, request, ip);
    const action = rule.row.actionType;
    if (action === "nothing") return { action: "nothing", code: 0, target: null, ruleId: rule.row.id, headers: [] };
    if (action === "error") {
      const outcome = { action: "error", code: rule.row.actionCode, target: null, ruleId: rule.row.id, headers: configuredHeaders(options, "site") };
      if (Number(options.expire_404) >= 0) await insert404Log(ctx, logRow(rule.row.actionCode));
      return outcome;
    }
    if (action === "random") {
      return { action: "random", code: rule.row.actionCode, target: null, ruleId: rule.row.id, headers: redirectHeaders(rule.row.actionCode, options, now) };
    }
    if (target === null || target === "") continue;
    if (rule.flags.flag_regex) target = regexReplace(rule.row.url.replace(/ /g, "%20"), rule.flags.flag_case, target, original);
    target = addQueryToTarget(target, url, rule.flags);
    // visit(): the hit counted in the database (atomic increment), then the log row.
    if (options.track_hits !== false) {
      await ctx.prisma.redirectionItem.update({ where: { id: rule.row.id }, data: { lastCount: { increment: 1 }, lastAccess: now } });
    }
    if (Number(options.expire_redirect) !== -1 && !logExcluded(rule.row)) {
      await insertRedirectLog(ctx, { ...logRow(rule.row.actionCode), sentTo: target, redirectionId: rule.row.id, redirectBy: "redirection" });
    }
    return {
      action, code: action === "pass" ? 200 : rule.row.actionCode, target, ruleId: rule.row.id,
      headers: action === "pass" ? [] : redirectHeaders(rule.row.actionCode, options, now),
    };
  }
  if (Number(options.expire_404) >= 0) await insert404Log(ctx, logRow(404));
  return none;
}
