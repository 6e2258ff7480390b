// PHP value semantics that WordPress's REST schema code relies on, restated for JSON-ish JS
// values: PHP arrays are JS arrays (lists) or plain objects (maps); casts, is_numeric, list
// parsing, and the format checks/sanitizers (is_email, rest_parse_date, esc_url_raw, …).
// Kept separate from validation.ts so the schema walk there reads like WordPress's own.

export type PlainObject = Record<string, unknown>;

/** PHP whitespace as used by is_numeric, trim and PCRE's `\s` (ASCII only, unlike JS `\s`). */
const WS = " \\t\\n\\r\\v\\f";

export function isPlainObject(v: unknown): v is PlainObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** `is_array`: a list or a map. */
export function isPhpArray(v: unknown): v is unknown[] | PlainObject {
  return Array.isArray(v) || isPlainObject(v);
}

export function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** Key/value pairs of a PHP array; list indexes become string keys like PHP's int keys. */
export function phpEntries(v: unknown[] | PlainObject): [string, unknown][] {
  return Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
}

const INT_KEY = /^(0|-?[1-9][0-9]*)$/;

/** `wp_is_numeric_array`: every key is an integer (PHP turns "5" keys into ints). */
export function isNumericArray(v: unknown): boolean {
  if (Array.isArray(v)) return true;
  if (!isPlainObject(v)) return false;
  return Object.keys(v).every((k) => INT_KEY.test(k));
}

/** `wp_parse_list` for a scalar: split on commas and ASCII whitespace, dropping empties. */
export function parseList(v: string | number | boolean): string[] {
  return phpString(v).split(new RegExp(`[${WS},]+`)).filter((s) => s !== "");
}

/** `(string)` of a float/int, following PHP 8 (`1.0E+20`, `INF`). */
function phpNumberString(n: number): string {
  if (Number.isNaN(n)) return "NAN";
  if (!Number.isFinite(n)) return n > 0 ? "INF" : "-INF";
  const s = String(n);
  const m = /^(-?[0-9.]+)e([+-])([0-9]+)$/.exec(s);
  if (!m) return s;
  const mantissa = m[1].includes(".") ? m[1] : `${m[1]}.0`;
  return `${mantissa}E${m[2]}${m[3]}`;
}

/** PHP `(string)` cast. */
export function phpString(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number") return phpNumberString(v);
  if (v === true) return "1";
  if (v === false || v === null || v === undefined) return "";
  if (isPhpArray(v)) return "Array";
  return String(v);
}

const NUMERIC = new RegExp(`^[${WS}]*[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?[${WS}]*$`);
const LEADING_NUMERIC = new RegExp(`^[${WS}]*[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?`);

/** PHP 8 `is_numeric` (leading and trailing whitespace allowed, no hex). */
export function isNumeric(v: unknown): boolean {
  if (typeof v === "number") return true;
  return typeof v === "string" && NUMERIC.test(v);
}

/** PHP `(float)` cast: numeric prefix of a string, 0 otherwise. */
export function toFloat(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    const m = LEADING_NUMERIC.exec(v);
    return m ? Number.parseFloat(m[0].trim()) : 0;
  }
  if (Array.isArray(v)) return v.length > 0 ? 1 : 0;
  if (isPlainObject(v)) return Object.keys(v).length > 0 ? 1 : 0;
  return 0;
}

/** PHP `(int)` cast; `"1e3"` is 1000 as in PHP ≥ 7.1, non-finite values are 0. */
export function toInt(v: unknown): number {
  const f = toFloat(v);
  if (!Number.isFinite(f)) return 0;
  const t = Math.trunc(f);
  return t === 0 ? 0 : t; // no -0 in output
}

/** `rest_is_integer`: numeric with no fractional part ("5.0", "1e1", " 5"). */
export function isIntegerLike(v: unknown): boolean {
  return isNumeric(v) && Number.isInteger(toFloat(v));
}

/** `rest_is_boolean`. JSON cannot tell 1 from 1.0, so any integral 0/1 number counts as int. */
export function isBooleanLike(v: unknown): boolean {
  if (typeof v === "boolean") return true;
  if (typeof v === "string") return ["false", "true", "0", "1"].includes(v.toLowerCase());
  if (typeof v === "number") return v === 0 || v === 1;
  return false;
}

