// Redirect rules as the plugin stores and shows them (Red_Item, Red_Item_Sanitize, the matches'
// save/get_data): the sanitizer that turns a REST payload into a row, and `to_json`.
import type { RedirectionItem } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { redirectionEnvironment } from "./environment.ts";
import { siteFlags, type RedirectionOptions } from "./settings.ts";
import { FLAG_KEYS, matchUrlOf, parseFlags, parseQuery, queryAfter, buildUrl, type SourceFlags } from "./url.ts";

export const MATCH_TYPES = ["url", "referrer", "agent", "login", "header", "custom", "cookie", "role", "server", "ip", "page", "language"] as const;
export const ACTION_TYPES = ["url", "error", "nothing", "random", "pass"] as const;
export const REDIRECT_CODES = [301, 302, 303, 304, 307, 308];
export const ERROR_CODES = [400, 401, 403, 404, 410, 418, 451, 500, 501, 502, 503, 504];
export const NEVER = new Date("1970-01-01T00:00:00Z");

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A rule in the graph's shape (the REST body is the same in snake_case). */
export interface RedirectRuleView {
  id: number;
  url: string;
  matchUrl: string;
  matchData: JsonObject;
  actionCode: number;
  actionType: string;
  actionData: Json;
  matchType: string;
  title: string;
  hits: number;
  regex: boolean;
  groupId: number;
  position: number;
  lastAccess: string;
  enabled: boolean;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The site's date_format "F j, Y". */
export const siteDate = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
/** The site's time_format "g:i a". */
export const siteTime = (d: Date) => `${d.getUTCHours() % 12 || 12}:${String(d.getUTCMinutes()).padStart(2, "0")} ${d.getUTCHours() < 12 ? "am" : "pm"}`;

/** PHP date('r'): "Fri, 05 Jan 2024 10:41:00 +0000". */
export function rfc2822(d: Date): string {
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const p = (n: number) => String(n).padStart(2, "0");
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()].slice(0, 3)} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

export function storedFlags(row: Pick<RedirectionItem, "matchData">): Record<string, unknown> {
  const data = (row.matchData ?? {}) as { source?: Record<string, unknown> };
  return data.source ?? {};
}

/** The rule's effective source flags: its own over the site defaults. */
export const flagsOf = (row: Pick<RedirectionItem, "matchData" | "regex">, options: RedirectionOptions): SourceFlags =>
  parseFlags({ ...storedFlags(row), flag_regex: row.regex }, siteFlags(options));

export const logExcluded = (row: Pick<RedirectionItem, "matchData">): boolean =>
  ((row.matchData ?? {}) as { options?: { log_exclude?: boolean } }).options?.log_exclude === true;

/** A match's stored data as its object: `url` keeps the bare target, the others JSON. */
export function actionDataOf(row: Pick<RedirectionItem, "matchType" | "actionData">): Json {
  if (row.matchType === "url") return row.actionData ? { url: row.actionData } : null;
  if (!row.actionData) return null;
  try {
    return JSON.parse(row.actionData) as Json;
  } catch {
    return null;
  }
}

export function toView(row: RedirectionItem, options: RedirectionOptions): RedirectRuleView {
  const matchData: JsonObject = { source: { ...flagsOf(row, options) } };
  if (logExcluded(row)) matchData.options = { log_exclude: true };
  return {
    id: row.id, url: row.url, matchUrl: row.matchUrl, matchData,
    actionCode: row.actionCode, actionType: row.actionType, actionData: actionDataOf(row), matchType: row.matchType,
    title: row.title ?? "", hits: row.lastCount, regex: row.regex, groupId: row.groupId, position: row.position,
    lastAccess: row.lastAccess.getTime() <= 0 ? "-" : siteDate(row.lastAccess), enabled: row.status === "enabled",
  };
}

/** Every string trimmed, at any depth (the sanitizer's first step). */
function trimAll(value: unknown): unknown {
  if (typeof value === "string") return value.trim();
  if (Array.isArray(value)) return value.map(trimAll);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimAll(v)]));
  return value;
}

const stripTags = (s: string) => s.replace(/<[^>]*>?/g, "");
const cutAtBreak = (s: string) => s.replace(/[\r\n\t][\s\S]*$/, "");
// eslint-disable-next-line no-control-regex
const dropControl = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");

