// Polylang's language switcher menu items: a menu item with `_lang_menu_item` options becomes one
// link per language (PLL_Frontend_Nav_Menu::wp_get_nav_menu_items over the Switcher's elements).
// The options live in the content subgraph (MenuItem.meta.langMenuItem); they are read for every
// item of a request in one `_entities` request, then the links are built from the per-request
// language loaders (no statement per item).
import DataLoader from "dataloader";
import type { ExtensionsContext } from "../context.ts";
import { askSubgraphAsPartial } from "../peer.ts";
import type { LanguageView } from "./language-view.ts";
import { translationsOf, type TranslatableType } from "./translations.ts";

/** The switcher options Polylang stores on a menu item (legacy `_pll_menu_item` keys). */
export interface SwitcherOptions {
  hideIfNoTranslation: boolean;
  hideCurrent: boolean;
  forceHome: boolean;
  showFlags: boolean;
  showNames: boolean;
  dropdown: boolean;
}

export interface SwitcherLink {
  language: LanguageView;
  name: string | null;
  slug: string;
  locale: string;
  flagUrl: string | null;
  flag: string | null;
  url: string;
  current: boolean;
  noTranslation: boolean;
  classes: string[];
}

type Flag = { name: string; value: boolean };

/** The options of a stored flag list; null when the item is not a switcher (no options stored). */
export function switcherOptions(flags: readonly Flag[] | null | undefined): SwitcherOptions | null {
  if (!flags || flags.length === 0) return null;
  const on = new Map(flags.map((f) => [f.name, f.value]));
  const showFlags = on.get("show_flags") === true;
  return {
    hideIfNoTranslation: on.get("hide_if_no_translation") === true,
    hideCurrent: on.get("hide_current") === true,
    forceHome: on.get("force_home") === true,
    showFlags,
    // Polylang shows names when neither names nor flags are asked (a switcher needs one of them).
    showNames: on.get("show_names") === true || !showFlags,
    dropdown: on.get("dropdown") === true,
  };
}

const loaderByContext = new WeakMap<ExtensionsContext, DataLoader<number, readonly Flag[] | null>>();

/** Per request: the stored switcher flags of menu items, one content request for all of them. */
function flagsLoader(ctx: ExtensionsContext): DataLoader<number, readonly Flag[] | null> {
  let loader = loaderByContext.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const { data } = await askSubgraphAsPartial<{ _entities: ({ databaseId: number; meta: { langMenuItem: Flag[] } } | null)[] }>(
        ctx, "content",
        `query MenuItemSwitcherFlags($representations: [_Any!]!) { _entities(representations: $representations) { ... on MenuItem { databaseId meta { langMenuItem { name value } } } } }`,
        { representations: ids.map((id) => ({ __typename: "MenuItem", databaseId: id })) });
      const found = new Map((data?._entities ?? []).filter((e) => e !== null).map((e) => [Number(e!.databaseId), e!.meta.langMenuItem]));
      return ids.map((id) => found.get(id) ?? null);
    });
    loaderByContext.set(ctx, loader);
  }
  return loader;
}

/** The object a URL names in WordPress's plain form (`?p=`, `?page_id=`), if any. */
function objectOfUrl(url: URL): { objectType: TranslatableType; id: number } | null {
  for (const [param, objectType] of [["p", "POST"], ["page_id", "PAGE"]] as const) {
    const id = Number(url.searchParams.get(param));
    if (Number.isInteger(id) && id > 0) return { objectType, id };
  }
  return null;
}

/** The post or page a pretty permalink names, asked of the content subgraph (nodeByUri); null when none. */
async function objectAtUri(ctx: ExtensionsContext, uri: string): Promise<{ objectType: TranslatableType; id: number } | null> {
  const { data } = await askSubgraphAsPartial<{ nodeByUri: { __typename: string; databaseId?: number } | null }>(ctx, "content",
    `query SwitcherCurrentObject($uri: String!) { nodeByUri(uri: $uri) { __typename ... on Post { databaseId } ... on Page { databaseId } } }`, { uri });
  const node = data?.nodeByUri;
  if (!node?.databaseId) return null;
  return node.__typename === "Post" ? { objectType: "POST", id: node.databaseId } : node.__typename === "Page" ? { objectType: "PAGE", id: node.databaseId } : null;
}

/** The permalinks of posts or pages the caller may read (Polylang links a translation by its permalink). */
async function permalinks(ctx: ExtensionsContext, objectType: TranslatableType, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const typename = objectType === "PAGE" ? "Page" : "Post";
  const { data } = await askSubgraphAsPartial<{ _entities: ({ databaseId: number; link: string } | null)[] }>(ctx, "content",
    `query SwitcherPermalinks($representations: [_Any!]!) { _entities(representations: $representations) { ... on Post { databaseId link } ... on Page { databaseId link } } }`,
    { representations: ids.map((id) => ({ __typename: typename, databaseId: id })) });
  return new Map((data?._entities ?? []).filter((e) => e !== null).map((e) => [Number(e!.databaseId), e!.link]));
}

