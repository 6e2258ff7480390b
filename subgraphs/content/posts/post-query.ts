// A post list query (core/v2/posts and the other post types) → a Prisma filter and ordering,
// following WP_Query: search words AND-ed across columns OR-ed, strict date bounds, term
// filters with IN / AND / NOT IN and a top-level tax relation.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { canCreate, canReadPrivate, type Viewer } from "../permissions.ts";
import { parseWpDate, type SiteClock } from "../site/site.ts";

export interface TermFilterInput { terms: number[]; operator?: "AND" | "OR" | null; includeChildren?: boolean | null }

export interface PostWhereInput {
  search?: string | null;
  searchColumns?: ("POST_TITLE" | "POST_CONTENT" | "POST_EXCERPT")[] | null;
  searchSemantics?: "EXACT" | null;
  after?: string | null;
  before?: string | null;
  modifiedAfter?: string | null;
  modifiedBefore?: string | null;
  author?: number[] | null;
  authorExclude?: number[] | null;
  include?: number[] | null;
  exclude?: number[] | null;
  slug?: string[] | null;
  status?: string[] | null;
  taxRelation?: "AND" | "OR" | null;
  categories?: TermFilterInput | null;
  categoriesExclude?: TermFilterInput | null;
  tags?: TermFilterInput | null;
  tagsExclude?: TermFilterInput | null;
  /** Menu items in (or not in) these nav menus. */
  menus?: TermFilterInput | null;
  menusExclude?: TermFilterInput | null;
  sticky?: boolean | null;
  format?: string[] | null;
  parent?: number[] | null;
  parentExclude?: number[] | null;
  menuOrder?: number | null;
  /** Attachments of these MIME types only. */
  mimeType?: string[] | null;
  /** Search words also match the attached file's path (media search, as WordPress does). */
  searchFileName?: boolean | null;
}

/** Statuses `any` leaves out (WordPress: exclude_from_search). */
const HIDDEN_FROM_ANY = ["trash", "auto-draft"];

const COLUMN: Record<string, "title" | "content" | "excerpt"> = { POST_TITLE: "title", POST_CONTENT: "content", POST_EXCERPT: "excerpt" };

/** WordPress splits a search into words; "quoted phrases" stay whole; ten or more words search as one. */
export function searchTerms(search: string): string[] {
  const terms = [...search.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => (m[1] ?? m[2]).trim()).filter(Boolean);
  return terms.length >= 10 ? [search.trim()] : terms;
}

/** The statuses a caller may list; refuses what they may not see, as WordPress's sanitizer does. */
export function checkStatuses(statuses: string[], type: string, viewer: Viewer | null, defaults: string[]): string[] {
  for (const status of statuses) {
    if (defaults.includes(status)) continue;
    if (canCreate(viewer, type)) continue;
    if (status === "private" && canReadPrivate(viewer, type)) continue;
    // `param` makes the REST layer report it as WordPress does: rest_invalid_param wrapping this error.
    fail("rest_forbidden_status", { signedIn: !!viewer, data: { param: "status" } });
  }
  return statuses;
}

export interface TermExpander { descendants(termIds: number[]): Promise<number[]> }

async function termClause(filter: TermFilterInput, taxonomy: string, exclude: boolean, expand: TermExpander): Promise<Prisma.PostWhereInput> {
  let ids = filter.terms;
  if (filter.includeChildren) ids = await expand.descendants(ids);
  const has = (termIds: number[]): Prisma.PostWhereInput => ({ terms: { some: { termId: { in: termIds }, term: { taxonomy } } } });
  if (exclude) return { NOT: has(ids) };
  if (filter.operator === "AND") return { AND: ids.map((id) => has([id])) };
  return has(ids);
}