/** PHP truthiness, for `(bool)` casts. */
export function phpTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v !== "" && v !== "0";
  if (Array.isArray(v)) return v.length > 0;
  if (isPlainObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** `rest_sanitize_boolean`. */
export function sanitizeBoolean(v: unknown): boolean {
  if (typeof v === "string") {
    const lower = v.toLowerCase();
    if (lower === "false" || lower === "0") return false;
  }
  return phpTruthy(v);
}

/** Key for `rest_validate_array_contains_unique_items` (serialize of a ksorted value): type-exact. */
export function uniqueKey(v: unknown): string {
  if (v === null || v === undefined) return "N";
  if (typeof v === "boolean") return `b:${v ? 1 : 0}`;
  if (typeof v === "number") return Number.isInteger(v) ? `i:${v}` : `d:${v}`;
  if (typeof v === "string") return `s:${JSON.stringify(v)}`;
  if (isPhpArray(v)) {
    const entries = phpEntries(v).sort(([a], [b]) => compareKeys(a, b));
    return `a:{${entries.map(([k, x]) => `${JSON.stringify(k)}:${uniqueKey(x)}`).join(",")}}`;
  }
  return `o:${String(v)}`;
}

function compareKeys(a: string, b: string): number {
  const an = INT_KEY.test(a), bn = INT_KEY.test(b);
  if (an && bn) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `rest_are_values_equal`: deep, key-order-insensitive for maps, strict for scalars. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (isPhpArray(a) && isPhpArray(b)) {
    const ea = phpEntries(a);
    const mb = new Map(phpEntries(b));
    if (ea.length !== mb.size) return false;
    return ea.every(([k, x]) => mb.has(k) && valuesEqual(x, mb.get(k)));
  }
  return a === b;
}

/** `wp_json_encode` as PHP writes it: slashes escaped, non-ASCII as \uXXXX. */
export function phpJsonEncode(v: unknown): string {
  const json = JSON.stringify(v) ?? "null";
  return json
    .replace(/\//g, "\\/")
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `wp_sprintf` `%l`: "a", "a and b", "a, b, and c". */
export function sprintfList(items: readonly string[]): string {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0];
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;
}

/** `number_format_i18n` with no decimals, en_US separators. */
export function numberFormat(n: number): string {
  const rounded = Math.round(Math.abs(n));
  const grouped = String(rounded).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 && rounded !== 0 ? `-${grouped}` : grouped;
}

/** PHP `%d` of a schema bound: truncated toward zero. */
export function phpIntFormat(n: number): string {
  return String(toInt(n));
}

// ---- Patterns -----------------------------------------------------------------------------

const patternCache = new Map<string, RegExp | null>();

/**
 * Turns a PCRE pattern (as `preg_match('#…#u')` runs it) into a JS RegExp. PCRE's `$` also
 * matches before a final newline and knows `\A`, `\z`, `\Z`; everything else is close enough.
 */
export function compilePattern(pattern: string): RegExp | null {
  const cached = patternCache.get(pattern);
  if (cached !== undefined) return cached;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) {
      const n = pattern[i + 1];
      i++;
      if (!inClass && n === "A") out += "^";
      else if (!inClass && n === "z") out += "$";
      else if (!inClass && n === "Z") out += "(?=\\n?$)";
      else out += c + n;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      if (pattern[i + 1] === "^") { out += "^"; i++; }
      if (pattern[i + 1] === "]") { out += "\\]"; i++; } // PCRE: a leading ] is literal
      continue;
    }
    out += c === "$" ? "(?=\\n?$)" : c;
  }
  let re: RegExp | null = null;
  for (const flags of ["u", ""]) {
    try { re = new RegExp(out, flags); break; } catch { /* try the next flag set */ }
  }
  patternCache.set(pattern, re);
  return re;
}

/** `rest_validate_json_schema_pattern`: unanchored; an invalid pattern never matches (preg_match → false). */
export function matchesPattern(pattern: string, value: string): boolean {
  const re = compilePattern(pattern);
  return re !== null && re.test(value);
}

// ---- Formats ------------------------------------------------------------------------------

