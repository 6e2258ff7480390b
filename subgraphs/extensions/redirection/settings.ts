// The Redirection plugin's options (red_get_options / red_set_options): defaults, the per-key
// sanitizer (out-of-range values are clamped or ignored, never an error) and the stored row.
import crypto from "node:crypto";
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { ExtensionsContext } from "../context.ts";
import { redirectionEnvironment } from "./environment.ts";
import { parseFlags, type SourceFlags } from "./url.ts";

export type RedirectionOptions = Record<string, unknown> & SourceFlags & {
  expire_redirect: number; expire_404: number; ip_logging: number; track_hits: boolean; redirect_cache: number;
  last_group_id: number; ip_headers: string[]; ip_proxy: string[]; https: boolean; headers: unknown[]; cache_key: number;
  log_external: boolean; log_header: boolean; auto_target: string;
};

export const IP_HEADERS = [
  "HTTP_CF_CONNECTING_IP", "HTTP_CLIENT_IP", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED", "HTTP_X_CLUSTER_CLIENT_IP",
  "HTTP_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_VIA", "REMOTE_ADDR",
];

/** Every option with its default (the order the plugin answers them in). */
export function defaultOptions(): RedirectionOptions {
  return {
    support: false,
    token: crypto.createHash("md5").update(crypto.randomBytes(16)).digest("hex"),
    monitor_post: 0,
    monitor_types: [],
    associated_redirect: "",
    auto_target: "",
    expire_redirect: 7,
    expire_404: 7,
    log_external: false,
    log_header: false,
    track_hits: true,
    modules: [],
    newsletter: false,
    redirect_cache: 1,
    ip_logging: 0,
    ip_headers: [],
    ip_proxy: [],
    last_group_id: 0,
    rest_api: 0,
    https: false,
    headers: [],
    database: "",
    relocate: "",
    preferred_domain: "",
    aliases: [],
    permalinks: [],
    cache_key: 0,
    plugin_update: "prompt",
    update_notice: 0,
    flag_query: "exact",
    flag_case: false,
    flag_trailing: false,
    flag_regex: false,
  };
}

/** A fresh install (no option row yet) ignores case and trailing slashes. */
const FRESH_INSTALL = { flag_case: true, flag_trailing: true };

const clamp = (value: unknown, min: number, max: number, fallback: number): number => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
};
const bool = (value: unknown): boolean => value === true || value === 1 || value === "1" || value === "true";
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

