// Paging bounds and defaults of the site's lists, one set for every caller: the REST argument
// schemas read them, and the content subgraph enforces them (lib/wordpress/list-window.ts), since a
// GraphQL caller skips the REST validation.

/** WordPress's collection parameters: `per_page` from 1 to 100, `page` from 1; offsets are not negative. */
export const PER_PAGE_MIN = 1;
export const PER_PAGE_MAX = 100;
export const PAGE_MIN = 1;
export const OFFSET_MIN = 0;

/**
 * Each list's page size when none is asked for (WordPress's `per_page` default). Revisions have
 * none: without `per_page` every revision comes on one page.
 */
export const DEFAULT_PER_PAGE = {
  posts: 10,
  pages: 10,
  media: 10,
  menuItems: 100,
  menus: 10,
  categories: 10,
  tags: 10,
  users: 10,
  revisions: null,
} as const satisfies Record<string, number | null>;

export type PagedList = keyof typeof DEFAULT_PER_PAGE;

/** Row ids are PostgreSQL `integer`s: an id outside 1…2³¹−1 names nothing (and must not reach a query). */
export const ID_MAX = 2 ** 31 - 1;
export const isStoredId = (id: number): boolean => Number.isInteger(id) && id >= 1 && id <= ID_MAX;
