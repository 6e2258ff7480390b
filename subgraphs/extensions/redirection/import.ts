// POST /import/file/{group_id}: the plugin's CSV (csv-parse, separators , ; | tried in turn),
// its JSON export and Apache Redirect/RewriteRule lines, chosen by the file's extension.
import { parse } from "csv-parse/sync";
import { DomainError, fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
import { insertGroup } from "./groups.ts";
import { requireRedirection } from "./permissions.ts";
import { insertRule } from "./redirects.ts";
import { sanitizeRule, type SanitizeContext } from "./records.ts";
import { bumpRulesVersion, readOptions } from "./settings.ts";

export interface ImportFile { filename: string; contentBase64: string }

const KNOWN_STATUS = new Set([100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308,
  400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451,
  500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511]);

const REGEX_CHARS = /[()[\]$^*]/;

async function context(ctx: ExtensionsContext): Promise<SanitizeContext> {
  const { options } = await readOptions(ctx);
  const groups = await ctx.prisma.redirectionGroup.findMany({ select: { id: true } });
  const ids = new Set(groups.map((g) => g.id));
  return { options, groupExists: (id) => ids.has(id), siteHost: new URL(ctx.config.siteUrl).host };
}

/** Saves one payload as a rule; false when the sanitizer refuses it. */
async function save(ctx: ExtensionsContext, sanitize: SanitizeContext, payload: Record<string, unknown>): Promise<boolean> {
  try {
    await insertRule(ctx, sanitizeRule(payload, sanitize));
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

async function importCsv(ctx: ExtensionsContext, groupId: number, text: string, enabled: boolean): Promise<number> {
  const sanitize = await context(ctx);
  for (const delimiter of [",", ";", "|"]) {
    let rows: string[][];
    try {
      rows = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, max_record_size: 5000, bom: true }) as string[][];
    } catch {
      continue;
    }
    let count = 0;
    for (const csv of rows) {
      if (csv.length < 2 || csv[0] === "source" || csv[1] === "target") continue;
      const source = csv[0].trim();
      const target = csv[1].trim();
      if (source === "" || source === target) continue;
      const codeIn = csv[3] !== undefined ? Number.parseInt(csv[3], 10) : 301;
      const code = KNOWN_STATUS.has(codeIn) ? codeIn : 301;
      const regex = csv[2] !== undefined ? Number.parseInt(csv[2], 10) === 1 : REGEX_CHARS.test(source);
      const saved = await save(ctx, sanitize, {
        url: source, action_data: { url: target }, regex: regex ? 1 : 0, group_id: groupId, match_type: "url",
        action_type: code > 400 && code < 500 ? "error" : "url", action_code: code, status: enabled ? "enabled" : "disabled",
      });
      if (saved) count++;
    }
    if (count > 0) return count;
  }
  return 0;
}

async function importJson(ctx: ExtensionsContext, text: string): Promise<number> {
  let json: { groups?: Record<string, unknown>[]; redirects?: Record<string, unknown>[] };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    return 0;
  }
  if (!json || typeof json !== "object") return 0;
  const groupMap = new Map<string, number>();
  for (const group of Array.isArray(json.groups) ? json.groups : []) {
    const name = String(group.name ?? "").replace(/<[^>]*>?/g, "").trim().slice(0, 50);
    const moduleId = Number(group.module_id);
    if (!name || ![1, 2, 3].includes(moduleId)) continue;
    const created = await insertGroup(ctx, name, moduleId, Boolean(group.enabled));
    groupMap.set(String(group.id), created.id);
  }
  let count = 0;
  for (const redirect of Array.isArray(json.redirects) ? json.redirects : []) {
    if (!redirect || typeof redirect !== "object") continue;
    const key = String(redirect.group_id);
    if (!groupMap.has(key)) groupMap.set(key, (await insertGroup(ctx, "Group", 1)).id);
    const payload: Record<string, unknown> = { ...redirect, group_id: groupMap.get(key) };
    delete payload.id;
    if (payload.match_type === "url" && payload.action_data !== undefined && (payload.action_data === null || typeof payload.action_data !== "object")) {
      payload.action_data = { url: payload.action_data };
    }
    await save(ctx, await context(ctx), payload);
    count++;
  }
  return count;
}

