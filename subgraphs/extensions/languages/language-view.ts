// A language as clients see it: the stored row plus what Polylang derives from it and from the
// settings (W3C/Facebook locales, flag, default flag, per-language home URL…).
import type { Language } from "../../../generated/prisma/client.ts";
import { FLAGS_PATH, FLAG_HEIGHT, FLAG_WIDTH, isKnownFlag } from "./flags.ts";
import { facebookOf, w3cOf } from "./locales.ts";
import type { SettingsValues } from "./language-settings.ts";

/** One translatable object type's language term (Polylang's term_props entry). */
export interface LanguageTermProps { taxonomy: string; termId: number; termTaxonomyId: number; count: number }

export interface LanguageView {
  termId: number;
  name: string;
  slug: string;
  locale: string;
  w3c: string;
  facebook: string;
  isRtl: boolean;
  termGroup: number;
  flagCode: string;
  flagUrl: string;
  flag: string;
  customFlagUrl: string;
  customFlag: string;
  isDefault: boolean;
  active: boolean;
  fallbacks: string[];
  homeUrl: string;
  searchUrl: string;
  host: string;
  pageOnFront: number;
  pageForPosts: number;
  termProps: LanguageTermProps[];
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#039;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const withSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);

/**
 * Home URL of a language under the URL mode of the settings (Polylang's links models):
 * 0/1 directory (`/fr/`, or `/language/fr/` without `rewrite`), 2 subdomain (`fr.host`),
 * 3 one domain per language (the `domains` entry). The default language keeps the bare
 * address when `hide_default` is on.
 */
export function languageHomeUrl(slug: string, isDefault: boolean, settings: SettingsValues, siteUrl: string): string {
  const home = withSlash(siteUrl);
  if (settings.forceLang === 3) {
    const domain = settings.domains[slug];
    return domain ? withSlash(domain) : home;
  }
  if (settings.hideDefault && isDefault) return home;
  if (settings.forceLang === 2) {
    const url = new URL(home);
    url.hostname = `${slug}.${url.hostname.replace(/^www\./, "")}`;
    return url.toString();
  }
  return `${home}${settings.rewrite ? "" : "language/"}${slug}/`;
}

/** The language's own host, in the modes where languages have one (subdomains, domains). */
function languageHost(homeUrl: string, settings: SettingsValues): string {
  if (settings.forceLang < 2) return "";
  try {
    return new URL(homeUrl).host;
  } catch {
    return "";
  }
}

function flagOf(code: string, name: string, siteUrl: string): { url: string; html: string } {
  if (!code || !isKnownFlag(code)) return { url: "", html: "" };
  const path = `${FLAGS_PATH}/${code}.svg`;
  // Polylang inlines the image as a data: URI; we serve the same file and point at it relatively.
  const html = `<img src="${escapeAttribute(path)}" alt="${escapeAttribute(name)}" width="${FLAG_WIDTH}" height="${FLAG_HEIGHT}" style="width: ${FLAG_WIDTH}px; height: ${FLAG_HEIGHT}px;" />`;
  return { url: `${siteUrl}${path}`, html };
}

export function toLanguageView(row: Language, settings: SettingsValues, siteUrl: string): LanguageView {
  const isDefault = settings.defaultLang === row.slug;
  const homeUrl = languageHomeUrl(row.slug, isDefault, settings, siteUrl);
  const flag = flagOf(row.flagCode, row.name, siteUrl);
  return {
    termId: row.termId,
    name: row.name,
    slug: row.slug,
    locale: row.locale,
    w3c: w3cOf(row.locale),
    facebook: facebookOf(row.locale),
    isRtl: row.isRtl,
    termGroup: row.termGroup,
    flagCode: row.flagCode,
    flagUrl: flag.url,
    flag: flag.html,
    // Custom flag uploads are not supported: always empty.
    customFlagUrl: "",
    customFlag: "",
    isDefault,
    active: row.active,
    fallbacks: row.fallbacks,
    homeUrl,
    searchUrl: homeUrl,
    host: languageHost(homeUrl, settings),
    // Static front page / posts page translations belong to the content subgraph; none are linked here.
    pageOnFront: 0,
    pageForPosts: 0,
    // Posts and terms are not assigned languages yet (content owns them), so counts are 0.
    termProps: [
      { taxonomy: "language", termId: row.termId, termTaxonomyId: row.termId, count: 0 },
      { taxonomy: "term_language", termId: row.termLanguageId, termTaxonomyId: row.termLanguageId, count: 0 },
    ],
  };
}
