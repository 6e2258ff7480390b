// The Polylang options object (lang/v1/settings): one typed row. Updates follow Polylang's
// Options::set per key: a key whose value is refused keeps its old value and reports an error,
// the other keys of the same update are still saved; "warnings" report a problem with a value
// that was nevertheless stored (after sanitizing). Either makes the REST answer a 400.
import type { LanguageSettings, Prisma, PrismaClient } from "../../../generated/prisma/client.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
import { requireManageLanguages } from "./permissions.ts";
import {
  FORCE_LANG_VALUES, LANGUAGE_SLUG_PATTERN as SLUG_PATTERN, LANGUAGE_SLUG_REGEX as SLUG_REGEX, SYNC_OPTIONS,
} from "../../../lib/polylang/language-values.ts";

export const POLYLANG_VERSION = "3.7.0";

/**
 * Custom (non-core) post types and taxonomies registered on this site. Polylang only lets those
 * be chosen for translation and silently drops the rest; this site registers none.
 */
export const CUSTOM_POST_TYPES: readonly string[] = [];
export const CUSTOM_TAXONOMIES: readonly string[] = [];

export type DomainMap = Record<string, string>;
/** theme → menu location → language slug → menu id */
export type NavMenuMap = Record<string, Record<string, Record<string, number>>>;

export interface SettingsValues {
  browser: boolean;
  rewrite: boolean;
  hideDefault: boolean;
  forceLang: number;
  redirectLang: boolean;
  mediaSupport: boolean;
  sync: string[];
  postTypes: string[];
  taxonomies: string[];
  domains: DomainMap;
  defaultLang: string;
  navMenus: NavMenuMap;
  firstActivation: number;
  version: string;
  previousVersion: string;
}

export interface NavMenuLocationInput { location: string; menus: { language: string; menuId: number }[] }
export interface NavMenuThemeInput { theme: string; locations: NavMenuLocationInput[] }

/** A settings update; absent (or null) keys are left alone. */
export interface SettingsInput {
  browser?: boolean | null;
  rewrite?: boolean | null;
  hideDefault?: boolean | null;
  forceLang?: number | null;
  redirectLang?: boolean | null;
  mediaSupport?: boolean | null;
  sync?: string[] | null;
  postTypes?: string[] | null;
  taxonomies?: string[] | null;
  domains?: { language: string; url: string }[] | null;
  defaultLang?: string | null;
  navMenus?: NavMenuThemeInput[] | null;
}

export interface SettingsIssue { code: ErrorCode; message: string; warning: boolean }

/** Answers whether a URL responds 200 (Polylang pings each language domain before accepting it). */
export type UrlProbe = (url: string) => Promise<boolean>;

type Db = PrismaClient | Prisma.TransactionClient;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function domainsOf(json: unknown): DomainMap {
  if (!isRecord(json)) return {};
  return Object.fromEntries(Object.entries(json).filter((e): e is [string, string] => typeof e[1] === "string"));
}

function navMenusOf(json: unknown): NavMenuMap {
  const result: NavMenuMap = {};
  if (!isRecord(json)) return result;
  for (const [theme, locations] of Object.entries(json)) {
    if (!isRecord(locations)) continue;
    result[theme] = {};
    for (const [location, menus] of Object.entries(locations)) {
      result[theme][location] = isRecord(menus)
        ? Object.fromEntries(Object.entries(menus).filter((e): e is [string, number] => typeof e[1] === "number"))
        : {};
    }
  }
  return result;
}

export function settingsValuesOf(row: LanguageSettings): SettingsValues {
  return {
    browser: row.browser,
    rewrite: row.rewrite,
    hideDefault: row.hideDefault,
    forceLang: row.forceLang,
    redirectLang: row.redirectLang,
    mediaSupport: row.mediaSupport,
    sync: row.sync,
    postTypes: row.postTypes,
    taxonomies: row.taxonomies,
    domains: domainsOf(row.domains),
    defaultLang: row.defaultLang,
    navMenus: navMenusOf(row.navMenus),
    firstActivation: row.firstActivation,
    version: row.version,
    previousVersion: row.previousVersion,
  };
}

