// Creating a language gives the default category a translation in it, unless `no_default_cat`
// (Polylang's create_default_category): the default category, while it has no language, takes the
// default language; each other language gets a category named after it (`<name> (<language>)`,
// slug `<slug>-<code>`; Polylang names it with the translated "Uncategorized", which needs
// translation files this site does not ship), linked into the default category's translation
// group. The categories belong to the content subgraph and the languages to the extensions
// subgraph, so the router asks each in turn, as Polylang's follow-up is not part of the
// language's own write: a failure here leaves the new language in place and is logged.
import type { RouterContext } from "../../../../graph.ts";
import {
  CategoriesForLanguagesDocument, CreateCategoryTranslationDocument, DefaultCategoryOfSiteDocument, SetCategoryLanguageFieldDocument,
  TranslatedObjectsDocument,
} from "../../../../../generated/graphql/operations.ts";
import type { SiteRest } from "../../dispatch.ts";

export interface NewLanguage { slug: string; name: string }

/** Whether a category was given a language (the language's term counts changed). */
export async function translateDefaultCategory(site: SiteRest, context: RouterContext, language: NewLanguage): Promise<boolean> {
  const settings = await site.query(DefaultCategoryOfSiteDocument, {}, context);
  const defaultId = settings?.siteSettings?.defaultCategory;
  if (!defaultId) return false;
  const [categories, languages] = await Promise.all([
    site.query(CategoriesForLanguagesDocument, { ids: [defaultId], slugs: null }, context),
    site.query(TranslatedObjectsDocument, { objectType: "CATEGORY", ids: [defaultId] }, context),
  ]);
  const category = categories?.categories?.nodes[0];
  const current = languages?.translatedObjects[0];
  if (!category || !current) return false;
  if (!current.language) {
    // The default category takes the default language (the new one, when it is the first).
    const assigned = await site.execute(SetCategoryLanguageFieldDocument, { input: { databaseId: defaultId, language: null, translations: null } }, context);
    if (assigned.errors?.length) return false;
    const now = (assigned.data as { setCategoryLanguage?: { language?: { slug: string } | null } } | null)?.setCategoryLanguage?.language?.slug;
    if (now === language.slug) return true;
  } else if (current.translations.some((t) => t.language?.slug === language.slug)) {
    return false;
  }
  const slug = `${category.slug}-${language.slug}`;
  const created = await site.execute(CreateCategoryTranslationDocument, { input: { name: `${category.name} (${language.name})`, slug } }, context);
  let id = (created.data as { createCategory?: { databaseId: number } | null } | null)?.createCategory?.databaseId;
  if (!id) {
    // Created before (a language deleted and added again): Polylang takes the existing category.
    id = (await site.query(CategoriesForLanguagesDocument, { ids: null, slugs: [slug] }, context))?.categories?.nodes[0]?.databaseId;
  }
  if (!id) return false;
  const group = (await site.query(TranslatedObjectsDocument, { objectType: "CATEGORY", ids: [defaultId] }, context))?.translatedObjects[0]?.translations ?? [];
  const translations = group.flatMap((t) => (t.language ? [{ language: t.language.slug, databaseId: t.databaseId }] : []));
  const linked = await site.execute(SetCategoryLanguageFieldDocument, { input: { databaseId: id, language: language.slug, translations } }, context);
  return !linked.errors?.length;
}
