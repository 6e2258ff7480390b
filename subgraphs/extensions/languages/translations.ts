// Languages of content objects and translation groups, with Polylang's rules: one language per
// object, one object per language in a group, a new object without a language gets the default
// one, a translations map names the whole group (entries whose object is not in the named
// language are dropped, as Polylang's validate_translations drops them), members left out leave
// the group, and a group left with one member is dissolved. The objects belong to the content
// subgraph; here they are (type, database id) pairs.
import type { LanguageAssignment, Prisma, TranslatableType } from "../../../generated/prisma/client.ts";
import { can } from "../../../lib/capabilities.ts";
import { isUniqueViolation } from "../../../lib/db-errors.ts";
import { DomainError, domainError, fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
import { loadSettings } from "./language-settings.ts";
import { LANGUAGE_ORDER } from "./languages.ts";
import type { LanguageView } from "./language-view.ts";
import { checksPerObject, objectAccess, refuseEdit } from "./object-permissions.ts";

export type { TranslatableType };

/** A translation to write: the object in `language`. */
export interface TranslationPair { language: string; databaseId: number }

/** One object of the content subgraph, as this subgraph names it. */
export interface ObjectKey { objectType: TranslatableType; objectId: number }

type Tx = Prisma.TransactionClient;

/** The capability Polylang's REST fields check to write an object's language (edit the object's type). */
const WRITE_CAPABILITY: Record<TranslatableType, string> = {
  POST: "edit_posts",
  PAGE: "edit_pages",
  NAV_MENU_ITEM: "edit_theme_options",
  CATEGORY: "manage_categories",
  POST_TAG: "manage_categories",
};

/** Post types are counted in the `language` taxonomy, terms in `term_language` (Polylang's term_props). */
export const TERM_TYPES: readonly TranslatableType[] = ["CATEGORY", "POST_TAG"];

export const canWriteLanguageOf = (ctx: ExtensionsContext, objectType: TranslatableType): boolean =>
  can(ctx.identity.site?.roles, WRITE_CAPABILITY[objectType], ctx.identity.site?.scope);

function requireWrite(ctx: ExtensionsContext, objectType: TranslatableType): void {
  if (canWriteLanguageOf(ctx, objectType)) return;
  fail("rest_cannot_edit", { message: "Sorry, you are not allowed to set the language of this object.", signedIn: ctx.identity.site !== undefined });
}

/**
 * The objects each write touches must be editable by the caller, asked of the content subgraph in
 * one request for all the writes: the object itself, the translations named, and the members of its
 * current group that the map leaves out (they leave the group). A translation whose object does not
 * exist is dropped, as Polylang drops it; an object itself that does not exist is WordPress's
 * rest_post_invalid_id (404); any other object the caller may not edit refuses that write, which
 * answers its error in its place.
 */
async function requireEditable(ctx: ExtensionsContext, writes: readonly LanguageWrite[]): Promise<(LanguageWrite | Error)[]> {
  if (!writes.length || !checksPerObject(writes[0].objectType)) return [...writes];
  const { objectType } = writes[0];
  const regrouped = writes.filter((w) => w.translations && w.databaseId > 0).map((w) => w.databaseId);
  const grouped = regrouped.length
    ? await ctx.prisma.languageAssignment.findMany({ where: { objectType, objectId: { in: regrouped }, groupId: { not: null } } })
    : [];
  const groupOf = new Map(grouped.map((a) => [a.objectId, a.groupId!]));
  const members = groupOf.size
    ? await ctx.prisma.languageAssignment.findMany({ where: { groupId: { in: [...new Set(groupOf.values())] } }, select: { objectId: true, groupId: true } })
    : [];
  const touched = writes.map(({ databaseId, translations }) => {
    const named = (translations ?? []).map((t) => t.databaseId).filter((id) => id > 0 && id !== databaseId);
    const group = translations ? groupOf.get(databaseId) : undefined;
    const leaving = members.filter((m) => group !== undefined && m.groupId === group && m.objectId !== databaseId && !named.includes(m.objectId)).map((m) => m.objectId);
    return { named, others: [...named, ...leaving] };
  });
  const access = await objectAccess(ctx, objectType, writes.flatMap((w, i) => [...(w.databaseId > 0 ? [w.databaseId] : []), ...touched[i].others]));
  return writes.map((write, i) => {
    const { databaseId } = write;
    try {
      if (databaseId > 0 && access.get(databaseId) === "missing") fail("rest_post_invalid_id");
      if (databaseId > 0 && access.get(databaseId) !== "edit") refuseEdit(ctx, objectType);
      for (const id of touched[i].others) if (access.get(id) === "denied") refuseEdit(ctx, objectType);
    } catch (error) {
      return error as Error;
    }
    if (!write.translations) return write;
    return { ...write, translations: write.translations.filter((t) => access.get(t.databaseId) !== "missing") };
  });
}

export const assignmentKey = (key: ObjectKey) => `${key.objectType}:${key.objectId}`;

/** The object's language, through the per-request loaders (one statement for a whole list). */
export async function languageOf(ctx: ExtensionsContext, key: ObjectKey): Promise<LanguageView | null> {
  const assignment = await ctx.loaders.assignment.load(key);
  return assignment ? ctx.loaders.languageById.load(assignment.languageId) : null;
}

/** The object's translation group in switcher order, itself included; empty when it has no language. */
export async function translationsOf(ctx: ExtensionsContext, key: ObjectKey): Promise<{ databaseId: number; language: LanguageView }[]> {
  const assignment = await ctx.loaders.assignment.load(key);
  if (!assignment) return [];
  const members = assignment.groupId ? await ctx.loaders.groupMembers.load(assignment.groupId) : [assignment];
  return inSwitcherOrder(ctx, members);
}

/** An object's language and translation group as they stood when a bulk write wrote it (a later write of the run changed them). */
export interface AssignmentState { assignment: LanguageAssignment; members: LanguageAssignment[] }

/** A group's members (or the object alone) as translations, in switcher order. */
export async function inSwitcherOrder(ctx: ExtensionsContext, members: readonly LanguageAssignment[]): Promise<{ databaseId: number; language: LanguageView }[]> {
  const languages = await ctx.loaders.languages();
  const byId = new Map(languages.map((l, i) => [l.termId, { view: l, rank: i }]));
  return members
    .filter((m) => byId.has(m.languageId))
    .sort((a, b) => byId.get(a.languageId)!.rank - byId.get(b.languageId)!.rank)
    .map((m) => ({ databaseId: m.objectId, language: byId.get(m.languageId)!.view }));
}

/** Database ids of the objects of a type in a language, ascending. */
export async function objectsInLanguage(ctx: ExtensionsContext, objectType: TranslatableType, slug: string): Promise<number[]> {
  const language = await ctx.loaders.languageBySlug.load(slug);
  if (!language) fail("pll_invalid_language", { message: `The language slug '${slug}' is not a valid language.` });
  const rows = await ctx.prisma.languageAssignment.findMany({
    where: { objectType, languageId: language.termId }, select: { objectId: true }, orderBy: { objectId: "asc" },
  });
  return rows.map((r) => r.objectId);
}

export interface LanguageWrite {
  objectType: TranslatableType;
  databaseId: number;
  /** Absent: keep the object's language, or give it the default language when it has none. */
  language?: string | null;
  /** Absent: the group is left as it is (but refused if it already has the new language). */
  translations?: readonly TranslationPair[] | null;
}

function requireValidId(databaseId: number): void {
  if (!Number.isInteger(databaseId) || databaseId < 0) fail("rest_invalid_param", { message: "Invalid object id." });
}

/** Thrown inside a transaction to undo a checked write. */
class DryRun extends Error {}

/**
 * A site without languages has nothing to assign: a write that asks only for the default language
 * (every REST create's) does nothing. It needs no check either, unless it names translations, which
 * are checked (and refused) as on any site.
 */
const assignsNothing = (write: Pick<LanguageWrite, "language">, hasLanguages: boolean): boolean => write.language == null && !hasLanguages;

/**
 * Writes an object's language and translations in one transaction; nothing is written when it is
 * refused. Returns whether the object has a language afterwards (false on a site without languages).
 */
export async function setLanguage(ctx: ExtensionsContext, requested: LanguageWrite): Promise<boolean> {
  requireWrite(ctx, requested.objectType);
  requireValidId(requested.databaseId);
  const idle = assignsNothing(requested, (await ctx.loaders.languages()).length > 0);
  if (idle && requested.translations == null) return false;
  const [write] = await requireEditable(ctx, [requested]);
  if (write instanceof Error) throw write;
  if (idle) return false;
  try {
    const assigned = await ctx.prisma.$transaction((tx) => applyLanguageWrite(tx, write));
    ctx.loaders.clearAll();
    return assigned;
  } catch (error) {
    if (isUniqueViolation(error)) fail("pll_translation_conflict");
    throw error;
  }
}

/** At most this many objects in one bulk language write (as many as the content subgraph's bulk creates take). */
export const MAX_BULK_LANGUAGE_WRITE = 100;

/**
 * setLanguage for several objects of one type, in order, in ONE transaction: each write follows
 * setLanguage's rules, and a refused one answers its own error in its place (nothing of it is
 * written). The checks of every write are one request to the content subgraph, and the writes that
 * only set a language (every create's) are one multi-row insert plus one update per language; a
 * write that names translations, or whose object is in a group, is written as setLanguage writes
 * it, in the same transaction. As with the content subgraph's bulk creates, the checks see the site
 * as it was before the first write, and a database error fails every write.
 */
export async function setLanguages(
  ctx: ExtensionsContext, objectType: TranslatableType, requested: readonly Omit<LanguageWrite, "objectType">[],
): Promise<(WrittenLanguage | Error)[]> {
  if (requested.length > MAX_BULK_LANGUAGE_WRITE) fail("rest_invalid_param", { message: `At most ${MAX_BULK_LANGUAGE_WRITE} languages can be written at once.` });
  const answers: (WrittenLanguage | Error)[] = [];
  const valid: { index: number; write: LanguageWrite }[] = [];
  for (const [index, write] of requested.entries()) {
    try {
      requireWrite(ctx, objectType);
      requireValidId(write.databaseId);
      valid.push({ index, write: { ...write, objectType } });
    } catch (error) {
      answers[index] = error as Error;
    }
  }
  const hasLanguages = (await ctx.loaders.languages()).length > 0;
  const toCheck = valid.filter(({ index, write }) => {
    if (!assignsNothing(write, hasLanguages) || write.translations != null) return true;
    answers[index] = { assigned: false };
    return false;
  });
  const checked = await requireEditable(ctx, toCheck.map((v) => v.write));
  const writes: { index: number; write: LanguageWrite }[] = [];
  toCheck.forEach(({ index }, i) => {
    const write = checked[i];
    if (write instanceof Error) answers[index] = write;
    else if (assignsNothing(write, hasLanguages)) answers[index] = { assigned: false };
    else writes.push({ index, write });
  });
  if (!writes.length) return answers;
  try {
    await ctx.prisma.$transaction((tx) => applyLanguageWrites(tx, objectType, writes, answers));
  } catch (error) {
    if (isUniqueViolation(error)) fail("pll_translation_conflict");
    throw error;
  }
  ctx.loaders.clearAll();
  return answers;
}

/** One write of setLanguages: whether the object has a language, and its state when a later write changed it. */
export interface WrittenLanguage { assigned: boolean; state?: AssignmentState }

/**
 * The writes of setLanguages, in order, each answer set at its index. Each write is answered as the
 * single form answers it, with the object as that write left it: before a write that can change
 * objects written earlier in the run (one in a group, or the same object again), their state is kept.
 */
async function applyLanguageWrites(
  tx: Tx, objectType: TranslatableType, writes: readonly { index: number; write: LanguageWrite }[], answers: (WrittenLanguage | Error)[],
): Promise<void> {
  const languages = await tx.language.findMany({ orderBy: LANGUAGE_ORDER });
  const bySlug = new Map(languages.map((l) => [l.slug, l.termId]));
  let defaultLanguage: Promise<number | undefined> | undefined;
  const currentOf = async (ids: number[]) =>
    new Map((await tx.languageAssignment.findMany({ where: { objectType, objectId: { in: ids } } })).map((a) => [a.objectId, a]));
  let current = await currentOf(writes.map((w) => w.write.databaseId));

  // Written objects whose state a later write could still change.
  let unfrozen: { index: number; objectId: number }[] = [];
  // Language-only writes of objects outside any group, gathered until something must see them written.
  let pending: { index: number; objectId: number; languageId: number; exists: boolean }[] = [];
  const flush = async () => {
    const created = pending.filter((p) => !p.exists);
    if (created.length) await tx.languageAssignment.createMany({ data: created.map(({ objectId, languageId }) => ({ objectType, objectId, languageId })) });
    const updated = new Map<number, number[]>(); // languageId → objects moved to it
    for (const p of pending) if (p.exists) updated.set(p.languageId, [...(updated.get(p.languageId) ?? []), p.objectId]);
    for (const [languageId, ids] of updated) {
      await tx.languageAssignment.updateMany({ where: { objectType, objectId: { in: ids } }, data: { languageId } });
    }
    for (const { index, objectId, languageId } of pending) {
      answers[index] = { assigned: true };
      unfrozen.push({ index, objectId });
      current.set(objectId, { objectType, objectId, languageId, groupId: null });
    }
    pending = [];
  };
  const freeze = async () => {
    if (!unfrozen.length) return;
    const rows = await tx.languageAssignment.findMany({ where: { objectType, objectId: { in: unfrozen.map((u) => u.objectId) } } });
    const groups = [...new Set(rows.map((r) => r.groupId).filter((g): g is number => g !== null))];
    const members = groups.length ? await tx.languageAssignment.findMany({ where: { groupId: { in: groups } } }) : [];
    for (const { index, objectId } of unfrozen) {
      const assignment = rows.find((r) => r.objectId === objectId);
      const answer = answers[index];
      if (assignment && !(answer instanceof Error)) {
        answer.state = { assignment, members: assignment.groupId ? members.filter((m) => m.groupId === assignment.groupId) : [assignment] };
      }
    }
    unfrozen = [];
  };

  for (const [n, { index, write }] of writes.entries()) {
    const objectId = write.databaseId;
    if (pending.some((p) => p.objectId === objectId) || unfrozen.some((u) => u.objectId === objectId)) {
      await flush();
      await freeze();
    }
    const assignment = current.get(objectId);
    if (write.translations || assignment?.groupId) {
      // Group rules (clashes, members leaving, dissolved groups): the single write's own path.
      await flush();
      await freeze();
      try {
        answers[index] = { assigned: await applyLanguageWrite(tx, write) };
        unfrozen.push({ index, objectId });
      } catch (error) {
        // Refusals are raised before anything is written; a database error fails the transaction.
        if (!(error instanceof DomainError)) throw error;
        answers[index] = error;
      }
      current = await currentOf(writes.slice(n + 1).map((w) => w.write.databaseId));
      continue;
    }
    let languageId: number | undefined;
    if (write.language != null) {
      languageId = bySlug.get(write.language);
      if (languageId === undefined) { answers[index] = invalidLanguage(write.language); continue; }
    } else {
      languageId = assignment?.languageId ?? (await (defaultLanguage ??= loadSettings(tx).then((s) => bySlug.get(s.defaultLang) ?? languages[0]?.termId)));
    }
    if (languageId === undefined) { answers[index] = { assigned: false }; continue; }
    pending.push({ index, objectId, languageId, exists: assignment !== undefined });
  }
  await flush();
}

/** Checks a write without making it (the REST create checks before the object exists: id 0). */
export async function checkLanguageWrite(ctx: ExtensionsContext, requested: LanguageWrite): Promise<boolean> {
  requireWrite(ctx, requested.objectType);
  const [write] = await requireEditable(ctx, [requested]);
  if (write instanceof Error) throw write;
  // An object not created yet is in no group: without translations only an unknown language refuses
  // it, which the (per-request, shared) language loader answers without a dry run.
  if (write.databaseId === 0 && !write.translations) {
    if (write.language != null && !(await ctx.loaders.languageBySlug.load(write.language))) throw invalidLanguage(write.language);
    return true;
  }
  try {
    await ctx.prisma.$transaction(async (tx) => {
      await applyLanguageWrite(tx, write);
      throw new DryRun();
    });
  } catch (error) {
    if (error instanceof DryRun) return true;
    if (isUniqueViolation(error)) fail("pll_translation_conflict");
    throw error;
  }
  return true;
}

async function applyLanguageWrite(tx: Tx, write: LanguageWrite): Promise<boolean> {
  const { objectType, databaseId: objectId } = write;
  const languages = await tx.language.findMany({ orderBy: LANGUAGE_ORDER });
  const bySlug = new Map(languages.map((l) => [l.slug, l]));
  const current = await tx.languageAssignment.findUnique({ where: { objectType_objectId: { objectType, objectId } } });

  let languageId: number | undefined;
  if (write.language !== undefined && write.language !== null) {
    const language = bySlug.get(write.language);
    if (!language) throw invalidLanguage(write.language);
    languageId = language.termId;
  } else if (current) {
    languageId = current.languageId;
  } else {
    const settings = await loadSettings(tx);
    languageId = bySlug.get(settings.defaultLang)?.termId ?? languages[0]?.termId;
  }
  // A site without languages: nothing to assign (Polylang is not set up yet).
  if (languageId === undefined) return false;
  const slugOf = new Map(languages.map((l) => [l.termId, l.slug]));

  if (!write.translations) {
    // Only the language changes: the group must not already hold another object in it.
    if (current?.groupId) {
      const clash = await tx.languageAssignment.findFirst({ where: { groupId: current.groupId, languageId, NOT: { objectId, objectType } } });
      if (clash) conflict(slugOf.get(languageId)!, clash.objectId);
    }
    await tx.languageAssignment.upsert({
      where: { objectType_objectId: { objectType, objectId } },
      create: { objectType, objectId, languageId },
      update: { languageId },
    });
    return true;
  }

  // The translations map names the whole group. Keep the entries Polylang keeps: a known language
  // other than the object's own, whose object is of the same type and in that language.
  const wanted = new Map<number, number>(); // languageId → objectId
  const targetIds = [...new Set(write.translations.map((t) => t.databaseId).filter((id) => id !== objectId && id > 0))];
  const targets = new Map((await tx.languageAssignment.findMany({ where: { objectType, objectId: { in: targetIds } } })).map((a) => [a.objectId, a]));
  for (const pair of write.translations) {
    const language = bySlug.get(pair.language);
    const target = targets.get(pair.databaseId);
    if (!language || language.termId === languageId || wanted.has(language.termId)) continue;
    if (!target || target.languageId !== language.termId) continue;
    wanted.set(language.termId, target.objectId);
  }
  const memberIds = [objectId, ...wanted.values()];

  // A translation taken from another group must not leave that group's object in one of the new
  // group's languages behind in a group with it: refuse rather than silently unlink.
  const otherGroups = [...new Set([...wanted.values()].map((id) => targets.get(id)!.groupId).filter((g): g is number => g !== null && g !== current?.groupId))];
  if (otherGroups.length) {
    const newLanguages = [languageId, ...wanted.keys()];
    const clash = await tx.languageAssignment.findFirst({
      where: { groupId: { in: otherGroups }, languageId: { in: newLanguages }, objectId: { notIn: memberIds } },
    });
    if (clash) conflict(slugOf.get(clash.languageId)!, clash.objectId);
  }

  // Members of the object's group left out of the map leave it; the targets leave their groups.
  if (current?.groupId) {
    await tx.languageAssignment.updateMany({ where: { groupId: current.groupId, objectId: { notIn: memberIds } }, data: { groupId: null } });
  }
  if (wanted.size) {
    await tx.languageAssignment.updateMany({ where: { objectType, objectId: { in: [...wanted.values()] } }, data: { groupId: null } });
  }
  let groupId: number | null = null;
  if (wanted.size) groupId = current?.groupId ?? (await tx.translationGroup.create({ data: { objectType } })).id;
  await tx.languageAssignment.upsert({
    where: { objectType_objectId: { objectType, objectId } },
    create: { objectType, objectId, languageId, groupId },
    update: { languageId, groupId },
  });
  if (wanted.size) {
    await tx.languageAssignment.updateMany({ where: { objectType, objectId: { in: [...wanted.values()] } }, data: { groupId } });
  }
  await dissolveSingletons(tx, [current?.groupId ?? null, ...otherGroups]);
  return true;
}

const invalidLanguage = (slug: string) => domainError("pll_invalid_language", { message: `The language slug '${slug}' is not a valid language.` });

function conflict(slug: string, objectId: number): never {
  fail("pll_translation_conflict", {
    message: `The translation group already has an object in the language '${slug}' (id ${objectId}).`,
  });
}

/** A group with fewer than two members is no group: Polylang deletes the translation term. */
async function dissolveSingletons(tx: Tx, groupIds: (number | null)[]): Promise<void> {
  const ids = [...new Set(groupIds.filter((g): g is number => g !== null))];
  if (!ids.length) return;
  const counts = await tx.languageAssignment.groupBy({ by: ["groupId"], where: { groupId: { in: ids } }, _count: { _all: true } });
  const alive = new Set(counts.filter((c) => c._count._all >= 2).map((c) => c.groupId));
  const dead = ids.filter((id) => !alive.has(id));
  if (!dead.length) return;
  await tx.languageAssignment.updateMany({ where: { groupId: { in: dead } }, data: { groupId: null } });
  await tx.translationGroup.deleteMany({ where: { id: { in: dead } } });
}

/** Number of post-type objects and of terms in each language (Polylang's term_props counts). */
export async function countByLanguage(prisma: ExtensionsContext["prisma"]): Promise<Map<number, { posts: number; terms: number }>> {
  const rows = await prisma.languageAssignment.groupBy({ by: ["languageId", "objectType"], _count: { _all: true } });
  const counts = new Map<number, { posts: number; terms: number }>();
  for (const row of rows) {
    const entry = counts.get(row.languageId) ?? { posts: 0, terms: 0 };
    if (TERM_TYPES.includes(row.objectType)) entry.terms += row._count._all;
    else entry.posts += row._count._all;
    counts.set(row.languageId, entry);
  }
  return counts;
}

export type { LanguageAssignment };