/** A target URL as the matches save it: cut at a line break, no control characters. */
export const sanitizeTarget = (url: unknown): string => dropControl(cutAtBreak(typeof url === "string" ? url : String(url ?? "")));

/** Red_Item_Sanitize::sanitize_url for the source. */
export function sanitizeSource(url: string, regex: boolean): string {
  let u = stripTags(url).replace(/&amp;/g, "&");
  u = u.replace(/^https?:\/\/[^/]*/i, "");
  u = dropControl(cutAtBreak(u));
  if (!regex && !u.startsWith("/")) u = `/${u}`;
  try {
    u = decodeURIComponent(u);
  } catch { /* invalid UTF-8: kept as sent */ }
  if (regex) u = u.replace(/\?&lt;!/g, "?<!");
  return u;
}

export function sanitizeCode(actionType: string, code: unknown): number {
  const n = Number(code);
  if (actionType === "url" || actionType === "random") return REDIRECT_CODES.includes(n) ? n : 301;
  if (actionType === "error") return ERROR_CODES.includes(n) ? n : 404;
  return 0;
}

const text = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
const flag = (v: unknown) => v === true || v === 1 || v === "1" || v === "true";

/** A match type's stored data from the payload's action_data (targets only for url and pass actions). */
function matchData(matchType: string, data: Record<string, unknown>, withTarget: boolean): string | null {
  const targets = (): Record<string, string> => (withTarget ? { url_from: sanitizeTarget(data.url_from), url_notfrom: sanitizeTarget(data.url_notfrom) } : {});
  const regexed = (key: string) => ({ regex: flag(data.regex), [key]: text(data[key]) });
  switch (matchType) {
    case "url": {
      if (!withTarget) return null;
      const target = sanitizeTarget(data.url);
      return target === "" ? "/" : target;
    }
    case "login":
      return JSON.stringify(withTarget ? { logged_in: sanitizeTarget(data.logged_in), logged_out: sanitizeTarget(data.logged_out) } : {});
    case "referrer": return JSON.stringify({ ...targets(), ...regexed("referrer") });
    case "agent": return JSON.stringify({ ...targets(), ...regexed("agent") });
    case "header":
    case "cookie": return JSON.stringify({ ...targets(), regex: flag(data.regex), name: text(data.name), value: text(data.value) });
    case "custom": return JSON.stringify({ ...targets(), filter: text(data.filter).replace(/[^A-Za-z0-9_-]/g, "") });
    case "role": return JSON.stringify({ ...targets(), role: text(data.role) });
    case "server": {
      let server = text(data.server);
      try { server = server ? `${new URL(/^https?:\/\//.test(server) ? server : `http://${server}`).origin}` : ""; } catch { server = ""; }
      return JSON.stringify({ ...targets(), server });
    }
    case "ip": {
      const list = Array.isArray(data.ip) ? data.ip : text(data.ip).split(/[\s,]+/);
      return JSON.stringify({ ...targets(), ip: list.map(text).map((s) => s.trim()).filter((s) => s !== "") });
    }
    case "page": return JSON.stringify({ page: "404", ...(withTarget ? { url: sanitizeTarget(data.url) } : {}) });
    case "language": return JSON.stringify({ ...targets(), language: text(data.language).split(",").map((s) => s.trim()).filter(Boolean).join(",") });
    default: return null;
  }
}

/** The row a payload makes (create, update and the importers share it). */
export interface SanitizedRule {
  url: string; matchUrl: string; regex: boolean; matchType: string; actionType: string; actionCode: number;
  actionData: string | null; title: string | null; groupId: number; position: number | null; status?: string;
  matchData: JsonObject | null; lastCount?: number; lastAccess?: Date;
}

export interface SanitizeContext { options: RedirectionOptions; groupExists(id: number): boolean; siteHost: string }

/** Red_Item_Sanitize::get: the payload checked and normalised, or the plugin's error. */
export function sanitizeRule(raw: Record<string, unknown>, ctx: SanitizeContext, forUpdate = false): SanitizedRule {
  const details = trimAll(raw) as Record<string, unknown>;
  const matchDataIn = (details.match_data && typeof details.match_data === "object" ? details.match_data : {}) as Record<string, unknown>;
  const hasSource = !!matchDataIn.source && typeof matchDataIn.source === "object";
  const sourceIn = (hasSource ? matchDataIn.source : {}) as Record<string, unknown>;
  // `regex` is 1 only when it is 1; sent source flags decide it instead (their flag_regex, false when absent).
  let regex = Number(details.regex) === 1 || details.regex === true;
  if (hasSource) regex = sourceIn.flag_regex === true;

  let matchType = text(details.match_type);
  const actionDataSent = !!details.action_data && typeof details.action_data === "object";
  let actionData = (actionDataSent ? details.action_data : {}) as Record<string, unknown>;
  let url = text(details.url);
  if (url === "") {
    const now = Math.floor(redirectionEnvironment.now().getTime() / 1000);
    url = ctx.options.auto_target.replace(/\$dec\$/g, String(now)).replace(/\$hex\$/g, now.toString(16));
  }
  // A source on another host becomes a server match: the host is the condition, the path the source.
  let viaServer = false;
  if (url.includes("http:") || url.includes("https:")) {
    let parsed: URL | null = null;
    try { parsed = new URL(url.slice(url.search(/https?:/))); } catch { parsed = null; }
    if (parsed && parsed.hostname && parsed.hostname.toLowerCase() !== ctx.siteHost.replace(/:\d+$/, "").toLowerCase()) {
      matchType = "server";
      actionData = { server: parsed.hostname, ...(typeof actionData.url === "string" ? { url_from: actionData.url } : {}) };
      viaServer = true;
      url = parsed.pathname || "/";
    }
  }
  const source = url === "" ? "" : sanitizeSource(url, regex);

  // The sanitizer's order: matcher, action, then the source URL and the group.
  if (!(MATCH_TYPES as readonly string[]).includes(matchType)) fail("redirect", { message: "Invalid redirect matcher", data: { error_code: 193 } });
  const actionType = text(details.action_type);
  if (!(ACTION_TYPES as readonly string[]).includes(actionType)) fail("redirect", { message: "Invalid redirect action", data: { error_code: 199 } });
  if (source === "") fail("redirect", { message: "Invalid source URL", data: { error_code: 212 } });
  const groupId = Number(details.group_id);
  if (!Number.isInteger(groupId) || !ctx.groupExists(groupId)) fail("redirect", { message: "Invalid group when creating redirect", data: { error_code: 217 } });

  const flags = parseFlags({ ...sourceIn, flag_regex: regex }, siteFlags(ctx.options));
  const defaults = siteFlags(ctx.options);
  const ownFlags: JsonObject = {};
  for (const key of FLAG_KEYS) if (key !== "flag_regex" && flags[key] !== defaults[key]) ownFlags[key] = flags[key];
  const options = (matchDataIn.options && typeof matchDataIn.options === "object" ? matchDataIn.options : {}) as Record<string, unknown>;
  const stored: JsonObject = {};
  if (Object.keys(ownFlags).length) stored.source = ownFlags;
  if (flag(options.log_exclude)) stored.options = { log_exclude: true };

  let matchUrl = regex ? "regex" : matchUrlOf(source);
  if (!regex && flags.flag_query === "exactorder") {
    const query = queryAfter(source);
    if (query) matchUrl = buildUrl(matchUrl, parseQuery(query));
  }
  const title = stripTags(text(details.title)).trim().slice(0, 500);
  // Create: absent (or the number 0) means "after the group's rules"; update: absent is 0, as the plugin writes it.
  const positionIn = details.position === undefined || details.position === null
    ? (forUpdate ? 0 : null)
    : details.position === 0 && !forUpdate ? null : Math.max(0, Math.trunc(Number(details.position) || 0));
  const rule: SanitizedRule = {
    url: source, matchUrl, regex, matchType, actionType, actionCode: sanitizeCode(actionType, details.action_code),
    actionData: actionDataSent || viaServer ? matchData(matchType, actionData, actionType === "url" || actionType === "pass") : null,
    title: title === "" ? null : title, groupId, position: positionIn, matchData: Object.keys(stored).length ? stored : null,
  };
  if (!forUpdate) {
    const disabled = details.status === "disabled" || details.enabled === false || details.enabled === "disabled";
    rule.status = disabled ? "disabled" : "enabled";
  }
  if (details.hits !== undefined && Number.isFinite(Number(details.hits))) rule.lastCount = Math.max(0, Math.trunc(Number(details.hits)));
  if (typeof details.last_access === "string" && details.last_access !== "-") {
    const when = new Date(details.last_access);
    if (!Number.isNaN(when.getTime())) rule.lastAccess = when;
  }
  return rule;
}
