// Languages (lang/v1/languages), with Polylang's rules: defaults from the locale table, all
// validation errors reported together, the first language becomes the default, a slug rename
// carries default_lang / domains / nav menus along, deleting the default hands it on.
import { isUniqueViolation } from "../../../lib/db-errors.ts";
import type { Language, Prisma } from "../../../generated/prisma/client.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { domainError, fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
import { isKnownFlag } from "./flags.ts";
import { findLocale } from "./locales.ts";
import { LANGUAGE_SLUG_REGEX as SLUG_REGEX, LOCALE_REGEX } from "../../../lib/polylang/language-values.ts";
import { domainsJson, loadSettings, navMenusJson, type SettingsValues } from "./language-settings.ts";
import { toLanguageView, type LanguageView } from "./language-view.ts";
import { requireManageLanguages } from "./permissions.ts";

/** Switcher order: term_group, then term_id. */
export const LANGUAGE_ORDER: Prisma.LanguageOrderByWithRelationInput[] = [{ termGroup: "asc" }, { termId: "asc" }];

export interface CreateLanguageInput {
  /** Present only to be refused: a create never names an existing id. */
  termId?: number | null;
  name?: string | null;
  slug?: string | null;
  locale: string;
  isRtl?: boolean | null;
  termGroup?: number | null;
  flagCode?: string | null;
  /**
   * Polylang creates a translation of the default category unless this is set. Categories are
   * content-subgraph data and not translated yet, so the flag is accepted and has no effect.
   */
  noDefaultCat?: boolean | null;
}

export interface UpdateLanguageInput {
  name?: string | null;
  slug?: string | null;
  locale?: string | null;
  isRtl?: boolean | null;
  termGroup?: number | null;
  flagCode?: string | null;
}

interface LanguageFields { name: string; slug: string; locale: string; isRtl: boolean; termGroup: number; flagCode: string }

type Tx = Prisma.TransactionClient;

const invalidId = () => domainError("rest_invalid_id");

/** Which representation a read asks for; EDIT is for those who may manage languages. */
export type ReadContext = "VIEW" | "EDIT";

function checkReadContext(ctx: ExtensionsContext, context: ReadContext | null | undefined): void {
  if (context === "EDIT") requireManageLanguages(ctx, "editContext");
}

/** Every language, in switcher order. */
export function listLanguages(ctx: ExtensionsContext, context?: ReadContext | null): Promise<LanguageView[]> {
  checkReadContext(ctx, context);
  return ctx.loaders.languages();
}

export async function readLanguage(ctx: ExtensionsContext, termId: number, context?: ReadContext | null): Promise<LanguageView> {
  checkReadContext(ctx, context);
  return (termId > 0 ? await ctx.loaders.languageById.load(termId) : null) ?? fail("rest_invalid_id");
}

export async function readLanguageBySlug(ctx: ExtensionsContext, slug: string, context?: ReadContext | null): Promise<LanguageView> {
  checkReadContext(ctx, context);
  return (await ctx.loaders.languageBySlug.load(slug)) ?? fail("rest_invalid_slug");
}

const languageRows = (db: Tx): Promise<Language[]> => db.language.findMany({ orderBy: LANGUAGE_ORDER });

/** A language write changes what every language derives (the default flag, home URLs): all cached reads go. */
async function afterWrite(ctx: ExtensionsContext, termId: number): Promise<LanguageView> {
  ctx.loaders.clearAll();
  return (await ctx.loaders.languageById.load(termId)) ?? fail("rest_invalid_id");
}

interface LanguageIssue { code: ErrorCode; message: string }

/** Polylang's validate_lang: every problem, in this order; the caller reports the first one as the error. */
export function validateLanguage(fields: LanguageFields, others: readonly Pick<Language, "slug">[]): LanguageIssue[] {
  const errors: LanguageIssue[] = [];
  if (!fields.locale || !LOCALE_REGEX.test(fields.locale)) errors.push({ code: "pll_invalid_locale", message: "Enter a valid WordPress locale" });
  if (!fields.slug || !SLUG_REGEX.test(fields.slug)) errors.push({ code: "pll_invalid_slug", message: "The language code contains invalid characters" });
  if (fields.slug && others.some((l) => l.slug === fields.slug)) errors.push({ code: "pll_non_unique_slug", message: "The language code must be unique" });
  if (!fields.name) errors.push({ code: "pll_invalid_name", message: "The language must have a name" });
  if (fields.flagCode && !isKnownFlag(fields.flagCode)) errors.push({ code: "pll_invalid_flag", message: "The flag does not exist" });
  return errors;
}

function throwIfInvalid(errors: LanguageIssue[]): void {
  if (errors.length === 0) return;
  const [first, ...rest] = errors;
  fail(first.code, {
    message: first.message,
    status: 400,
    additional: rest.length > 0 ? rest.map((e) => ({ ...e, status: 400 })) : undefined,
  });
}

/** Two fresh term ids from the language id sequence: the language term and its term_language twin. */
async function allocateTermIds(tx: Tx): Promise<[number, number]> {
  const [row] = await tx.$queryRaw<{ a: bigint; b: bigint }[]>`
    SELECT nextval(pg_get_serial_sequence('"Language"', 'termId')) AS a, nextval(pg_get_serial_sequence('"Language"', 'termId')) AS b`;
  return [Number(row.a), Number(row.b)];
}

