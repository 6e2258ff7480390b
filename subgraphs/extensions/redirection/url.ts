// The Redirection plugin's URL rules (models/url/*): the lookup key a rule is stored under
// (`match_url`), path and query comparison with the source flags, PCRE-style regex sources and
// the `pass` query merge. Pure functions; the matcher and the sanitizer use them.
import qs from "qs";

export type QueryMode = "exact" | "exactorder" | "ignore" | "pass";
export const QUERY_MODES: readonly QueryMode[] = ["ignore", "exact", "pass", "exactorder"];

export interface SourceFlags {
  flag_query: QueryMode;
  flag_case: boolean;
  flag_trailing: boolean;
  flag_regex: boolean;
}

export const FLAG_KEYS = ["flag_query", "flag_case", "flag_trailing", "flag_regex"] as const;

/** Red_Source_Flags::set_flags: invalid values are ignored; a regex source forces the exact query mode. */
export function parseFlags(json: Record<string, unknown>, base: SourceFlags = { flag_query: "exact", flag_case: false, flag_trailing: false, flag_regex: false }): SourceFlags {
  const flags = { ...base };
  if (typeof json.flag_query === "string" && (QUERY_MODES as readonly string[]).includes(json.flag_query)) flags.flag_query = json.flag_query as QueryMode;
  if (typeof json.flag_case === "boolean") flags.flag_case = json.flag_case;
  if (typeof json.flag_trailing === "boolean") flags.flag_trailing = json.flag_trailing;
  if (typeof json.flag_regex === "boolean") {
    flags.flag_regex = json.flag_regex;
    if (json.flag_regex) flags.flag_query = "exact";
  }
  return flags;
}

/** PHP's urldecode: `+` is a space; a broken escape stays as it is. */
export function urldecode(value: string): string {
  const spaced = value.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9a-fA-F]{2})/g, (m, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x80 ? String.fromCharCode(code) : m;
    });
  }
}

/** PHP's rawurldecode (no `+` handling). */
export function rawurldecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value.replace(/%([0-9a-fA-F]{2})/g, (m, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x80 ? String.fromCharCode(code) : m;
    });
  }
}

/** PHP's rawurlencode (RFC 3986: only A-Z a-z 0-9 - _ . ~ stay). */
export function rawurlencode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const toLower = (s: string) => s.toLowerCase();

/** Red_Url_Path::get_query_before: an escaped `\?` before the first `?` ends the path there. */
function queryBefore(url: string): string {
  const q = url.indexOf("?");
  const escaped = url.indexOf("\\?");
  if (escaped !== -1 && (q === -1 || escaped < q)) return url.slice(0, escaped);
  return q === -1 ? url : url.slice(0, q);
}

/** Red_Url_Query::get_query_after. */
export function queryAfter(url: string): string {
  const q = url.indexOf("?");
  if (q === -1) return "";
  const escaped = url.indexOf("\\?");
  if (escaped !== -1 && escaped < q) return url.slice(escaped + 2);
  return url.slice(q + 1);
}

/** Red_Url_Path: the decoded path of a URL (an absolute URL loses its scheme and host). */
export function urlPath(url: string): string {
  let path = url;
  if (/^https?:\/\//.test(url)) {
    const rest = url.split("://")[1] ?? "";
    path = `/${rest.split("/").slice(1).join("/")}`;
  }
  return urldecode(queryBefore(path));
}

const withoutTrailingSlash = (path: string) => (path === "/" ? path : path.replace(/\/$/, ""));

const KEEP_LITERAL = ["/", ":", "[", "]", "@", "~", ",", "(", ")", ";"];

/** Red_Url_Match::get_url: the lookup key (lower-case, no trailing slash, re-encoded path). */
export function matchUrlOf(url: string): string {
  let path = rawurlencode(withoutTrailingSlash(urlPath(url)));
  for (const c of KEEP_LITERAL) path = path.split(rawurlencode(c)).join(c);
  path = toLower(path);
  return path || "/";
}

export type QueryValue = string | null | QueryObject;
export interface QueryObject { [key: string]: QueryValue }