const HEX_COLOR = /^#([A-Fa-f0-9]{3}){1,2}$/;

/** `rest_parse_hex_color` truthiness. */
export function isHexColor(v: unknown): boolean {
  return HEX_COLOR.test(phpString(v));
}

/** `sanitize_hex_color`, then `(string)` of its null. */
export function sanitizeHexColor(v: unknown): string {
  const s = phpString(v);
  return s === "" || HEX_COLOR.test(s) ? s : "";
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}(?::\d{2})?)?\n?$/;

/**
 * `rest_parse_date` !== false: the RFC 3339-ish regex, then what `strtotime` rejects
 * (month > 12, day > 31, hour > 24, minute > 59, second > 60).
 */
export function isDateTime(v: unknown): boolean {
  const m = DATE_TIME.exec(phpString(v));
  if (!m) return false;
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  return month <= 12 && day <= 31 && hour <= 24 && minute <= 59 && second <= 60;
}

/** PHP `trim` with an explicit character list. */
function phpTrim(s: string, chars: string): string {
  let a = 0, b = s.length;
  while (a < b && chars.includes(s[a])) a++;
  while (b > a && chars.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

const TRIM_DEFAULT = " \t\n\r\0\x0B";

/** WordPress `is_email` (without the filter). */
export function isEmail(v: unknown): boolean {
  const email = phpString(v);
  if (Buffer.byteLength(email, "utf8") < 6) return false;
  const at = email.indexOf("@", 1);
  if (at === -1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, `${TRIM_DEFAULT}.`) !== domain) return false;
  const subs = domain.split(".");
  if (subs.length < 2) return false;
  return subs.every((sub) => phpTrim(sub, `${TRIM_DEFAULT}-`) === sub && /^[a-z0-9-]+$/i.test(sub));
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$/;

/** Requests' `IPv6::uncompress` (expands one `::`). Null when PHP would throw. */
function uncompressIpv6(ip: string): string | null {
  if (ip.split("::").length - 1 !== 1) return ip;
  const [ip1, ip2] = ip.split("::");
  const c1 = ip1 === "" ? -1 : ip1.split(":").length - 1;
  let c2 = ip2 === "" ? -1 : ip2.split(":").length - 1;
  if (ip2.includes(".")) c2++;
  let fill: string;
  if (c1 === -1 && c2 === -1) return "0:0:0:0:0:0:0:0";
  if (c1 === -1) {
    if (7 - c2 < 0) return null;
    fill = "0:".repeat(7 - c2);
  } else if (c2 === -1) {
    if (7 - c1 < 0) return null;
    fill = ":0".repeat(7 - c1);
  } else {
    if (6 - c2 - c1 < 0) return null;
    fill = `:${"0:".repeat(6 - c2 - c1)}`;
  }
  return ip.replace("::", fill);
}

/** Requests' `IPv6::check_ipv6`. */
function isIpv6(input: string): boolean {
  const ip = uncompressIpv6(input);
  if (ip === null) return false;
  let v6 = ip, v4 = "";
  if (ip.includes(".")) {
    const pos = ip.lastIndexOf(":");
    v6 = ip.slice(0, pos);
    v4 = ip.slice(pos + 1);
  }
  const p6 = v6.split(":"), p4 = v4.split(".");
  if (!((p6.length === 8 && p4.length === 1) || (p6.length === 6 && p4.length === 4))) return false;
  for (const part of p6) {
    if (part === "" || part.length > 4 || !/^[0-9a-fA-F]+$/.test(part)) return false;
  }
  if (p4.length === 4) {
    for (const part of p4) {
      const n = toInt(part);
      if (String(n) !== part || n < 0 || n > 255) return false;
    }
  }
  return true;
}

/** `rest_is_ip_address` truthiness. */
export function isIpAddress(v: unknown): boolean {
  const s = phpString(v);
  return IPV4.test(s) || isIpv6(s);
}

/** `wp_is_uuid` (any version; lowercase hex only, as WordPress checks it). */
export function isUuid(v: unknown): boolean {
  return typeof v === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v);
}

/** `esc_html` for the stray-`<` fragments `wp_pre_kses_less_than` escapes. */
function escHtml(s: string): string {
  return s
    .replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#x[0-9a-fA-F]+);)/g, "&amp;")
    .replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#039;");
}

/** `sanitize_text_field` / `sanitize_textarea_field` (`_sanitize_text_fields`). */
export function sanitizeTextField(v: unknown, keepNewlines = false): string {
  if (isPhpArray(v)) return "";
  let s = phpString(v);
  if (s.includes("<")) {
    s = s.replace(/<[^>]*?((?=<)|>|$)/g, (m) => (m.includes(">") ? m : escHtml(m)));
    // wp_strip_all_tags: script/style with contents, comments, then every remaining tag.
    s = s.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, "");
    s = s.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]*>/g, "");
    s = phpTrim(s, TRIM_DEFAULT).replace(/<\n/g, "&lt;\n");
  }
  if (!keepNewlines) s = s.replace(/[\r\n\t ]+/g, " ");
  s = phpTrim(s, TRIM_DEFAULT);
  let found = false;
  for (let m = /%[a-f0-9]{2}/i.exec(s); m; m = /%[a-f0-9]{2}/i.exec(s)) {
    s = s.split(m[0]).join("");
    found = true;
  }
  if (found) s = phpTrim(s.replace(/ +/g, " "), TRIM_DEFAULT);
  return s;
}