export async function createLanguage(ctx: ExtensionsContext, input: CreateLanguageInput): Promise<LanguageView> {
  requireManageLanguages(ctx, "create");
  if (input.termId !== undefined && input.termId !== null) fail("rest_exists");
  const fields: LanguageFields = {
    name: input.name ?? "",
    slug: input.slug ?? "",
    locale: input.locale,
    isRtl: input.isRtl ?? false,
    termGroup: input.termGroup ?? 0,
    flagCode: input.flagCode ?? "",
  };
  // With name or slug missing, a known locale fills in whatever else is missing.
  const known = input.name == null || input.slug == null ? findLocale(input.locale) : undefined;
  if (known) {
    fields.name = input.name ?? known.name;
    fields.slug = input.slug ?? known.code;
    fields.isRtl = input.isRtl ?? known.rtl;
    fields.flagCode = input.flagCode ?? known.flag;
  }
  let created: Language;
  try {
    created = await ctx.prisma.$transaction(async (tx) => {
      throwIfInvalid(validateLanguage(fields, await tx.language.findMany({ select: { slug: true } })));
      const [termId, termLanguageId] = await allocateTermIds(tx);
      const language = await tx.language.create({ data: { termId, termLanguageId, ...fields } });
      // The first language becomes the default one (conditional, so concurrent creates agree).
      await tx.languageSettings.updateMany({ where: { id: 1, defaultLang: "" }, data: { defaultLang: language.slug } });
      return language;
    });
  } catch (error) {
    if (isUniqueViolation(error)) fail("pll_non_unique_slug");
    throw error;
  }
  return afterWrite(ctx, created.termId);
}

function renameKey<T>(map: Record<string, T>, from: string, to: string): Record<string, T> {
  if (!(from in map)) return map;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k === from ? to : k, v]));
}

function renameInNavMenus(navMenus: SettingsValues["navMenus"], from: string, to: string): SettingsValues["navMenus"] {
  return Object.fromEntries(Object.entries(navMenus).map(([theme, locations]) =>
    [theme, Object.fromEntries(Object.entries(locations).map(([location, menus]) => [location, renameKey(menus, from, to)]))]));
}

function removeFromNavMenus(navMenus: SettingsValues["navMenus"], slug: string): SettingsValues["navMenus"] {
  return Object.fromEntries(Object.entries(navMenus).map(([theme, locations]) =>
    [theme, Object.fromEntries(Object.entries(locations).map(([location, menus]) =>
      [location, Object.fromEntries(Object.entries(menus).filter(([k]) => k !== slug))]))]));
}

export async function updateLanguage(ctx: ExtensionsContext, termId: number, input: UpdateLanguageInput): Promise<LanguageView> {
  requireManageLanguages(ctx, "update");
  if (termId <= 0) throw invalidId();
  try {
    await ctx.prisma.$transaction(async (tx) => {
      const current = await tx.language.findUnique({ where: { termId } });
      if (!current) throw invalidId();
      const fields: LanguageFields = {
        name: input.name ?? current.name,
        slug: input.slug ?? current.slug,
        locale: input.locale ?? current.locale,
        isRtl: input.isRtl ?? current.isRtl,
        termGroup: input.termGroup ?? current.termGroup,
        flagCode: input.flagCode ?? current.flagCode,
      };
      const others = await tx.language.findMany({ where: { termId: { not: termId } }, select: { slug: true } });
      throwIfInvalid(validateLanguage(fields, others));
      const language = await tx.language.update({ where: { termId }, data: fields });
      if (current.slug !== language.slug) {
        // What refers to the language by slug follows the rename.
        const settings = await loadSettings(tx);
        await tx.languageSettings.update({
          where: { id: 1 },
          data: {
            domains: domainsJson(renameKey(settings.domains, current.slug, language.slug)),
            navMenus: navMenusJson(renameInNavMenus(settings.navMenus, current.slug, language.slug)),
            ...(settings.defaultLang === current.slug ? { defaultLang: language.slug } : {}),
          },
        });
      }
      return language;
    });
  } catch (error) {
    if (isUniqueViolation(error)) fail("pll_non_unique_slug");
    throw error;
  }
  return afterWrite(ctx, termId);
}

/** Deletes a language; returns it as it was, under the settings it was seen with. */
export async function deleteLanguage(ctx: ExtensionsContext, termId: number): Promise<LanguageView> {
  requireManageLanguages(ctx, "delete");
  if (termId <= 0) throw invalidId();
  const { previous, settings } = await ctx.prisma.$transaction(async (tx) => {
    const languages = await languageRows(tx);
    const previous = languages.find((l) => l.termId === termId);
    if (!previous) throw invalidId();
    const settings = await loadSettings(tx);
    const remaining = languages.filter((l) => l.termId !== termId);
    const { [previous.slug]: _removed, ...domains } = settings.domains;
    await tx.languageSettings.update({
      where: { id: 1 },
      data: {
        domains: domainsJson(domains),
        navMenus: navMenusJson(removeFromNavMenus(settings.navMenus, previous.slug)),
        // The default moves to the first remaining language in switcher order (or none is left).
        ...(settings.defaultLang === previous.slug ? { defaultLang: remaining[0]?.slug ?? "" } : {}),
      },
    });
    await tx.language.delete({ where: { termId } });
    return { previous, settings };
  });
  ctx.loaders.clearAll();
  return toLanguageView(previous, settings, ctx.config.siteUrl);
}
