// GET /export/{module}/{format}: the plugin's CSV, Apache .htaccess, Nginx and JSON texts, byte for
// byte (fileio/*.php, models/htaccess.php). The date line comes from the injectable clock.
import type { RedirectionItem } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
import { redirectionEnvironment } from "./environment.ts";
import { groupViews } from "./groups.ts";
import { requireRedirection } from "./permissions.ts";
import { actionDataOf, flagsOf, rfc2822, toView } from "./records.ts";
import { readOptions, type RedirectionOptions } from "./settings.ts";
import { rawurlencode } from "./url.ts";

export const PLUGIN_VERSION = "5.4.2";
export const EXPORT_FORMATS = ["csv", "apache", "nginx", "json"] as const;
export const EXPORT_MODULES = ["1", "2", "3", "all"] as const;

const replaceAll = (s: string, pairs: [string, string][]) => pairs.reduce((acc, [a, b]) => acc.split(a).join(b), s);

// --- CSV -------------------------------------------------------------------------------------

const isNumeric = (v: unknown) => typeof v === "number" || (typeof v === "string" && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v));
const csvCell = (v: unknown) => (isNumeric(v) ? String(v) : `"${String(v ?? "").replace(/"/g, '""')}"`);

export function csvText(rows: RedirectionItem[]): string {
  const lines = ["source,target,regex,code,type,hits,title,status"];
  for (const row of rows) {
    const data = actionDataOf(row);
    let target = data && typeof data === "object" && !Array.isArray(data) && "url" in data ? String(data.url ?? "") : "/unknown";
    if (row.actionCode > 400 && row.actionCode < 500) target = "";
    lines.push([row.url, target, row.regex ? 1 : 0, row.actionCode, row.actionType, row.lastCount, row.title ?? "", row.status === "enabled" ? "active" : "disabled"].map(csvCell).join(","));
  }
  return `${lines.join("\n")}\n`;
}

// --- Apache ----------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

const apacheEncode = (url: string) => replaceAll(rawurlencode(url), [["%2F", "/"], ["%3F", "?"], ["+", "%20"], [".", "\\."]]);
const apacheTarget = (url: string) => replaceAll(rawurlencode(url), [["%2F", "/"], ["%3F", "?"], ["%3A", ":"], ["%3D", "="], ["%26", "&"], ["%25", "%"], ["+", "%20"], ["%24", "$"], ["%23", "#"]]);

function encodeFrom(url: string, ignoreTrailing: boolean): string {
  let u = apacheEncode(url).replace(/^\/+/, "");
  if (ignoreTrailing) u = `${u.replace(/\/+$/, "")}/?`;
  return `^${u}$`;
}