/** wp_parse_str of a query string; a parameter without `=` is null (the plugin tells the two apart). */
export function parseQuery(query: string): QueryObject {
  if (!query) return {};
  const parsed = qs.parse(query, { depth: 10, arrayLimit: 1000, strictNullHandling: true, allowPrototypes: false, parseArrays: true }) as Record<string, unknown>;
  const norm = (value: unknown): QueryValue => {
    if (value === null || value === undefined) return null;
    if (typeof value === "string") return value;
    if (typeof value === "object") {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, norm(v)]));
    }
    return String(value);
  };
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, norm(v)]));
}

const RECURSION_LIMIT = 10;
const isObject = (v: QueryValue): v is QueryObject => v !== null && typeof v === "object";

/** Red_Url_Query::get_query_same: the source params the target has with equal values. */
function querySame(source: QueryObject, target: QueryObject, ignoreCase: boolean, depth = 0): QueryObject {
  if (depth > RECURSION_LIMIT) return {};
  const targetKeys = new Map(Object.keys(target).map((k) => [toLower(k), k]));
  const same: QueryObject = {};
  for (const key of Object.keys(source)) {
    const targetKey = targetKeys.get(toLower(key));
    if (targetKey === undefined) continue;
    const s = source[key];
    const t = target[targetKey];
    if (isObject(s) && isObject(t)) {
      const inner = querySame(s, t, ignoreCase, depth + 1);
      if (Object.keys(inner).length === Object.keys(s).length && Object.keys(inner).length > 0) same[key] = inner;
    } else if (typeof s === "string" && typeof t === "string") {
      if (ignoreCase ? toLower(s) === toLower(t) : s === t) same[key] = s;
    } else if (s === null && t === null) {
      same[key] = null;
    }
  }
  return same;
}

/** Red_Url_Query::get_query_diff: what `source` has that `target` lacks or has differently. */
export function queryDiff(source: QueryObject, target: QueryObject, depth = 0): QueryObject {
  if (depth > RECURSION_LIMIT) return {};
  const diff: QueryObject = {};
  for (const [key, value] of Object.entries(source)) {
    const has = Object.hasOwn(target, key);
    const t = has ? target[key] : undefined;
    if (has && isObject(value) && t !== undefined && isObject(t)) {
      const inner = queryDiff(value, t, depth + 1);
      if (Object.keys(inner).length > 0) diff[key] = inner;
    } else if (!has || isObject(value) || t === undefined || isObject(t) || t !== value) {
      diff[key] = value;
    }
  }
  return diff;
}

/** Red_Url_Query::is_match for a plain source. */
export function queryMatches(source: string, requested: string, flags: SourceFlags): boolean {
  const sourceUrl = flags.flag_case ? toLower(source) : source;
  const requestUrl = flags.flag_case ? toLower(requested) : requested;
  const sourceQuery = parseQuery(queryAfter(sourceUrl));
  // Params PHP cannot parse (`?=2`): the query strings are compared as they are.
  if (Object.keys(sourceQuery).length === 0 && sourceUrl.includes("?")) return queryAfter(requestUrl) === queryAfter(sourceUrl);
  const target = parseQuery(queryAfter(requestUrl));
  const same = querySame(sourceQuery, target, flags.flag_case);
  if (Object.keys(same).length !== Object.keys(sourceQuery).length) return false;
  if (flags.flag_query === "ignore" || flags.flag_query === "pass") return true;
  const diff = { ...queryDiff(sourceQuery, target), ...queryDiff(target, sourceQuery) };
  return Object.keys(diff).length === 0;
}

/** Red_Url_Path::is_match. */
export function pathMatches(source: string, requested: string, flags: SourceFlags): boolean {
  let s = urlPath(source);
  let t = urlPath(requested);
  if (flags.flag_trailing) {
    s = withoutTrailingSlash(s);
    t = withoutTrailingSlash(t);
  }
  if (flags.flag_case) {
    s = toLower(s);
    t = toLower(t);
  }
  return s === t;
}