/** Creates the settings row with Polylang's fresh-install defaults when it is missing. */
export async function ensureSettings(db: Db, now: Date = new Date()): Promise<LanguageSettings> {
  return db.languageSettings.upsert({
    where: { id: 1 },
    create: { id: 1, firstActivation: Math.floor(now.getTime() / 1000), version: POLYLANG_VERSION },
    update: {},
  });
}

export async function loadSettings(db: Db): Promise<SettingsValues> {
  const row = (await db.languageSettings.findUnique({ where: { id: 1 } })) ?? (await ensureSettings(db));
  return settingsValuesOf(row);
}

/** The JSON columns as Prisma wants them written. */
export const domainsJson = (domains: DomainMap): Prisma.InputJsonObject => domains;
export const navMenusJson = (navMenus: NavMenuMap): Prisma.InputJsonObject => navMenus;

/** "a", "a and b", "a, b, and c" (WordPress's wp_sprintf_l). */
export function humanList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;
}

/** WordPress's esc_url_raw, reduced: http(s) URLs pass, other schemes are dropped, a bare host gets http://. */
export function sanitizeUrl(raw: string): string {
  const url = raw.trim();
  if (!url) return "";
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return /^https?:\/\//i.test(url) ? url : "";
  return `http://${url}`;
}

