// Relay connections over WordPress's paged lists. Every list takes page/perPage or offset, or
// cursors: first/after (forwards) and last/before (backwards). Cursors are the list's offsets
// (lib/wordpress/list-window.ts encodeCursor), so a cursor stays valid across both spellings.
// Cursor arguments are turned into offset/perPage here, once for every list; the domain lists
// only ever see WordPress's arguments.
import { invalidParam } from "../../lib/errors.ts";
import { DEFAULT_PER_PAGE, PER_PAGE_MAX, PER_PAGE_MIN, type PagedList } from "../../lib/wordpress/limits.ts";
import { encodeCursor, pageInfo } from "../../lib/wordpress/list-window.ts";

export interface CursorArgs {
  page?: number | null;
  perPage?: number | null;
  offset?: number | null;
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface ListPage<Node> { nodes: Node[]; totalCount: number; totalPages: number }

function decodeCursor(name: string, cursor: string): number {
  const m = /^offset:(\d{1,10})$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  const offset = m ? Number(m[1]) : NaN;
  if (!(offset < 2 ** 31)) throw invalidParam(name, `${name} is not a valid cursor.`, "rest_invalid_param");
  return offset;
}

function size(name: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < PER_PAGE_MIN || value > PER_PAGE_MAX) {
    throw invalidParam(name, `${name} must be between ${PER_PAGE_MIN} (inclusive) and ${PER_PAGE_MAX} (inclusive)`);
  }
  return value;
}

const edgesOf = <Node>(nodes: Node[], start: number) => nodes.map((node, i) => ({ cursor: encodeCursor(start + i), node }));

/** A page as a connection: edges, nodes, totals and pageInfo, the page starting at `start`. */
export function relayPage<Node>(page: ListPage<Node>, start: number, perPage: number | null) {
  return { ...page, edges: edgesOf(page.nodes, start), pageInfo: pageInfo({ start, perPage }, page.nodes.length, page.totalCount) };
}

/**
 * Reads one page of a list as a connection. `read` is the domain list, called with WordPress's
 * arguments (page/perPage/offset; cursor arguments become offset/perPage). Mixing directions
 * (first/after with last/before) is refused.
 */
export async function relayList<Node, A extends CursorArgs>(list: PagedList, args: A, read: (args: A) => Promise<ListPage<Node>>) {
  const { first, after, last, before, ...wp } = args;
  const forwards = (first ?? null) !== null || (after ?? null) !== null;
  const backwards = (last ?? null) !== null || (before ?? null) !== null;
  if (forwards && backwards) throw invalidParam("last", "Use first/after or last/before, not both.", "rest_invalid_param");
  const plain = { ...wp, first: null, after: null, last: null, before: null } as unknown as A;
  const fallback = DEFAULT_PER_PAGE[list];
  if (forwards) {
    const n = size("first", first) ?? fallback;
    const start = after !== null && after !== undefined ? decodeCursor("after", after) + 1 : 0;
    const page = await read({ ...plain, page: 1, offset: start, perPage: n });
    return relayPage(page, start, n);
  }
  if (backwards) {
    const n = size("last", last) ?? fallback ?? PER_PAGE_MAX;
    // The end of the window: the `before` item, or the end of the list (its length asked first).
    const end = before !== null && before !== undefined ? decodeCursor("before", before)
      : (await read({ ...plain, page: 1, offset: 0, perPage: 1 })).totalCount;
    const start = Math.max(0, end - n);
    if (end - start === 0) {
      const counted = await read({ ...plain, page: 1, offset: 0, perPage: 1 });
      return relayPage({ ...counted, nodes: [] as Node[] }, start, 0);
    }
    const page = await read({ ...plain, page: 1, offset: start, perPage: end - start });
    return relayPage(page, start, end - start);
  }
  const page = await read(args);
  const perPage = wp.perPage ?? fallback;
  const start = perPage === null ? 0 : wp.offset ? wp.offset : ((wp.page ?? 1) - 1) * perPage;
  return relayPage(page, start, perPage);
}