export async function buildPostWhere(
  type: string, where: PostWhereInput, viewer: Viewer | null, clock: SiteClock, expand: TermExpander, defaultStatus: string[],
): Promise<Prisma.PostWhereInput> {
  const and: Prisma.PostWhereInput[] = [{ type }];

  const statuses = checkStatuses(where.status ?? defaultStatus, type, viewer, defaultStatus);
  and.push(statuses.includes("any") ? { status: { notIn: HIDDEN_FROM_ANY } } : { status: { in: statuses } });

  if (where.search) {
    const columns = (where.searchColumns?.length ? where.searchColumns : ["POST_TITLE", "POST_CONTENT", "POST_EXCERPT"]).map((c) => COLUMN[c]);
    for (const term of searchTerms(where.search)) {
      const negate = term.startsWith("-") && term.length > 1;
      const word = negate ? term.slice(1) : term;
      const match: Prisma.PostWhereInput = {
        OR: [
          ...columns.map((c) => (where.searchSemantics === "EXACT"
            ? { [c]: { equals: word, mode: "insensitive" } }
            : { [c]: { contains: word, mode: "insensitive" } })),
          ...(where.searchFileName ? [{ meta: { path: ["_wp_attached_file"], string_contains: word } }] : []),
        ],
      };
      and.push(negate ? { NOT: match } : match);
    }
    // Anonymous searches never see password-protected posts.
    if (!viewer) and.push({ password: "" });
  }

  const date = (value: string, field: "date" | "modified", op: "gt" | "lt") => {
    const parsed = parseWpDate(value, clock, false);
    if (!parsed) fail("rest_invalid_date");
    and.push({ [field]: { [op]: parsed!.local } });
  };
  if (where.after) date(where.after, "date", "gt");
  if (where.before) date(where.before, "date", "lt");
  if (where.modifiedAfter) date(where.modifiedAfter, "modified", "gt");
  if (where.modifiedBefore) date(where.modifiedBefore, "modified", "lt");

  if (where.author?.length) and.push({ authorId: { in: where.author } });
  if (where.authorExclude?.length) and.push({ authorId: { notIn: where.authorExclude } });
  if (where.include?.length) and.push({ id: { in: where.include } });
  if (where.exclude?.length) and.push({ id: { notIn: where.exclude } });
  if (where.slug?.length) and.push({ slug: { in: where.slug } });
  if (where.parent?.length) and.push({ parentId: { in: where.parent } });
  if (where.parentExclude?.length) and.push({ parentId: { notIn: where.parentExclude } });
  if (where.menuOrder !== undefined && where.menuOrder !== null) and.push({ menuOrder: where.menuOrder });
  if (where.mimeType?.length) and.push({ mimeType: { in: where.mimeType } });
  if (where.sticky !== undefined && where.sticky !== null) and.push({ sticky: where.sticky });
  if (where.format?.length) and.push({ format: { in: where.format } });

  const tax: Prisma.PostWhereInput[] = [];
  if (where.categories) tax.push(await termClause(where.categories, "category", false, expand));
  if (where.categoriesExclude) tax.push(await termClause(where.categoriesExclude, "category", true, expand));
  if (where.tags) tax.push(await termClause(where.tags, "post_tag", false, expand));
  if (where.tagsExclude) tax.push(await termClause(where.tagsExclude, "post_tag", true, expand));
  if (where.menus) tax.push(await termClause(where.menus, "nav_menu", false, expand));
  if (where.menusExclude) tax.push(await termClause(where.menusExclude, "nav_menu", true, expand));
  if (tax.length) and.push(where.taxRelation === "OR" ? { OR: tax } : { AND: tax });

  return { AND: and };
}

export type PostOrderBy = "AUTHOR" | "DATE" | "ID" | "INCLUDE" | "MODIFIED" | "PARENT" | "RELEVANCE" | "SLUG" | "INCLUDE_SLUGS" | "TITLE" | "MENU_ORDER";

/** SQL ordering for the orders the database can do; include/slug/relevance orders are applied in memory. */
export function postOrder(orderBy: PostOrderBy, order: "ASC" | "DESC"): Prisma.PostOrderByWithRelationInput[] {
  const dir = order === "ASC" ? "asc" : "desc";
  const column: Record<string, keyof Prisma.PostOrderByWithRelationInput> = {
    AUTHOR: "authorId", DATE: "date", ID: "id", MODIFIED: "modified", PARENT: "parentId", SLUG: "slug", TITLE: "title", MENU_ORDER: "menuOrder",
  };
  const key = column[orderBy] ?? "date";
  return key === "id" ? [{ id: dir }] : [{ [key]: dir }, { id: dir }];
}

export const IN_MEMORY_ORDERS: ReadonlySet<PostOrderBy> = new Set(["INCLUDE", "INCLUDE_SLUGS", "RELEVANCE"]);

/** WordPress's relevance: whole phrase in the title, then every word in the title, then any word, then content. */
export function relevance(post: { title: string; content: string; excerpt: string }, search: string): number {
  const phrase = search.toLowerCase();
  const title = post.title.toLowerCase();
  const words = searchTerms(search).map((w) => w.toLowerCase());
  if (title.includes(phrase)) return 4;
  if (words.every((w) => title.includes(w))) return 3;
  if (words.some((w) => title.includes(w))) return 2;
  if (post.excerpt.toLowerCase().includes(phrase) || post.content.toLowerCase().includes(phrase)) return 1;
  return 0;
}