const codeOf = (word: string): number => {
  const w = word.toLowerCase();
  if (w === "301" || w === "permanent" || w === "r=301") return 301;
  if (w === "302" || w === "r=302" || w === "temp") return 302;
  if (w === "307" || w === "seeother" || w === "r=307") return 307;
  if (w === "404" || w === "forbidden" || w === "f") return 404;
  if (w === "410" || w === "gone" || w === "g") return 410;
  return 302;
};

/** One .htaccess line as a rule payload, or null. */
function apacheLine(line: string): { url: string; target: string; code: number; regex: boolean } | null {
  const parts = line.trim().split(/\s+/);
  const directive = parts[0]?.toLowerCase();
  if (directive === "redirect") {
    if (parts.length >= 4) return { url: parts[2], target: parts[3], code: codeOf(parts[1]), regex: false };
    if (parts.length === 3) return { url: parts[1], target: parts[2], code: 302, regex: false };
  } else if (directive === "redirectmatch") {
    if (parts.length >= 4) return { url: parts[2], target: parts[3], code: codeOf(parts[1]), regex: true };
    if (parts.length === 3) return { url: parts[1], target: parts[2], code: 302, regex: true };
  } else if (directive === "rewriterule" && parts.length >= 3) {
    const flags = (parts[3] ?? "").replace(/^\[|\]$/g, "").split(",").map((f) => f.trim());
    let code = 302;
    for (const f of flags) {
      const c = codeOf(f.replace(/^R=/i, ""));
      if (/^R=/i.test(f) || /^[FG]$/i.test(f)) code = c;
      else if (/^R$/i.test(f)) code = 302;
    }
    let source = parts[1].replace(/^\^/, "").replace(/\$$/, "");
    const regex = /[*+?()[\]|\\{}]/.test(source.replace(/\\\./g, ""));
    if (regex) source = `^/${source.replace(/^\//, "")}`;
    else source = `/${source.replace(/\\\./g, ".").replace(/^\//, "")}`;
    return { url: source, target: parts[2] === "-" ? "" : parts[2], code, regex };
  }
  return null;
}

async function importApache(ctx: ExtensionsContext, groupId: number, text: string): Promise<number> {
  const sanitize = await context(ctx);
  let count = 0;
  for (const line of text.split(/\r?\n/)) {
    const rule = apacheLine(line);
    if (!rule) continue;
    const error = rule.code > 400 && rule.code < 500;
    if (await save(ctx, sanitize, {
      url: rule.url, action_data: { url: rule.target }, regex: rule.regex ? 1 : 0, group_id: groupId, match_type: "url",
      action_type: error ? "error" : "url", action_code: rule.code,
    })) count++;
  }
  return count;
}

export async function importFile(ctx: ExtensionsContext, groupId: number, file: ImportFile | null | undefined): Promise<{ imported: number }> {
  requireRedirection(ctx);
  if (!file || !file.filename) fail("redirect_import_invalid_file", { data: { error_code: 97 } });
  const extension = (file.filename.match(/\.([^.]+)$/)?.[1] ?? "").toLowerCase();
  const text = Buffer.from(file.contentBase64, "base64").toString("utf8");
  let imported = 0;
  if (extension === "json") {
    imported = await importJson(ctx, text);
  } else {
    const group = Number.isSafeInteger(groupId) && Math.abs(groupId) < 2 ** 31 ? await ctx.prisma.redirectionGroup.findUnique({ where: { id: groupId } }) : null;
    if (!group) fail("redirect_import_invalid_group", { data: { error_code: 105 } });
    imported = extension === "csv" || extension === "txt"
      ? await importCsv(ctx, groupId, text, group.status === "enabled")
      : await importApache(ctx, groupId, text);
  }
  await bumpRulesVersion(ctx);
  return { imported };
}