function hostOf(value: string): string | null {
  try {
    return new URL(/^https?:\/\//.test(value) ? value : `http://${value}`).host || null;
  } catch {
    return null;
  }
}

/** What the stored row holds, merged over the defaults (unknown keys dropped). */
export async function readOptions(ctx: Pick<ExtensionsContext, "prisma">): Promise<{ options: RedirectionOptions; rulesVersion: number }> {
  const row = (await ctx.prisma.redirectionOptions.findUnique({ where: { id: 1 } })) ?? await install(ctx);
  const defaults = defaultOptions();
  const stored = (row.values ?? {}) as Record<string, unknown>;
  const options = { ...defaults };
  for (const key of Object.keys(defaults)) if (Object.hasOwn(stored, key)) options[key] = stored[key];
  return { options: options as RedirectionOptions, rulesVersion: row.rulesVersion };
}

/**
 * The plugin's activation: the options row (fresh-install flags: case-insensitive, trailing slash
 * ignored) and the two default groups, "Redirections" (the default) and "Modified Posts".
 */
async function install(ctx: Pick<ExtensionsContext, "prisma">) {
  return ctx.prisma.$transaction(async (tx) => {
    const existing = await tx.redirectionOptions.findUnique({ where: { id: 1 } });
    if (existing) return existing;
    let first = await tx.redirectionGroup.findFirst({ orderBy: { id: "asc" } });
    if (!first) {
      first = await tx.redirectionGroup.create({ data: { name: "Redirections", moduleId: 1, position: 0 } });
      await tx.redirectionGroup.create({ data: { name: "Modified Posts", moduleId: 1, position: 1 } });
    }
    const values = { ...defaultOptions(), ...FRESH_INSTALL, last_group_id: first.id } as unknown as Prisma.InputJsonValue;
    // The rules version starts from the clock, so a reinstall (after /plugin/delete) never meets a
    // compiled matcher of an earlier installation with the same version.
    return tx.redirectionOptions.create({ data: { id: 1, values, rulesVersion: Math.floor(Date.now() / 1000) } });
  });
}

/** Writes the options row (created on first write with the fresh-install flags). */
export async function writeOptions(ctx: Pick<ExtensionsContext, "prisma">, options: RedirectionOptions): Promise<void> {
  const values = options as unknown as Prisma.InputJsonValue;
  await readOptions(ctx);
  // The site-wide flags are part of every rule's flags: the matcher rebuilds.
  await ctx.prisma.redirectionOptions.update({ where: { id: 1 }, data: { values, rulesVersion: { increment: 1 } } });
}

/** Rule writes bump the version every process's matcher compares with. */
export async function bumpRulesVersion(ctx: Pick<ExtensionsContext, "prisma">): Promise<void> {
  await readOptions(ctx);
  await ctx.prisma.redirectionOptions.update({ where: { id: 1 }, data: { rulesVersion: { increment: 1 } } });
}

/** red_set_options: each known key through its own rule; `groupIds` are the existing groups. */
export function sanitizeOptions(current: RedirectionOptions, input: Record<string, unknown>, groupIds: number[]): RedirectionOptions {
  const next: RedirectionOptions = { ...current };
  const has = (key: string) => Object.hasOwn(input, key);
  for (const key of ["support", "log_external", "log_header", "track_hits", "newsletter", "https"]) if (has(key)) next[key] = bool(input[key]);
  if (has("expire_redirect")) next.expire_redirect = clamp(input.expire_redirect, -1, 60, current.expire_redirect);
  if (has("expire_404")) next.expire_404 = clamp(input.expire_404, -1, 60, current.expire_404);
  if (has("ip_logging")) next.ip_logging = clamp(input.ip_logging, 0, 2, current.ip_logging);
  if (has("redirect_cache")) {
    const n = Number(input.redirect_cache);
    next.redirect_cache = [-1, 0, 1, 24, 168].includes(n) ? n : 1;
  }
  if (has("rest_api")) next.rest_api = clamp(input.rest_api, 0, 4, 0);
  if (has("preferred_domain") && ["", "www", "nowww"].includes(String(input.preferred_domain))) next.preferred_domain = String(input.preferred_domain);
  if (has("plugin_update") && ["prompt", "admin"].includes(String(input.plugin_update))) next.plugin_update = String(input.plugin_update);
  if (has("ip_headers")) next.ip_headers = strings(input.ip_headers).filter((h) => IP_HEADERS.includes(h));
  if (has("ip_proxy")) next.ip_proxy = strings(input.ip_proxy).map((s) => s.trim()).filter((s) => s !== "");
  if (has("aliases")) next.aliases = strings(input.aliases).map(hostOf).filter((h): h is string => h !== null).slice(0, 20);
  if (has("permalinks")) next.permalinks = strings(input.permalinks).map((p) => p.trim()).filter(Boolean).slice(0, 10);
  if (has("headers") && Array.isArray(input.headers)) {
    next.headers = input.headers.filter((h): h is Record<string, unknown> => !!h && typeof h === "object" && typeof (h as Record<string, unknown>).headerName === "string");
  }
  if (has("auto_target") && typeof input.auto_target === "string") next.auto_target = input.auto_target.trim();
  if (has("associated_redirect") && typeof input.associated_redirect === "string") next.associated_redirect = input.associated_redirect.trim().replace(/\/+$/, "");
  if (has("monitor_types")) next.monitor_types = strings(input.monitor_types).filter((t) => t === "post" || t === "page" || t === "trash");
  if (has("monitor_post")) {
    const id = Number(input.monitor_post);
    next.monitor_post = groupIds.includes(id) ? id : (groupIds[0] ?? 0);
  }
  if ((next.monitor_types as string[]).length === 0) next.monitor_post = 0;
  if (has("last_group_id")) {
    const id = Number(input.last_group_id);
    next.last_group_id = groupIds.includes(id) ? id : (groupIds[0] ?? 0);
  }
  if (has("relocate") && typeof input.relocate === "string") {
    const value = input.relocate.trim();
    let relocate = "";
    if (value) {
      try {
        const u = new URL(value);
        relocate = `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
      } catch { relocate = ""; }
    }
    next.relocate = relocate;
    if (relocate) {
      next.preferred_domain = "";
      next.aliases = [];
      next.https = false;
    }
  }
  if (has("cache_key")) next.cache_key = bool(input.cache_key) ? Math.floor(redirectionEnvironment.now().getTime() / 1000) : 0;
  if (has("token")) {
    const token = typeof input.token === "string" ? input.token.trim() : "";
    next.token = token || crypto.createHash("md5").update(crypto.randomBytes(16)).digest("hex");
  }
  const flagInput = Object.fromEntries(["flag_query", "flag_case", "flag_trailing", "flag_regex"].filter(has).map((k) => [k, input[k]]));
  Object.assign(next, parseFlags(flagInput, siteFlags(current)));
  return next;
}

/** What GET /setting answers for `settings`: rest_api read back as 0, 1 or 3. */
export function publicOptions(options: RedirectionOptions): Record<string, unknown> {
  const restApi = Number(options.rest_api);
  return { ...options, rest_api: restApi === 0 || restApi === 1 ? restApi : 3 };
}

/** The site-wide source flags (the defaults every rule's own flags are merged over). */
export const siteFlags = (options: RedirectionOptions): SourceFlags =>
  ({ flag_query: options.flag_query, flag_case: options.flag_case, flag_trailing: options.flag_trailing, flag_regex: options.flag_regex });
