// Per-request DataLoaders, built with the context; writes clear them (see ExtensionsLoaders.clearAll). Languages come out fully derived (default flag, home URL…), which
// needs the settings: those are read once per request and shared by every language.
import DataLoader from "dataloader";
import type { PrismaClient } from "../../../lib/db.ts";
import { loadSettings, type SettingsValues } from "./language-settings.ts";
import { toLanguageView, type LanguageView } from "./language-view.ts";
import { LANGUAGE_ORDER } from "./languages.ts";

export interface ExtensionsLoaders {
  languageById: DataLoader<number, LanguageView | null>;
  languageBySlug: DataLoader<string, LanguageView | null>;
  /** All languages in switcher order. */
  languages(): Promise<LanguageView[]>;
  settings(): Promise<SettingsValues>;
  /** Forgets everything read: a language or settings write changes what every language derives. */
  clearAll(): void;
}

export function createLoaders(prisma: PrismaClient, siteUrl: string): ExtensionsLoaders {
  let settings: Promise<SettingsValues> | undefined;
  let all: Promise<LanguageView[]> | undefined;
  const loaders: ExtensionsLoaders = {
    settings: () => (settings ??= loadSettings(prisma)),
    languageById: new DataLoader(async (ids) => {
      const [rows, values] = await Promise.all([prisma.language.findMany({ where: { termId: { in: [...ids] } } }), loaders.settings()]);
      const views = new Map(rows.map((row) => [row.termId, toLanguageView(row, values, siteUrl)]));
      return ids.map((id) => views.get(id) ?? null);
    }),
    languageBySlug: new DataLoader(async (slugs) => {
      const [rows, values] = await Promise.all([prisma.language.findMany({ where: { slug: { in: [...slugs] } } }), loaders.settings()]);
      const views = new Map(rows.map((row) => [row.slug, toLanguageView(row, values, siteUrl)]));
      return slugs.map((slug) => views.get(slug) ?? null);
    }),
    clearAll: () => {
      settings = undefined;
      all = undefined;
      loaders.languageById.clearAll();
      loaders.languageBySlug.clearAll();
    },
    languages: () => (all ??= Promise.all([prisma.language.findMany({ orderBy: LANGUAGE_ORDER }), loaders.settings()]).then(([rows, values]) => {
      const views = rows.map((row) => toLanguageView(row, values, siteUrl));
      for (const view of views) {
        loaders.languageById.prime(view.termId, view);
        loaders.languageBySlug.prime(view.slug, view);
      }
      return views;
    })),
  };
  return loaders;
}
