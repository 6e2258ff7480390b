// /setting, /plugin* and /import/plugin: the settings envelope, the status checks (database,
// groups, the regex sources), the fixer, and the importers of other plugins.
import type { ExtensionsContext } from "../context.ts";
import { MODULE_NAMES } from "./groups.ts";
import { requireRedirection } from "./permissions.ts";
import { compileRegex } from "./url.ts";
import { IP_HEADERS, publicOptions, readOptions, sanitizeOptions, writeOptions } from "./settings.ts";

export const DATABASE_VERSION = "4.2";

export async function settingsEnvelope(ctx: ExtensionsContext): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  const { options } = await readOptions(ctx);
  const groups = await ctx.prisma.redirectionGroup.findMany({ orderBy: [{ moduleId: "asc" }, { name: "asc" }] });
  const byModule = [1, 2, 3]
    .map((m) => ({ label: MODULE_NAMES[m], value: groups.filter((g) => g.moduleId === m).map((g) => ({ label: g.name, value: g.id })) }))
    .filter((m) => m.value.length > 0);
  return {
    settings: publicOptions(options), groups: byModule, installed: "/", canDelete: true,
    post_types: { post: "Posts", page: "Pages", trash: "Trash" },
  };
}

export async function updateSettings(ctx: ExtensionsContext, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  const { options } = await readOptions(ctx);
  const groups = await ctx.prisma.redirectionGroup.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  await writeOptions(ctx, sanitizeOptions(options, input ?? {}, groups.map((g) => g.id)));
  return settingsEnvelope(ctx);
}

/** GET /plugin: the support page's checks and debug values. */
export async function pluginStatus(ctx: ExtensionsContext): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  const [groups, regexRows] = await Promise.all([
    ctx.prisma.redirectionGroup.count(),
    ctx.prisma.redirectionItem.findMany({ where: { regex: true }, select: { id: true, url: true } }),
  ]);
  const badRegex = regexRows.filter((r) => compileRegex(r.url, false) === null);
  const check = (id: string, name: string, ok: boolean, good: string, problem: string) => ({ id, name, message: ok ? good : problem, status: ok ? "good" : "problem" });
  return {
    status: [
      check("db", "Database tables", true, "All tables present", "Missing tables"),
      check("groups", "Valid groups", groups > 0, "Valid groups detected", "No valid groups, so you will not be able to create any redirects"),
      // Rules belong to existing groups by a foreign key, so this check always holds.
      check("redirect_groups", "Valid redirect group", true, "Redirects with valid groups detected", "Redirects with invalid groups detected"),
      check("monitor", "Post monitor group", true, "Post monitor group is valid", "Post monitor group is invalid"),
      check("regex", "Regular Expressions", badRegex.length === 0, "Regular expressions are valid", `Invalid regular expressions: ${badRegex.map((r) => r.id).join(", ")}`),
    ],
    debug: {
      database: { current: DATABASE_VERSION, latest: DATABASE_VERSION },
      ip_header: Object.fromEntries(IP_HEADERS.map((h) => [h, h === "REMOTE_ADDR" ? "" : false])),
    },
  };
}

/** POST /plugin: runs the fixer (a missing default group is created), or stores a debug value. */
export async function fixPlugin(ctx: ExtensionsContext, name?: string | null, value?: string | null): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  if (name && value !== undefined && value !== null) {
    const { options } = await readOptions(ctx);
    if (name === "database") await writeOptions(ctx, { ...options, database: value });
  } else if ((await ctx.prisma.redirectionGroup.count()) === 0) {
    await ctx.prisma.redirectionGroup.createMany({ data: [{ name: "Redirections", moduleId: 1, position: 0 }, { name: "Modified Posts", moduleId: 1, position: 1 }] });
  }
  return pluginStatus(ctx);
}

/** POST /plugin/data: the database is always at its latest version, so every upgrade step is already done. */
export async function pluginData(ctx: ExtensionsContext, upgrade?: string | null): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  const stop = upgrade === "stop";
  return { status: stop ? "error" : "ok", result: "ok", complete: 100, current: DATABASE_VERSION, next: "", reason: "", ...(upgrade ? { upgrade } : {}) };
}

/** The plugins whose data the importer knows; none of them is installed on this site. */
export async function listImporters(ctx: ExtensionsContext): Promise<{ importers: unknown[] }> {
  requireRedirection(ctx);
  return { importers: [] };
}