interface CurrentPage {
  object: { objectType: TranslatableType; id: number } | null;
  translations: Awaited<ReturnType<typeof translationsOf>>;
  /** Permalinks of the translations the caller may read (Polylang links a translation by its permalink). */
  translationLinks: Map<number, string>;
}

const pagesByContext = new WeakMap<ExtensionsContext, Map<string, Promise<CurrentPage>>>();

/** What the current URL names, worked out once per request for every switcher item that asks. */
function currentPage(ctx: ExtensionsContext, currentUrl: string | null): Promise<CurrentPage> {
  let pages = pagesByContext.get(ctx);
  if (!pages) pagesByContext.set(ctx, (pages = new Map()));
  const key = currentUrl ?? "";
  let page = pages.get(key);
  if (!page) {
    page = (async () => {
      let parsed: URL | null = null;
      try { parsed = currentUrl ? new URL(currentUrl) : null; } catch { parsed = null; }
      const object = parsed ? objectOfUrl(parsed) ?? (await objectAtUri(ctx, currentUrl!)) : null;
      const translations = object ? await translationsOf(ctx, { objectType: object.objectType, objectId: object.id }) : [];
      const translationLinks = object ? await permalinks(ctx, object.objectType, translations.map((t) => t.databaseId)) : new Map<number, string>();
      return { object, translations, translationLinks };
    })();
    pages.set(key, page);
  }
  return page;
}

/** The language whose home URL the page's URL starts with (the longest match); null when none does. */
function languageOfUrl(url: string, languages: readonly LanguageView[], defaultSlug: string): LanguageView | null {
  const matches = languages.filter((l) => url.startsWith(l.homeUrl) || `${url}/` === l.homeUrl);
  // The default language's bare home URL (hide_default) is a prefix of every other: prefer the longest.
  matches.sort((a, b) => b.homeUrl.length - a.homeUrl.length || Number(b.slug === defaultSlug) - Number(a.slug === defaultSlug));
  return matches[0] ?? null;
}

/** The links a switcher item renders; null for an ordinary item (or an item the caller cannot read). */
export async function languageSwitcher(ctx: ExtensionsContext, menuItemId: number, currentUrl: string | null | undefined): Promise<SwitcherLink[] | null> {
  const options = switcherOptions(await flagsLoader(ctx).load(menuItemId));
  if (!options) return null;
  const [languages, settings, counts] = await Promise.all([ctx.loaders.languages(), ctx.loaders.settings(), ctx.loaders.languageCounts()]);

  // The current page: a language (its home URL prefix) and, for `?p=` / `?page_id=` or a post's or
  // page's permalink, an object whose translations the links lead to (Polylang's get_translation_url).
  const { object, translations, translationLinks } = await currentPage(ctx, currentUrl ?? null);
  const objectLanguage = object ? translations.find((t) => t.databaseId === object.id)?.language ?? null : null;
  const current = objectLanguage
    ?? (currentUrl ? languageOfUrl(currentUrl, languages, settings.defaultLang) : null)
    ?? languages.find((l) => l.slug === settings.defaultLang) ?? null;

  const links: SwitcherLink[] = [];
  for (const language of languages) {
    const isCurrent = current?.slug === language.slug;
    // hide_if_empty, always on for menu switchers: a language without any content is left out.
    const isEmpty = (counts.get(language.termId)?.posts ?? 0) <= 0;
    // With an object, the translation's link or nothing; without one, the page is a home page and
    // each language's home page is its translation.
    const translation = object ? translations.find((t) => t.language.termId === language.termId) : undefined;
    const translationUrl = object ? (translation ? translationLinks.get(translation.databaseId) ?? "" : "") : language.homeUrl;
    const noTranslation = translationUrl === "";
    if (options.hideCurrent && isCurrent) continue;
    if (isEmpty) continue;
    if (options.hideIfNoTranslation && noTranslation) continue;
    const classes = ["lang-item", `lang-item-${language.termId}`, `lang-item-${language.slug}`];
    if (isCurrent) classes.push("current-lang");
    if (noTranslation) classes.push("no-translation");
    const showFlag = options.showFlags && language.flagUrl !== "";
    links.push({
      language,
      name: options.showNames ? language.name : null,
      slug: language.slug,
      locale: language.locale,
      flagUrl: showFlag ? language.flagUrl : null,
      flag: showFlag ? language.flag : null,
      url: options.forceHome || noTranslation ? language.homeUrl : translationUrl,
      current: isCurrent,
      noTranslation,
      classes,
    });
  }
  return links;
}