const ALLOWED_PROTOCOLS = [
  "http", "https", "ftp", "ftps", "mailto", "news", "irc", "irc6", "ircs", "gopher", "nntp", "feed",
  "telnet", "mms", "rtsp", "sms", "svn", "tel", "fax", "xmpp", "webcal", "urn",
];

/** `wp_kses_bad_protocol_once`: keeps an allowed scheme, drops any other. */
function badProtocolOnce(content: string, count = 1): string {
  const sep = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(content);
  if (!sep) return content;
  const head = content.slice(0, sep.index);
  if (head.includes("/?")) return content;
  let rest = phpTrim(content.slice(sep.index + sep[0].length), TRIM_DEFAULT);
  const scheme = head.replace(/&colon;/gi, ":").replace(/[ \t\n\r\v\f]/g, "").replace(/\0/g, "").toLowerCase();
  const protocol = ALLOWED_PROTOCOLS.includes(scheme) ? `${scheme}:` : "";
  if (protocol === "feed:") {
    if (count > 2) return "";
    rest = badProtocolOnce(rest, count + 1);
    if (rest === "") return rest;
  }
  return protocol + rest;
}

/** `wp_kses_bad_protocol`: repeat until stable (at most 6 passes). */
function badProtocol(input: string): string {
  let content = input.replace(/\0/g, "");
  if (content.startsWith("https://") || content.startsWith("http://")) return content;
  let original: string;
  let iterations = 0;
  do {
    original = content;
    content = badProtocolOnce(content);
  } while (original !== content && ++iterations < 6);
  return original !== content ? "" : content;
}

/** `sanitize_url` / `esc_url_raw`: drops odd characters, adds `http://`, rejects bad schemes. */
export function sanitizeUrl(v: unknown): string {
  let url = phpString(v);
  if (url === "") return url;
  url = url.replace(/^[ \t\n\r\0\x0B]+/, "").replace(/ /g, "%20");
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, "");
  if (url === "") return url;
  if (!url.toLowerCase().startsWith("mailto:")) {
    // _deep_replace: repeat until none of the encoded CR/LF remain.
    let prev: string;
    do { prev = url; url = url.replace(/%0[da]/gi, ""); } while (prev !== url);
  }
  url = url.replace(/;\/\//g, "://");
  if (!url.includes(":") && !["/", "#", "?"].includes(url[0]) && !/^[a-z0-9-]+?\.php/i.test(url)) {
    url = `http://${url}`;
  }
  if (url.includes("[") || url.includes("]")) {
    const front = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/\/)?(?:[^/?#@]*@)?[^/?#[\]]*(?::\d+)?/i.exec(url)?.[0] ?? "";
    url = front + url.slice(front.length).replace(/\[/g, "%5B").replace(/\]/g, "%5D");
  }
  if (url[0] === "/") return url;
  const good = badProtocol(url);
  return good.toLowerCase() !== url.toLowerCase() ? "" : good;
}