function encodeRegex(url: string): string {
  let u = url.replace(/[\r\n\t][\s\S]*$/, "").replace(CONTROL, "");
  u = u.replace(/ /g, "%20").replace(/%24/g, "$");
  u = u.replace(/^\/+/, "");
  return u.replace(/^\^\//, "^");
}

interface SourceFlagsJson { flag_case?: boolean; flag_query?: string }

function sourceFlagList(existing: string[], source: SourceFlagsJson, url: string): string[] {
  const flags = [...existing];
  if (source.flag_case) flags.push("NC");
  if (source.flag_query === "pass") flags.push("QSA");
  if (url.includes("#") || url.includes("%")) flags.push("NE");
  return flags;
}

function apacheAction(action: string, data: string, code: number, source: SourceFlagsJson): string {
  switch (action) {
    case "url": return `${apacheTarget(data)} [${sourceFlagList([`R=${code}`, "L"], source, data).join(",")}]`;
    case "pass": return `${apacheTarget(data)} [${sourceFlagList(["L"], source, data).join(",")}]`;
    case "error": return `/ [${sourceFlagList([code === 410 ? "G" : "F"], source, data).join(",")}]`;
    case "random": return `/ [${sourceFlagList([`R=${code}`, "L"], source, data).join(",")}]`;
    default: return "";
  }
}

export function apacheText(rows: RedirectionItem[], options: RedirectionOptions, now: Date): string {
  const items: string[] = [];
  for (const row of rows) {
    if (row.status !== "enabled") continue;
    const flags = flagsOf(row, options);
    const source: SourceFlagsJson = flags;
    const data = (actionDataOf(row) ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    const addUrl = (target: string) => {
      let url = row.url;
      if (!row.regex && url.includes("?")) {
        const q = url.indexOf("?");
        items.push(`RewriteCond %{QUERY_STRING} ^${url.slice(q + 1)}$`);
        url = url.slice(0, q);
      }
      const to = apacheAction(row.actionType, target, row.actionCode, source);
      const from = row.regex ? encodeRegex(row.url) : encodeFrom(url, flags.flag_trailing);
      if (to) items.push(`RewriteRule ${from.trim()} ${to.trim()}`);
    };
    const fromNotFrom = (condition: string, pattern: string) => {
      const from = row.regex ? encodeRegex(row.url.replace(/^\/+/, "")) : condition === "agent" ? apacheEncode(row.url.replace(/^\/+/, "")) : encodeFrom(row.url.replace(/^\/+/, ""), flags.flag_trailing);
      if (!(str(data.url_from) || str(data.url_notfrom)) || !pattern) return;
      let to = "";
      if (str(data.url_from)) to = apacheAction(row.actionType, str(data.url_from), row.actionCode, source);
      if (str(data.url_notfrom)) to = apacheAction(row.actionType, str(data.url_notfrom), row.actionCode, source);
      const header = condition === "agent" ? "HTTP_USER_AGENT" : "HTTP_REFERER";
      const encoded = data.regex === true ? encodeRegex(pattern) : condition === "agent" ? apacheTarget(pattern) : encodeFrom(pattern, false);
      items.push(`RewriteCond %{${header}} ${encoded} [NC]`);
      if (to) items.push(`RewriteRule ${from} ${to}`);
    };
    switch (row.matchType) {
      case "url": addUrl(str(data.url)); break;
      case "server": {
        let host = "";
        try { host = new URL(str(data.server)).hostname; } catch { host = ""; }
        items.push(`RewriteCond %{HTTP_HOST} ^${host.replace(/[.\\+*?[^\]$(){}=!<>|:#/-]/g, "\\$&")}$ [NC]`);
        addUrl(str(data.url_from));
        break;
      }
      case "referrer": fromNotFrom("referrer", str(data.referrer)); break;
      case "agent": fromNotFrom("agent", str(data.agent)); break;
      default: break;
    }
  }
  if (items.length === 0) return "\n";
  const lines = ["# Created by Redirection", `# ${rfc2822(now)}`, `# Redirection ${PLUGIN_VERSION} - https://redirection.me`, "", "<IfModule mod_rewrite.c>"];
  if (options.https) lines.push("RewriteCond %{HTTPS} off", "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]");
  for (const item of items) {
    const clean = item.replace(/[\r\n\t]/g, "").replace(CONTROL, "").split("<?").join("").split(">").join("");
    if (clean) lines.push(clean);
  }
  lines.push("</IfModule>", "", "# End of Redirection");
  return `${lines.join("\n")}\n`;
}

// --- Nginx -----------------------------------------------------------------------------------

/** Red_Url_Encode (the plugin's `%5C` → `]` slip in regex sources is kept, as its exports have it). */
function urlEncodeFor(url: string, regex: boolean) {
  const clean = url.replace(/[\r\n\t][\s\S]*$/, "").replace(CONTROL, "").replace(/ /g, "%20").replace(/%24/g, "$");
  const encodeRegexPart = (u: string) => {
    if (!regex) return u;
    const stripped = u.replace(/^\/+/, "").replace(/^\^\//, "^");
    return replaceAll(stripped, [["%2A", "*"], ["%3F", "?"], ["%28", "("], ["%29", ")"], ["%5B", "["], ["%5C", "]"], ["%24", "$"], ["%2B", "+"], ["%7C", "|"], ["\\.", "."]]);
  };
  return {
    source: () => encodeRegexPart(replaceAll(rawurlencode(clean), [["%2F", "/"], ["%3F", "?"], ["+", "%20"], [".", "\\."]])),
    target: () => encodeRegexPart(replaceAll(rawurlencode(clean), [["%2F", "/"], ["%3F", "?"], ["%3A", ":"], ["%3D", "="], ["%26", "&"], ["%25", "%"], ["+", "%20"], ["%24", "$"], ["%23", "#"]])),
  };
}

function nginxRewrite(line: string, target: string, code: string, caseless: boolean, regex: boolean): string {
  const trimmed = line.replace(/^\^+/, "").replace(/\$+$/, "");
  const from = urlEncodeFor(trimmed, regex).source().replace(/^\^+/, "").replace(/\$+$/, "");
  return `rewrite ${caseless ? "(?i)^" : "^"}${from}$ ${urlEncodeFor(target, false).target()} ${code};`;
}

export function nginxText(rows: RedirectionItem[], options: RedirectionOptions, now: Date): string {
  const lines = ["# Created by Redirection", `# ${rfc2822(now)}`, `# Redirection ${PLUGIN_VERSION} - https://redirection.me`, "", "server {"];
  for (const row of rows) {
    if (row.status !== "enabled") continue;
    const flags = flagsOf(row, options);
    const code = row.actionCode === 301 ? "permanent" : "redirect";
    const data = (actionDataOf(row) ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    if (row.matchType === "url") {
      lines.push(`    ${nginxRewrite(row.url, row.actionData ?? "", code, flags.flag_case, flags.flag_regex)}`);
    } else if (row.matchType === "agent" || row.matchType === "referrer") {
      const variable = row.matchType === "agent" ? "$http_user_agent" : "$http_referer";
      // The plugin reads an undefined property for the pattern, so it is always empty.
      const parts: string[] = [];
      if (str(data.url_from)) parts.push(`if ( ${variable} ~* ^$ ) {`, `        ${nginxRewrite(row.url, str(data.url_from), code, flags.flag_case, false)}`, "    }");
      if (str(data.url_notfrom)) parts.push(`if ( ${variable} !~* ^$ ) {`, `        ${nginxRewrite(row.url, str(data.url_notfrom), code, flags.flag_case, false)}`, "    }");
      if (parts.length) lines.push(`    ${parts.join("\n")}`);
    }
  }
  lines.push("}", "", "# End of Redirection");
  return `${lines.join("\n")}\n`;
}

// --- JSON ------------------------------------------------------------------------------------

/** wp_json_encode with JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES (4 spaces; empty arrays as []). */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 4).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}

export function snakeRule(view: ReturnType<typeof toView>): Record<string, unknown> {
  return {
    id: view.id, url: view.url, match_url: view.matchUrl, match_data: view.matchData, action_code: view.actionCode, action_type: view.actionType,
    action_data: view.actionData, match_type: view.matchType, title: view.title, hits: view.hits, regex: view.regex, group_id: view.groupId,
    position: view.position, last_access: view.lastAccess, enabled: view.enabled,
  };
}

export interface ExportResult { data: string; total: number }

export async function exportRedirects(ctx: ExtensionsContext, module: string, format: string): Promise<ExportResult> {
  requireRedirection(ctx);
  if (!(EXPORT_MODULES as readonly string[]).includes(module) || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    fail("redirect_export_invalid_module", { data: { error_code: 26 } });
  }
  const { options } = await readOptions(ctx);
  const now = redirectionEnvironment.now();
  const all = module === "all";
  const groups = await ctx.prisma.redirectionGroup.findMany({ where: all ? {} : { moduleId: Number(module) }, orderBy: { id: "asc" } });
  const rows = await ctx.prisma.redirectionItem.findMany({
    where: all ? {} : { status: "enabled", group: { moduleId: Number(module), status: "enabled" } },
    orderBy: all ? [{ id: "asc" }] : [{ position: "asc" }, { id: "asc" }],
  });
  let data: string;
  if (format === "csv") data = csvText(rows);
  else if (format === "apache") data = apacheText(rows, options, now);
  else if (format === "nginx") data = nginxText(rows, options, now);
  else {
    const views = await groupViews(ctx, groups);
    data = jsonText({
      plugin: { version: PLUGIN_VERSION, date: rfc2822(now) },
      groups: views.map((g) => ({ id: g.id, name: g.name, redirects: g.redirects, module_id: g.moduleId, moduleName: g.moduleName, enabled: g.enabled })),
      redirects: rows.map((r) => snakeRule(toView(r, options))),
    });
  }
  return { data, total: rows.length };
}
