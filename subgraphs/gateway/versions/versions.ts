// The release line 5.3 as the API serves it (lib/gateway/releases.ts): releases with their dates,
// and every API change (added, deprecated, fixed, removed) with the release that made it, filtered
// with the same operator grammar as every other collection, evaluated over the data in memory.
import { API_CHANGE_KINDS, API_CHANGE_SUBJECTS, RELEASES, versionKey, type ApiChange } from "../../../lib/gateway/releases.ts";
import {
  isViolation, pageWindow, parseCondition, parseDirection, violationError, type Condition, type FilterSpec, type Violation,
} from "../../../lib/gateway/collection-rules.ts";
import type { FilterInput, OrderInput } from "../collection-query.ts";

export interface ApiChangeView extends Omit<ApiChange, "replacement"> { id: number; version: string; releasedOn: Date; replacement: string | null }
export interface ReleaseView { version: string; releasedOn: Date; apiChangeCount: number; breakingChanges: string[]; apiChanges: ApiChangeView[] }

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
let id = 0;
const CHANGES: ApiChangeView[] = RELEASES.flatMap((r) => r.apiChanges.map((c) => ({ ...c, replacement: c.replacement ?? null, id: ++id, version: r.version, releasedOn: day(r.releasedOn) })));
const VIEWS: ReleaseView[] = RELEASES.map((r) => ({
  version: r.version, releasedOn: day(r.releasedOn), apiChangeCount: r.apiChanges.length, breakingChanges: r.breaking ?? [],
  apiChanges: CHANGES.filter((c) => c.version === r.version),
}));

type Row = object;
interface Column extends FilterSpec { get(row: Record<string, unknown>): string | number | Date }

function compare(a: unknown, b: unknown, key?: (v: string) => number): number {
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (key) return key(String(a)) - key(String(b));
  return String(a).toLowerCase().localeCompare(String(b).toLowerCase());
}

function matches(value: string | number | Date, c: Condition, versionLike: boolean): boolean {
  const cmp = (v: unknown) => compare(value, v, versionLike ? versionKey : undefined);
  const text = String(value).toLowerCase();
  const arg = Array.isArray(c.value) ? "" : String(c.value).toLowerCase();
  switch (c.operator) {
    case "eq": return cmp(c.value) === 0;
    case "neq": return cmp(c.value) !== 0;
    case "in": return (c.value as unknown[]).some((v) => cmp(v) === 0);
    case "contains": return text.includes(arg);
    case "ncontains": return !text.includes(arg);
    case "start": return text.startsWith(arg);
    case "end": return text.endsWith(arg);
    case "gt": return cmp(c.value) > 0;
    case "gte": return cmp(c.value) >= 0;
    case "lt": return cmp(c.value) < 0;
    case "lte": return cmp(c.value) <= 0;
  }
}

function query<R extends Row, F extends string>(
  rows: readonly R[], columns: Record<F, Column>, args: { filter?: Partial<Record<F, readonly FilterInput[] | null>> | null; order?: readonly OrderInput<F>[] | null; page: number; itemsPerPage: number },
) {
  const window = pageWindow(args.page, args.itemsPerPage);
  const violations: Violation[] = [];
  const predicates: ((row: R) => boolean)[] = [];
  for (const [name, conditions] of Object.entries(args.filter ?? {}) as [F, readonly FilterInput[] | null][]) {
    const column = columns[name];
    for (const { operator, value } of column ? conditions ?? [] : []) {
      const parsed = parseCondition(name, column, operator ?? "eq", value);
      if (isViolation(parsed)) violations.push(parsed);
      else predicates.push((row) => matches(column.get(row as Record<string, unknown>), parsed, name === "version"));
    }
  }
  const order: [F, number][] = [];
  for (const { field, direction } of args.order ?? []) {
    const dir = parseDirection(field, direction ?? "asc");
    if (isViolation(dir)) violations.push(dir);
    else order.push([field, dir === "asc" ? 1 : -1]);
  }
  if (violations.length) throw violationError(violations);
  const filtered = rows.filter((row) => predicates.every((p) => p(row)));
  const sorted = order.length
    ? [...filtered].sort((a, b) => {
      for (const [field, sign] of order) {
        const d = compare(columns[field].get(a as Record<string, unknown>), columns[field].get(b as Record<string, unknown>), field === "version" ? versionKey : undefined);
        if (d) return d * sign;
      }
      return 0;
    })
    : filtered;
  return { items: sorted.slice(window.skip, window.skip + window.take), totalItems: filtered.length, page: window.page, itemsPerPage: window.itemsPerPage };
}

export type ReleaseField = "version" | "releasedOn" | "apiChangeCount";
const RELEASE_COLUMNS: Record<ReleaseField, Column> = {
  version: { type: "string", get: (r) => r.version as string },
  releasedOn: { type: "datetime", get: (r) => r.releasedOn as Date },
  apiChangeCount: { type: "integer", get: (r) => r.apiChangeCount as number },
};

export type ApiChangeField = "id" | "version" | "releasedOn" | "kind" | "subject" | "target";
const CHANGE_COLUMNS: Record<ApiChangeField, Column> = {
  id: { type: "integer", get: (r) => r.id as number },
  version: { type: "string", get: (r) => r.version as string },
  releasedOn: { type: "datetime", get: (r) => r.releasedOn as Date },
  kind: { type: "enum", values: API_CHANGE_KINDS, get: (r) => r.kind as string },
  subject: { type: "enum", values: API_CHANGE_SUBJECTS, get: (r) => r.subject as string },
  target: { type: "string", get: (r) => r.target as string },
};

type Args<F extends string> = { filter?: Partial<Record<F, readonly FilterInput[] | null>> | null; order?: readonly OrderInput<F>[] | null; page: number; itemsPerPage: number };

/** Releases, oldest first unless ordered ("5.3.10" after "5.3.9"). */
export const listReleases = (args: Args<ReleaseField>) => query(VIEWS, RELEASE_COLUMNS, args);
export const releaseByVersion = (version: string): ReleaseView | null => VIEWS.find((r) => r.version === version) ?? null;
/** API changes in release order; `kind=deprecated` lists what is deprecated and what replaces it. */
export const listApiChanges = (args: Args<ApiChangeField>) => query(CHANGES, CHANGE_COLUMNS, args);
