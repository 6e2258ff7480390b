// Thin resolvers of languages and language settings: arguments in, domain functions out.
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import type { SettingsValues } from "./language-settings.ts";
import { readSettings, updateSettings } from "./language-settings.ts";
import {
  createLanguage, deleteLanguage, listLanguages, readLanguage, readLanguageBySlug, updateLanguage,
} from "./languages.ts";
import { canManageLanguages } from "./permissions.ts";
import type { LanguageView } from "./language-view.ts";
import {
  checkLanguageWrite, inSwitcherOrder, languageOf, objectsInLanguage, setLanguage, setLanguages, translationsOf, type AssignmentState, type TranslatableType, type TranslationPair,
} from "./translations.ts";

import { languageSwitcher } from "./switcher.ts";
import type { ContentEntityRef as EntityRef } from "../content-entities.ts";

/** An entity a bulk language write answers: with its state when a later write of the run changed it. */
type WrittenRef = EntityRef & { languageState?: AssignmentState };

/** `language` and `translations` of one content entity type, resolved through the loaders (or as a bulk write left them). */
const translatable = (objectType: TranslatableType) => ({
  language: (ref: WrittenRef, _: unknown, ctx: Parameters<typeof languageOf>[0]) => (ref.languageState
    ? ctx.loaders.languageById.load(ref.languageState.assignment.languageId)
    : languageOf(ctx, { objectType, objectId: ref.databaseId })),
  translations: async (ref: WrittenRef, _: unknown, ctx: Parameters<typeof languageOf>[0]) =>
    (await (ref.languageState ? inSwitcherOrder(ctx, ref.languageState.members) : translationsOf(ctx, { objectType, objectId: ref.databaseId })))
      .map((t) => ({ databaseId: t.databaseId })),
});

type WriteInput = { databaseId: number; language?: string | null; translations?: readonly TranslationPair[] | null };

/** A typed setXLanguage mutation: the write, then the entity (the gateway fetches the rest from content). */
const setTyped = (objectType: TranslatableType) => async (_: unknown, args: { input: WriteInput }, ctx: Parameters<typeof languageOf>[0]) => {
  await setLanguage(ctx, { objectType, ...args.input });
  return { databaseId: args.input.databaseId };
};

/**
 * Its bulk form: the entities in order, a refused input's own error in its place (graphql-js
 * answers an Error list item as null with that error at the item's path; the types cannot say so).
 */
const setTypedMany = (objectType: TranslatableType) => async (_: unknown, args: { inputs: WriteInput[] }, ctx: Parameters<typeof languageOf>[0]) =>
  (await setLanguages(ctx, objectType, args.inputs)).map((answer, i) =>
    (answer instanceof Error ? answer : { databaseId: args.inputs[i].databaseId, languageState: answer.state })) as unknown as WrittenRef[];

export const languageResolvers: Resolvers = {
  Query: {
    languages: (_, args, ctx) => listLanguages(ctx, args.context),
    language: (_, args, ctx) => readLanguage(ctx, args.termId, args.context),
    languageBySlug: (_, args, ctx) => readLanguageBySlug(ctx, args.slug, args.context),
    languageSettings: (_, __, ctx) => readSettings(ctx),
    languagesViewerCan: (_, __, ctx) => ({ manage: canManageLanguages(ctx.identity) }),
    objectsInLanguage: (_, args, ctx) => objectsInLanguage(ctx, args.objectType, args.language),
    checkLanguageWrite: (_, args, ctx) => checkLanguageWrite(ctx, { ...args, databaseId: args.databaseId ?? 0 }),
    translatedObjects: (_, args) => args.databaseIds.slice(0, 1000).map((databaseId) => ({ databaseId, objectType: args.objectType })),
  },
  Mutation: {
    createLanguage: (_, args, ctx) => createLanguage(ctx, args.input),
    updateLanguage: (_, args, ctx) => updateLanguage(ctx, args.termId, args.input),
    deleteLanguage: async (_, args, ctx) => ({ deleted: true, previous: await deleteLanguage(ctx, args.termId) }),
    updateLanguageSettings: (_, args, ctx) => updateSettings(ctx, args.input),
    setLanguage: (_, args, ctx) => setLanguage(ctx, args),
    setPostLanguage: setTyped("POST"),
    setPostLanguages: setTypedMany("POST"),
    setPageLanguage: setTyped("PAGE"),
    setPageLanguages: setTypedMany("PAGE"),
    setMenuItemLanguage: setTyped("NAV_MENU_ITEM"),
    setCategoryLanguage: setTyped("CATEGORY"),
    setTagLanguage: setTyped("POST_TAG"),
  },
  TranslatedObject: {
    language: (ref, _, ctx) => languageOf(ctx, { objectType: ref.objectType, objectId: ref.databaseId }),
    translations: async (ref, _, ctx) =>
      (await translationsOf(ctx, { objectType: ref.objectType, objectId: ref.databaseId })).map((t) => ({ databaseId: t.databaseId, objectType: ref.objectType })),
  },
  Post: translatable("POST"),
  Page: translatable("PAGE"),
  MenuItem: {
    ...translatable("NAV_MENU_ITEM"),
    languageSwitcher: (ref: EntityRef, args, ctx) => languageSwitcher(ctx, ref.databaseId, args.currentUrl),
  },
  Category: translatable("CATEGORY"),
  Tag: translatable("POST_TAG"),
  Language: {
    __resolveReference: (reference, ctx) => ctx.loaders.languageById.load(reference.termId),
    id: (language: LanguageView) => `language:${language.termId}`,
    databaseId: (language: LanguageView) => language.termId,
    // Counted here rather than in the view: only a read that asks for the counts pays for them.
    termProps: async (language: LanguageView, _, ctx) => {
      const counts = (await ctx.loaders.languageCounts()).get(language.termId) ?? { posts: 0, terms: 0 };
      return language.termProps.map((p) => ({ ...p, count: p.taxonomy === "language" ? counts.posts : counts.terms }));
    },
  },
  LanguageSettings: {
    domains: (settings: SettingsValues) => Object.entries(settings.domains).map(([language, url]) => ({ language, url })),
    navMenus: (settings: SettingsValues) => Object.entries(settings.navMenus).map(([theme, locations]) => ({
      theme,
      locations: Object.entries(locations).map(([location, menus]) => ({
        location,
        menus: Object.entries(menus).map(([language, menuId]) => ({ language, menuId, menu: menuId > 0 ? { databaseId: menuId } : null })),
      })),
    })),
  },
};