export const fetchProbe: UrlProbe = async (url) => {
  try {
    const response = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(5000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
};

interface LanguageRef { slug: string; name: string }

const unknownLanguagesWarning = (key: "domains" | "nav_menus", slugs: string[]): SettingsIssue => ({
  code: `pll_unknown_${key}_languages`,
  message: slugs.length === 1
    ? `The language ${humanList(slugs.map((s) => `<code>${s}</code>`))} is unknown and has been discarded.`
    : `The languages ${humanList(slugs.map((s) => `<code>${s}</code>`))} are unknown and have been discarded.`,
  warning: true,
});

const refused = (code: ErrorCode, message: string): SettingsIssue => ({ code, message, warning: false });

async function sanitizeDomains(
  input: { language: string; url: string }[], current: DomainMap, forceLang: number, languages: LanguageRef[], probe: UrlProbe,
): Promise<{ value?: DomainMap; issues: SettingsIssue[] }> {
  const sent = new Map<string, string>();
  for (const { language, url } of input) {
    if (!SLUG_REGEX.test(language)) return { issues: [refused("rest_additional_properties_forbidden", `${language} is not a valid property of Object.`)] };
    sent.set(language, sanitizeUrl(url));
  }
  const issues: SettingsIssue[] = [];
  // Every language gets an entry: the new URL, else the previous one, else "".
  const value: DomainMap = {};
  const missing: string[] = [];
  for (const language of languages) {
    value[language.slug] = sent.get(language.slug) ?? current[language.slug] ?? "";
    sent.delete(language.slug);
    if (!value[language.slug]) missing.push(language.name);
  }
  if (sent.size > 0) issues.push(unknownLanguagesWarning("domains", [...sent.keys()]));
  if (forceLang === 3 && missing.length > 0) {
    issues.push({
      code: "pll_empty_domains",
      message: missing.length === 1 ? `Please enter a valid URL for ${missing[0]}.` : `Please enter valid URLs for ${humanList(missing)}.`,
      warning: true,
    });
  }
  if (forceLang > 1) {
    const urls = Object.values(value).filter(Boolean).map((url) => `${url}${url.includes("?") ? "&" : "?"}deactivate-polylang=1`);
    const failed = (await Promise.all(urls.map(async (url) => ((await probe(url)) ? null : url)))).filter((u): u is string => u !== null);
    if (failed.length > 0) {
      issues.push({
        code: "pll_invalid_domains",
        message: failed.length === 1
          ? `Polylang was unable to access the ${failed[0]} URL. Please check that the URL is valid.`
          : `Polylang was unable to access the ${humanList(failed)} URLs. Please check that the URLs are valid.`,
        warning: true,
      });
    }
  }
  return { value, issues };
}

function sanitizeNavMenus(input: NavMenuThemeInput[], languages: LanguageRef[]): { value?: NavMenuMap; issues: SettingsIssue[] } {
  const value: NavMenuMap = {};
  const unknown = new Set<string>();
  const known = new Set(languages.map((l) => l.slug));
  for (const { theme, locations } of input) {
    // Same key patterns as Polylang's schema (directory-name characters; menu location characters).
    if (!/[^/:<>*?"|]+/.test(theme)) return { issues: [refused("rest_additional_properties_forbidden", `${theme} is not a valid property of Object.`)] };
    value[theme] ??= {};
    for (const { location, menus } of locations) {
      if (!/[\w-]+/.test(location)) return { issues: [refused("rest_additional_properties_forbidden", `${location} is not a valid property of Object.`)] };
      const sent: Record<string, number> = {};
      for (const { language, menuId } of menus) {
        if (!SLUG_REGEX.test(language)) return { issues: [refused("rest_additional_properties_forbidden", `${language} is not a valid property of Object.`)] };
        if (!Number.isInteger(menuId) || menuId < 0) {
          return { issues: [refused("rest_out_of_bounds", `nav_menus[${theme}][${location}][${language}] must be greater than or equal to 0`)] };
        }
        sent[language] = menuId;
        if (!known.has(language)) unknown.add(language);
      }
      // Kept in language order; a 0 (no menu) is dropped.
      value[theme][location] = {};
      for (const { slug } of languages) if (sent[slug]) value[theme][location][slug] = sent[slug];
    }
  }
  return { value, issues: unknown.size > 0 ? [unknownLanguagesWarning("nav_menus", [...unknown])] : [] };
}

/**
 * Works out the new settings from an update: which keys change and the issues met. force_lang is
 * applied first because hide_default, browser and domains are sanitized against it.
 */
export async function planSettingsUpdate(
  current: SettingsValues, input: SettingsInput, languages: LanguageRef[], probe: UrlProbe,
): Promise<{ next: SettingsValues; issues: SettingsIssue[] }> {
  const next: SettingsValues = { ...current };
  const issues: SettingsIssue[] = [];
  const given = <K extends keyof SettingsInput>(key: K): NonNullable<SettingsInput[K]> | undefined =>
    (input[key] ?? undefined) as NonNullable<SettingsInput[K]> | undefined;

  const forceLang = given("forceLang");
  if (forceLang !== undefined) {
    if ((FORCE_LANG_VALUES as readonly number[]).includes(forceLang)) next.forceLang = forceLang;
    else issues.push(refused("rest_not_in_enum", "force_lang is not one of 1, 2, and 3."));
  }
  const browser = given("browser");
  // Without Polylang Pro, cookies cannot be shared across domains: no browser detection there.
  if (browser !== undefined) next.browser = next.forceLang === 3 ? false : browser;
  const rewrite = given("rewrite");
  if (rewrite !== undefined) next.rewrite = rewrite;
  const hideDefault = given("hideDefault");
  if (hideDefault !== undefined) next.hideDefault = next.forceLang === 3 ? false : hideDefault;
  const redirectLang = given("redirectLang");
  if (redirectLang !== undefined) next.redirectLang = redirectLang;
  const mediaSupport = given("mediaSupport");
  if (mediaSupport !== undefined) next.mediaSupport = mediaSupport;

  const sync = given("sync");
  if (sync !== undefined) {
    const bad = sync.findIndex((item) => !(SYNC_OPTIONS as readonly string[]).includes(item));
    if (bad >= 0) issues.push(refused("rest_not_in_enum", `sync[${bad}] is not one of ${humanList([...SYNC_OPTIONS])}.`));
    else next.sync = [...new Set(sync)];
  }
  const postTypes = given("postTypes");
  if (postTypes !== undefined) next.postTypes = [...new Set(postTypes)].filter((t) => CUSTOM_POST_TYPES.includes(t));
  const taxonomies = given("taxonomies");
  if (taxonomies !== undefined) next.taxonomies = [...new Set(taxonomies)].filter((t) => CUSTOM_TAXONOMIES.includes(t));

  const domains = given("domains");
  if (domains !== undefined) {
    const result = await sanitizeDomains(domains, current.domains, next.forceLang, languages, probe);
    if (result.value) next.domains = result.value;
    issues.push(...result.issues);
  }

  const defaultLang = given("defaultLang");
  if (defaultLang !== undefined) {
    if (!SLUG_REGEX.test(defaultLang)) issues.push(refused("rest_invalid_pattern", `default_lang does not match pattern ${SLUG_PATTERN}.`));
    else if (!languages.some((l) => l.slug === defaultLang)) {
      issues.push(refused("pll_invalid_language", `The language slug '${defaultLang}' is not a valid language.`));
    } else next.defaultLang = defaultLang;
  }

  const navMenus = given("navMenus");
  if (navMenus !== undefined) {
    const result = sanitizeNavMenus(navMenus, languages);
    if (result.value) next.navMenus = result.value;
    issues.push(...result.issues);
  }
  return { next, issues };
}

/** The options; reading them needs the right to manage languages, as Polylang checks. */
export function readSettings(ctx: ExtensionsContext): Promise<SettingsValues> {
  requireManageLanguages(ctx, "settings");
  return ctx.loaders.settings();
}

/**
 * Applies an update. The keys that pass are saved even when others are refused or adjusted; the
 * issues are then reported as the error (the first one, the rest as `additional`).
 */
export async function updateSettings(ctx: ExtensionsContext, input: SettingsInput, probe: UrlProbe = fetchProbe): Promise<SettingsValues> {
  requireManageLanguages(ctx, "settings");
  const { settings, issues } = await saveSettings(ctx.prisma, input, probe);
  // Every language derives fields from the settings (default flag, home URL).
  ctx.loaders.clearAll();
  if (issues.length > 0) {
    const [first, ...rest] = issues;
    fail(first.code, { message: first.message, status: 400, additional: rest.length > 0 ? rest.map(({ code, message }) => ({ code, message, status: 400 })) : undefined });
  }
  return settings;
}

async function saveSettings(
  prisma: PrismaClient, input: SettingsInput, probe: UrlProbe,
): Promise<{ settings: SettingsValues; issues: SettingsIssue[] }> {
  const [current, languages] = await Promise.all([
    loadSettings(prisma),
    prisma.language.findMany({ select: { slug: true, name: true }, orderBy: [{ termGroup: "asc" }, { termId: "asc" }] }),
  ]);
  const { next, issues } = await planSettingsUpdate(current, input, languages, probe);
  // Only the columns that changed are written, so concurrent updates of other keys are not lost.
  const data: Prisma.LanguageSettingsUpdateInput = {};
  for (const key of Object.keys(next) as (keyof SettingsValues)[]) {
    if (JSON.stringify(next[key]) === JSON.stringify(current[key])) continue;
    if (key === "domains") data.domains = domainsJson(next.domains);
    else if (key === "navMenus") data.navMenus = navMenusJson(next.navMenus);
    else Object.assign(data, { [key]: next[key] });
  }
  if (Object.keys(data).length === 0) return { settings: current, issues };
  const row = await prisma.languageSettings.update({ where: { id: 1 }, data });
  return { settings: settingsValuesOf(row), issues };
}