/**
 * A PCRE source as a JavaScript RegExp (`@…@s`, plus `i` for case-insensitive). The common PCRE
 * spellings JavaScript lacks are translated (`\A`, `\z`, `\Z`, `(?i)` at the start); a pattern
 * that still does not compile never matches, as preg_match's failure does not.
 */
export function compileRegex(pattern: string, ignoreCase: boolean, global = false): RegExp | null {
  let source = rawurldecode(pattern);
  let caseless = ignoreCase;
  if (source.startsWith("(?i)")) {
    caseless = true;
    source = source.slice(4);
  }
  source = source.replace(/\\A/g, "^").replace(/\\[zZ]/g, "$");
  try {
    return new RegExp(source, `s${caseless ? "i" : ""}${global ? "g" : ""}`);
  } catch {
    return null;
  }
}

/** PHP replacement references (`\1`, `${1}`) as JavaScript's `$1`. */
const jsReplacement = (replacement: string) =>
  replacement.replace(/\$\{(\d{1,2})\}/g, "$$$1").replace(/\\(\d{1,2})/g, "$$$1");

/** Red_Regex::replace: preg_replace of every match, then spaces encoded (%20 in the path, + in the query). */
export function regexReplace(pattern: string, ignoreCase: boolean, replacement: string, subject: string): string {
  const regex = compileRegex(pattern, ignoreCase, true);
  if (!regex) return subject;
  const result = subject.replace(regex, jsReplacement(replacement));
  const split = result.split("?");
  if (split.length === 2) return `${split[0].replace(/ /g, "%20")}?${split[1].replace(/ /g, "+")}`;
  return result.replace(/ /g, "%20");
}

/** PHP http_build_query of a parsed query (nested objects as a[b]=…, RFC 1738 encoding). */
function buildQuery(query: QueryObject, prefix = ""): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (isObject(value)) parts.push(...buildQuery(value, name));
    else parts.push(`${encodeURIComponent(name).replace(/%20/g, "+")}=${encodeURIComponent(value ?? "").replace(/%20/g, "+")}`);
  }
  return parts;
}

/** Red_Url_Query::build_url: the query appended (`?` or `&`), a `#fragment` moved after it. */
export function buildUrl(url: string, query: QueryObject): string {
  let built = buildQuery(query).join("&").replace(/%5B\d*%5D/g, "[]");
  for (const [key, value] of Object.entries(query)) {
    if (value === null) {
      const name = rawurlencode(key).replace(/%20/g, "+");
      built = built.split(`${name}=`).join(name);
    }
  }
  built = built.replace(/%252B/g, "+");
  if (!built) return url;
  let base = url;
  const hash = url.indexOf("#");
  if (hash !== -1) {
    const fragment = url.slice(hash + 1);
    if (fragment) {
      base = url.replace(`#${fragment}`, "");
      built += `#${fragment}`;
    }
  }
  return `${base}${base.includes("?") ? "&" : "?"}${built}`;
}

/** Red_Url_Query::add_to_target: with `pass`, the request's params the target does not define. */
export function addQueryToTarget(target: string, requested: string, flags: SourceFlags): string {
  if (flags.flag_query !== "pass" || !target) return target;
  const targetQuery = parseQuery(queryAfter(target));
  const requestQuery = parseQuery(queryAfter(requested));
  const diff = { ...queryDiff(targetQuery, requestQuery), ...queryDiff(requestQuery, targetQuery) };
  for (const key of Object.keys(diff)) if (Object.hasOwn(targetQuery, key)) delete diff[key];
  return buildUrl(target, diff);
}

/** Red_Url::is_match: a source against the decoded request URL. */
export function sourceMatches(source: string, requested: string, flags: SourceFlags, compiled?: RegExp | null): boolean {
  if (flags.flag_regex) {
    const regex = compiled === undefined ? compileRegex(source.replace(/ /g, "%20"), flags.flag_case) : compiled;
    if (!regex) return false;
    regex.lastIndex = 0;
    return regex.test(requested);
  }
  const src = source.replace(/ /g, "%20");
  return pathMatches(src, requested, flags) && queryMatches(src, requested, flags);
}
