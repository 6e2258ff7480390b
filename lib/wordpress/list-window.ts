// Which slice of a list a request asks for, checked against lib/wordpress/limits.ts: page/perPage,
// offset, or the cursor spelling first/after (an opaque offset). Out-of-bounds values are a 400
// rest_invalid_param naming the argument, as WordPress reports them, never an internal error.
import { invalidParam } from "../errors.ts";
import { DEFAULT_PER_PAGE, OFFSET_MIN, PAGE_MIN, PER_PAGE_MAX, PER_PAGE_MIN, type PagedList } from "./limits.ts";

export interface WindowArgs {
  page?: number | null;
  perPage?: number | null;
  offset?: number | null;
  first?: number | null;
  after?: string | null;
}

export interface ListWindow {
  page: number;
  /** Items a page holds; null: all of them (revisions without perPage). */
  perPage: number | null;
  /** The offset asked for, if any. */
  offset: number | null;
  /** Offset of the first item: after the cursor, else the offset, else the page's first. */
  start: number;
  /** Whether the caller paged by cursor (first/after), where a page past the end is not an error. */
  byCursor: boolean;
}

export const encodeCursor = (offset: number): string => Buffer.from(`offset:${offset}`).toString("base64");

/** A cursor names an offset an `offset` argument could (a GraphQL Int); anything else was not made here. */
function decodeCursor(cursor: string): number {
  const m = /^offset:(\d{1,10})$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  const offset = m ? Number(m[1]) : NaN;
  if (!(offset < 2 ** 31)) throw invalidParam("after", "after is not a valid cursor.", "rest_invalid_param");
  return offset;
}

function atLeast(name: string, value: number | null | undefined, min: number): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < min) throw invalidParam(name, `${name} must be greater than or equal to ${min}`);
  return value;
}

function pageSize(name: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < PER_PAGE_MIN || value > PER_PAGE_MAX) {
    throw invalidParam(name, `${name} must be between ${PER_PAGE_MIN} (inclusive) and ${PER_PAGE_MAX} (inclusive)`);
  }
  return value;
}

/** The checked slice of `list` that `args` ask for, with the list's default page size. */
export function listWindow(list: PagedList, args: WindowArgs): ListWindow {
  const first = pageSize("first", args.first);
  const perPage = first ?? pageSize("perPage", args.perPage) ?? DEFAULT_PER_PAGE[list];
  const page = atLeast("page", args.page, PAGE_MIN) ?? PAGE_MIN;
  const offset = atLeast("offset", args.offset, OFFSET_MIN);
  const after = args.after === null || args.after === undefined ? null : decodeCursor(args.after);
  const start = after !== null ? after + 1 : offset ?? (perPage === null ? 0 : (page - 1) * perPage);
  return { page, perPage, offset, start, byCursor: first !== null || after !== null };
}

/** Relay page information for `count` items read from `window`, of `totalCount` in all. */
export function pageInfo(window: Pick<ListWindow, "start" | "perPage">, count: number, totalCount: number) {
  return {
    hasNextPage: window.perPage !== null && window.start + window.perPage < totalCount,
    hasPreviousPage: window.start > 0,
    startCursor: count ? encodeCursor(window.start) : null,
    endCursor: count ? encodeCursor(window.start + count - 1) : null,
  };
}
