// Thin resolvers of languages and language settings: arguments in, domain functions out.
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import type { SettingsValues } from "./language-settings.ts";
import { readSettings, updateSettings } from "./language-settings.ts";
import {
  createLanguage, deleteLanguage, listLanguages, readLanguage, readLanguageBySlug, updateLanguage,
} from "./languages.ts";
import { canManageLanguages } from "./permissions.ts";

export const languageResolvers: Resolvers = {
  Query: {
    languages: (_, args, ctx) => listLanguages(ctx, args.context),
    language: (_, args, ctx) => readLanguage(ctx, args.termId, args.context),
    languageBySlug: (_, args, ctx) => readLanguageBySlug(ctx, args.slug, args.context),
    languageSettings: (_, __, ctx) => readSettings(ctx),
    languagesViewerCan: (_, __, ctx) => ({ manage: canManageLanguages(ctx.identity) }),
  },
  Mutation: {
    createLanguage: (_, args, ctx) => createLanguage(ctx, args.input),
    updateLanguage: (_, args, ctx) => updateLanguage(ctx, args.termId, args.input),
    deleteLanguage: async (_, args, ctx) => ({ deleted: true, previous: await deleteLanguage(ctx, args.termId) }),
    updateLanguageSettings: (_, args, ctx) => updateSettings(ctx, args.input),
  },
  Language: {
    __resolveReference: (reference, ctx) => ctx.loaders.languageById.load(reference.termId),
  },
  LanguageSettings: {
    domains: (settings: SettingsValues) => Object.entries(settings.domains).map(([language, url]) => ({ language, url })),
    navMenus: (settings: SettingsValues) => Object.entries(settings.navMenus).map(([theme, locations]) => ({
      theme,
      locations: Object.entries(locations).map(([location, menus]) => ({
        location,
        menus: Object.entries(menus).map(([language, menuId]) => ({ language, menuId })),
      })),
    })),
  },
};
