// Per-request DataLoaders, built with the context; writes clear them (see ExtensionsLoaders.clearAll). Languages come out fully derived (default flag, home URL…), which
// needs the settings: both are read once per request, or kept across requests until this process writes their tables (lib/kept-until-write.ts).
import DataLoader from "dataloader";
import type { Database } from "../../../lib/db.ts";
import { keptUntilWrite } from "../../../lib/kept-until-write.ts";
import { loadSettings, type SettingsValues } from "./language-settings.ts";
import { toLanguageView, type LanguageView } from "./language-view.ts";
import { LANGUAGE_ORDER } from "./languages.ts";
import type { LanguageAssignment } from "../../../generated/prisma/client.ts";
import { assignmentKey, countByLanguage, type ObjectKey } from "./translations.ts";

export interface ExtensionsLoaders {
  languageById: DataLoader<number, LanguageView | null>;
  languageBySlug: DataLoader<string, LanguageView | null>;
  /** All languages in switcher order. */
  languages(): Promise<LanguageView[]>;
  settings(): Promise<SettingsValues>;
  /** A content object's language assignment (one statement per object type for a whole list). */
  assignment: DataLoader<ObjectKey, LanguageAssignment | null, string>;
  /** The members of translation groups (one statement for every group of a list). */
  groupMembers: DataLoader<number, LanguageAssignment[]>;
  /** Objects per language: post types and terms (term_props counts), read once per request. */
  languageCounts(): Promise<Map<number, { posts: number; terms: number }>>;
  /** Forgets everything read: a language or settings write changes what every language derives. */
  clearAll(): void;
}

export function createLoaders(db: Database, siteUrl: string): ExtensionsLoaders {
  const { prisma } = db;
  let settings: Promise<SettingsValues> | undefined;
  let all: Promise<LanguageView[]> | undefined;
  let counts: Promise<Map<number, { posts: number; terms: number }>> | undefined;
  const loaders: ExtensionsLoaders = {
    // The settings and the languages are kept across requests until this process writes their tables (lib/kept-until-write.ts).
    settings: () => (settings ??= keptUntilWrite(db, "extensions:language-settings", ["LanguageSettings"], () => loadSettings(prisma))),
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
    assignment: new DataLoader(async (keys) => {
      // Deleting a language deletes its assignments: a site without languages has none to read.
      if ((await loaders.languages()).length === 0) return keys.map(() => null);
      const byType = new Map<string, number[]>();
      for (const key of keys) byType.set(key.objectType, [...(byType.get(key.objectType) ?? []), key.objectId]);
      const rows = await prisma.languageAssignment.findMany({
        where: { OR: [...byType].map(([objectType, ids]) => ({ objectType: objectType as ObjectKey["objectType"], objectId: { in: ids } })) },
      });
      const found = new Map(rows.map((row) => [assignmentKey(row), row]));
      return keys.map((key) => found.get(assignmentKey(key)) ?? null);
    }, { cacheKeyFn: assignmentKey }),
    groupMembers: new DataLoader(async (groupIds) => {
      const rows = await prisma.languageAssignment.findMany({ where: { groupId: { in: [...groupIds] } } });
      // The members are assignments too: their own language needs no second read.
      for (const row of rows) loaders.assignment.prime(row, row);
      return groupIds.map((id) => rows.filter((row) => row.groupId === id));
    }),
    languageCounts: () => (counts ??= countByLanguage(prisma)),
    clearAll: () => {
      settings = undefined;
      all = undefined;
      counts = undefined;
      loaders.assignment.clearAll();
      loaders.groupMembers.clearAll();
      loaders.languageById.clearAll();
      loaders.languageBySlug.clearAll();
    },
    languages: () => (all ??= keptUntilWrite(db, "extensions:languages", ["Language", "LanguageSettings"], async () => {
      const [rows, values] = await Promise.all([prisma.language.findMany({ orderBy: LANGUAGE_ORDER }), loaders.settings()]);
      return rows.map((row) => toLanguageView(row, values, siteUrl));
    }).then((views) => {
      for (const view of views) {
        loaders.languageById.prime(view.termId, view);
        loaders.languageBySlug.prime(view.slug, view);
      }
      return views;
    })),
  };
  return loaders;
}
