// /setting, /plugin* and /import/plugin: the settings envelope, the status checks (database,
// groups, the regex sources), the fixer, and the importers of other plugins.
import type { ExtensionsContext } from "../context.ts";
import { MODULE_NAMES } from "./groups.ts";
import { requireRedirection } from "./permissions.ts";
import { redirectionEnvironment } from "./environment.ts";
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

const REGEX_LIMIT = 200;

/** GET /plugin: the support page's checks (Red_Fixer::get_status) and debug values. */
export async function pluginStatus(ctx: ExtensionsContext): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  const { options } = await readOptions(ctx);
  const monitor = Number(options.monitor_post);
  const [groups, regexCount, monitorGroup] = await Promise.all([
    ctx.prisma.redirectionGroup.count(),
    ctx.prisma.redirectionItem.count({ where: { regex: true } }),
    monitor === 0 ? Promise.resolve(null) : ctx.prisma.redirectionGroup.findUnique({ where: { id: Number.isSafeInteger(monitor) && Math.abs(monitor) < 2 ** 31 ? monitor : -1 } }),
  ]);
  const validMonitor = monitor === 0 || monitorGroup !== null;
  const status: Record<string, string>[] = [
    // The tables are the init migration's, so they are always present.
    { id: "db", name: "Database tables", status: "good", message: "All tables present" },
    {
      name: "Valid groups", id: "groups",
      message: groups === 0 ? "No valid groups, so you will not be able to create any redirects" : "Valid groups detected", status: groups === 0 ? "problem" : "good",
    },
    // Rules belong to existing groups by a foreign key, so this check always holds.
    { name: "Valid redirect group", id: "redirect_groups", message: "All redirects have a valid group", status: "good" },
    { name: "Post monitor group", id: "monitor", message: validMonitor ? "Post monitor group is valid" : "Post monitor group is invalid", status: validMonitor ? "good" : "problem" },
    // Site and home are one address here.
    { name: "Site and home protocol", id: "redirect_url", message: "Site and home are consistent", status: "good" },
  ];
  if (regexCount > REGEX_LIMIT) {
    status.push({ name: "Regular Expressions", id: "regex", message: "Too many regular expressions may impact site performance", status: "problem" });
  }
  const remote = ctx.identity.client ?? "";
  return {
    status,
    debug: {
      database: { current: DATABASE_VERSION, latest: DATABASE_VERSION },
      // The router forwards only the caller's address; the other headers are not seen here.
      ip_header: Object.fromEntries(IP_HEADERS.map((h) => [h, h === "REMOTE_ADDR" && remote ? remote : false])),
    },
  };
}

/** POST /plugin: with name and value saves a debug value (then makes a group if none exists); else runs the fixer. */
export async function fixPlugin(ctx: ExtensionsContext, name?: string | null, value?: string | null): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  const groups = await ctx.prisma.redirectionGroup.count();
  if (name !== null && name !== undefined && value !== null && value !== undefined) {
    // save_debug('database', version) marks an upgrade finished; the schema is always current here.
    if (groups === 0) await ctx.prisma.redirectionGroup.create({ data: { name: "new group", moduleId: 1, position: 0 } });
  } else {
    if (groups === 0) {
      await ctx.prisma.redirectionGroup.createMany({ data: [{ name: "Redirections", moduleId: 1, position: 0 }, { name: "Modified Posts", moduleId: 1, position: 1 }] });
    }
    const { options } = await readOptions(ctx);
    const monitor = Number(options.monitor_post);
    if (monitor !== 0 && !(await ctx.prisma.redirectionGroup.findUnique({ where: { id: Number.isSafeInteger(monitor) && Math.abs(monitor) < 2 ** 31 ? monitor : -1 } }))) {
      await writeOptions(ctx, { ...options, monitor_post: 0 });
    }
  }
  return pluginStatus(ctx);
}

/**
 * POST /plugin/data: the database status. The schema is always the latest (4.2), so the plugin's
 * answer is its "does not need updating" error status.
 */
export async function pluginData(ctx: ExtensionsContext, _upgrade?: string | null): Promise<Record<string, unknown>> {
  requireRedirection(ctx);
  return {
    status: "ok", inProgress: false, current: DATABASE_VERSION, next: DATABASE_VERSION, time: redirectionEnvironment.now().getTime() / 1000,
    complete: 0, result: "error", reason: `Your database does not need updating to ${DATABASE_VERSION}.`, debug: [],
  };
}

/** POST /plugin/delete: the plugin's uninstall removes every rule, group, log row and its options. */
export async function uninstallPlugin(ctx: ExtensionsContext): Promise<void> {
  requireRedirection(ctx);
  await ctx.prisma.$transaction([
    ctx.prisma.redirectionLog.deleteMany({}),
    ctx.prisma.redirection404.deleteMany({}),
    ctx.prisma.redirectionItem.deleteMany({}),
    ctx.prisma.redirectionGroup.deleteMany({}),
    ctx.prisma.redirectionOptions.deleteMany({}),
  ]);
}

/** The plugins whose data the importer knows; none of them is installed on this site. */
export async function listImporters(ctx: ExtensionsContext): Promise<{ importers: unknown[] }> {
  requireRedirection(ctx);
  return { importers: [] };
}
