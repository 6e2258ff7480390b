// Thin resolvers of languages and language settings over the domain modules: check the caller, call the domain, shape the result.
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import { DomainError } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
import { updateSettings, type SettingsInput, type SettingsValues } from "./language-settings.ts";
import { toLanguageView, type LanguageView } from "./language-view.ts";
import {
  createLanguage, deleteLanguage, invalidId, invalidSlug, updateLanguage,
  type CreateLanguageInput, type UpdateLanguageInput,
} from "./languages.ts";
import { REFUSALS, requireManageLanguages } from "./permissions.ts";

type ReadContext = "VIEW" | "EDIT";

/** Reading in the edit context is for those who may edit languages. */
function checkReadContext(context: ReadContext | undefined, ctx: ExtensionsContext): void {
  if (context === "EDIT") requireManageLanguages(ctx.identity, ...REFUSALS.editContext);
}

/** Runs a write, then drops the request's cached reads (a batch may read after it writes). */
async function write<T>(ctx: ExtensionsContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    ctx.invalidate();
  }
}

export const languageResolvers: Resolvers = {
  Query: {
    languages: (_: unknown, args: { context?: ReadContext }, ctx: ExtensionsContext) => {
      checkReadContext(args.context, ctx);
      return ctx.loaders.languages();
    },
    language: async (_: unknown, args: { termId: number; context?: ReadContext }, ctx: ExtensionsContext) => {
      checkReadContext(args.context, ctx);
      const language = args.termId > 0 ? await ctx.loaders.languageById.load(args.termId) : null;
      if (!language) throw invalidId();
      return language;
    },
    languageBySlug: async (_: unknown, args: { slug: string; context?: ReadContext }, ctx: ExtensionsContext) => {
      checkReadContext(args.context, ctx);
      const language = await ctx.loaders.languageBySlug.load(args.slug);
      if (!language) throw invalidSlug();
      return language;
    },
    languageSettings: (_: unknown, __: unknown, ctx: ExtensionsContext) => {
      requireManageLanguages(ctx.identity, ...REFUSALS.settings);
      return ctx.loaders.settings();
    },
  },
  Mutation: {
    createLanguage: async (_: unknown, args: { input: CreateLanguageInput }, ctx: ExtensionsContext) => {
      requireManageLanguages(ctx.identity, ...REFUSALS.create);
      const created = await write(ctx, () => createLanguage(ctx.prisma, args.input));
      return ctx.loaders.languageById.load(created.termId);
    },
    updateLanguage: async (_: unknown, args: { termId: number; input: UpdateLanguageInput }, ctx: ExtensionsContext) => {
      requireManageLanguages(ctx.identity, ...REFUSALS.update);
      const updated = await write(ctx, () => updateLanguage(ctx.prisma, args.termId, args.input));
      return ctx.loaders.languageById.load(updated.termId);
    },
    deleteLanguage: async (_: unknown, args: { termId: number }, ctx: ExtensionsContext) => {
      requireManageLanguages(ctx.identity, ...REFUSALS.delete);
      const { previous, settings } = await write(ctx, () => deleteLanguage(ctx.prisma, args.termId));
      return { deleted: true, previous: toLanguageView(previous, settings, ctx.config.siteUrl) };
    },
    updateLanguageSettings: async (_: unknown, args: { input: SettingsInput }, ctx: ExtensionsContext) => {
      requireManageLanguages(ctx.identity, ...REFUSALS.settings);
      const { settings, issues } = await write(ctx, () => updateSettings(ctx.prisma, args.input));
      if (issues.length > 0) {
        // The valid keys are saved; the answer still reports what was refused or adjusted.
        const [first, ...rest] = issues;
        throw new DomainError(first.code, first.message, 400, {
          additional: rest.length > 0 ? rest.map(({ code, message }) => ({ code, message, status: 400 })) : undefined,
        });
      }
      return settings;
    },
  },
  Language: {
    __resolveReference: (reference: { termId: number }, ctx: ExtensionsContext): Promise<LanguageView | null> =>
      ctx.loaders.languageById.load(reference.termId),
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
