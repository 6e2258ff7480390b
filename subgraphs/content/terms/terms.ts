// Taxonomy terms (categories, tags, nav menus), as WordPress's terms controller serves them.
import { isUniqueViolation } from "../../../lib/db-errors.ts";
import type { Prisma, Term } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { PagedList } from "../../../lib/wordpress/limits.ts";
import { listWindow, type ListWindow } from "../../../lib/wordpress/list-window.ts";
import type { ContentContext } from "../context.ts";
import { hasCap, refuse, type Viewer } from "../permissions.ts";
import { sanitizeTitle } from "../posts/rendering.ts";
import { TAXONOMY_REGISTRY } from "../site/taxonomy-registry.ts";

/** The terms and all their descendants (for include_children). */
export async function descendantTermIds(ctx: ContentContext, ids: number[]): Promise<number[]> {
  const all = new Set(ids);
  let frontier = ids;
  while (frontier.length) {
    const children = await ctx.prisma.term.findMany({ where: { parentId: { in: frontier } }, select: { id: true } });
    frontier = children.map((c) => c.id).filter((id) => !all.has(id));
    frontier.forEach((id) => all.add(id));
  }
  return [...all];
}

export interface TermListArgs {
  where?: { search?: string | null; include?: number[] | null; exclude?: number[] | null; slug?: string[] | null; parent?: number | null; post?: number | null; hideEmpty?: boolean | null } | null;
  page?: number | null;
  perPage?: number | null;
  offset?: number | null;
  order?: "ASC" | "DESC" | null;
  orderBy?: "ID" | "INCLUDE" | "NAME" | "SLUG" | "INCLUDE_SLUGS" | "TERM_GROUP" | "DESCRIPTION" | "COUNT" | null;
}

/** The list each taxonomy pages as (its bounds and default page size). */
const PAGED_LIST: Record<string, PagedList> = { category: "categories", post_tag: "tags", nav_menu: "menus" };

export async function listTerms(ctx: ContentContext, taxonomy: string, args: TermListArgs) {
  const w = args.where ?? {};
  const window = listWindow(PAGED_LIST[taxonomy], args);
  if (w.post !== undefined && w.post !== null) return listTermsOfPost(ctx, taxonomy, w.post, args, window);
  const and: Prisma.TermWhereInput[] = [{ taxonomy }];
  if (w.search) and.push({ OR: [{ name: { contains: w.search, mode: "insensitive" } }, { slug: { contains: w.search, mode: "insensitive" } }] });
  if (w.include?.length) and.push({ id: { in: w.include } });
  if (w.exclude?.length) and.push({ id: { notIn: w.exclude } });
  if (w.slug?.length) and.push({ slug: { in: w.slug } });
  if (w.parent !== undefined && w.parent !== null) and.push({ parentId: w.parent });
  if (w.post !== undefined && w.post !== null) and.push({ posts: { some: { postId: w.post } } });
  if (w.hideEmpty) and.push({ posts: { some: { post: { status: "publish" } } } });
  const where = { AND: and };
  const dir = args.order === "DESC" ? "desc" : "asc";
  const orderBy = args.orderBy ?? "NAME";
  const perPage = window.perPage!;
  const { page, start } = window;
  const sqlOrder: Prisma.TermOrderByWithRelationInput[] = orderBy === "ID" ? [{ id: dir }]
    : orderBy === "SLUG" ? [{ slug: dir }] : orderBy === "DESCRIPTION" ? [{ description: dir }, { id: dir }] : [{ name: dir }, { id: dir }];
  let nodes: Term[];
  if (orderBy === "INCLUDE" || orderBy === "INCLUDE_SLUGS" || orderBy === "COUNT") {
    const all = await ctx.prisma.term.findMany({ where, orderBy: [{ name: "asc" }] });
    const counts = orderBy === "COUNT" ? await ctx.loaders.termCount.loadMany(all.map((t) => t.id)) : [];
    const rank = (t: Term, i: number) => orderBy === "INCLUDE" ? (w.include ?? []).indexOf(t.id)
      : orderBy === "INCLUDE_SLUGS" ? (w.slug ?? []).indexOf(t.slug) : Number(counts[i]);
    const ranked = all.map((t, i) => ({ t, r: rank(t, i) })).sort((a, b) => (a.r - b.r) * (dir === "desc" ? -1 : 1));
    nodes = ranked.map((x) => x.t).slice(start, start + perPage);
  } else {
    nodes = await ctx.prisma.term.findMany({ where, orderBy: sqlOrder, skip: start, take: perPage });
  }
  nodes.forEach((t) => ctx.loaders.term.prime(t.id, t));
  const totalCount = await ctx.prisma.term.count({ where });
  const totalPages = Math.ceil(totalCount / perPage);
  if (page > totalPages && totalCount > 0) {
    fail("rest_term_invalid_page_number");
  }
  return { nodes, totalCount, totalPages };
}

/**
 * The terms of one post (what a post's `wp:term` link asks for), read through the request's
 * loaders so that listing the terms of many posts in one request costs a fixed number of
 * statements. A post has few terms, so the other filters, the order and the page apply in memory.
 */
async function listTermsOfPost(ctx: ContentContext, taxonomy: string, postId: number, args: TermListArgs, window: ListWindow) {
  const w = args.where ?? {};
  const ids = (await ctx.loaders.postTerms.load(postId))[taxonomy as "category"] ?? [];
  let terms = (await ctx.loaders.term.loadMany(ids)).filter((t): t is Term => t !== null && !(t instanceof Error));
  const search = w.search?.toLowerCase();
  terms = terms.filter((t) => (!search || t.name.toLowerCase().includes(search) || t.slug.includes(search))
    && (!w.include?.length || w.include.includes(t.id)) && !w.exclude?.includes(t.id)
    && (!w.slug?.length || w.slug.includes(t.slug)) && (w.parent === undefined || w.parent === null || t.parentId === w.parent));
  const counts = new Map(terms.map((t, i) => [t.id, i]));
  const termCounts = await ctx.loaders.termCount.loadMany(terms.map((t) => t.id));
  if (w.hideEmpty) terms = terms.filter((t) => Number(termCounts[counts.get(t.id)!]) > 0);
  const orderBy = args.orderBy ?? "NAME";
  const key = (t: Term): string | number => orderBy === "ID" ? t.id : orderBy === "SLUG" ? t.slug : orderBy === "DESCRIPTION" ? t.description
    : orderBy === "INCLUDE" ? (w.include ?? []).indexOf(t.id) : orderBy === "INCLUDE_SLUGS" ? (w.slug ?? []).indexOf(t.slug)
      : orderBy === "COUNT" ? Number(termCounts[counts.get(t.id)!]) : t.name.toLowerCase();
  const dir = args.order === "DESC" ? -1 : 1;
  terms.sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.id - b.id));
  const perPage = window.perPage!;
  const { page, start } = window;
  const totalCount = terms.length;
  const totalPages = Math.ceil(totalCount / perPage);
  if (page > totalPages && totalCount > 0) {
    fail("rest_term_invalid_page_number");
  }
  return { nodes: terms.slice(start, start + perPage), totalCount, totalPages };
}

export async function requireTerm(ctx: ContentContext, taxonomy: string, id: number): Promise<Term> {
  const term = id > 0 ? await ctx.loaders.term.load(id) : null;
  if (!term || term.taxonomy !== taxonomy) return fail("rest_term_invalid");
  return term;
}

export interface TermInput { name?: string | null; slug?: string | null; description?: string | null; parent?: number | null }

/**
 * Creating, editing and deleting categories and tags needs their manage_terms capability:
 * manage_categories for both (WordPress maps manage_post_tags onto it); menus use canEditMenus.
 */
export const canManageTerms = (viewer: Viewer | null): boolean => hasCap(viewer, "manage_categories");

export async function saveTerm(ctx: ContentContext, taxonomy: string, input: TermInput, id?: number): Promise<Term> {
  const definition = TAXONOMY_REGISTRY.find((t) => t.slug === taxonomy);
  const existing = id === undefined ? null : await requireTerm(ctx, taxonomy, id);
  if (!canManageTerms(ctx.viewer)) {
    if (existing) refuse(ctx, "rest_cannot_update");
    refuse(ctx, "rest_cannot_create", "Sorry, you are not allowed to create terms in this taxonomy.");
  }
  if (!existing && !input.name) fail("rest_missing_callback_param", { message: "Missing parameter(s): name", data: { params: ["name"] } });
  const parent = input.parent ?? existing?.parentId ?? 0;
  if (input.parent !== undefined && input.parent !== null) {
    if (!definition?.hierarchical) fail("rest_taxonomy_not_hierarchical");
    if (parent !== 0 && !(await ctx.prisma.term.findFirst({ where: { id: parent, taxonomy } }))) fail("rest_term_invalid", { message: "Parent term does not exist.", status: 400 });
  }
  const name = (input.name ?? existing?.name ?? "").trim();
  if (name === "") fail("empty_term_name");
  const slug = sanitizeTitle(input.slug ?? (existing ? existing.slug : name)) || sanitizeTitle(name) || `${Date.now()}`;
  const clashing = () => ctx.prisma.term.findFirst({ where: { taxonomy, OR: [{ slug }, ...(existing ? [] : [{ name, parentId: parent }])], NOT: existing ? { id: existing.id } : undefined } });
  const clash = await clashing();
  if (clash) fail("term_exists", { data: { term_id: clash.id } });
  const data = { name, slug, description: input.description ?? existing?.description ?? "", parentId: parent };
  let saved: Term;
  try {
    saved = existing
      ? await ctx.prisma.term.update({ where: { id: existing.id }, data })
      : await ctx.prisma.term.create({ data: { ...data, taxonomy } });
  } catch (error) {
    // A simultaneous request made the same term between our check and our write: the database's
    // unique (taxonomy, slug) decides, and the loser gets WordPress's term_exists.
    if (!isUniqueViolation(error)) throw error;
    return fail("term_exists", { data: { term_id: (await clashing())?.id ?? 0 } });
  }
  ctx.loaders.term.clear(saved.id).prime(saved.id, saved);
  return saved;
}

/** Terms cannot be trashed: `force` must be true. */
export async function deleteTerm(ctx: ContentContext, taxonomy: string, id: number, force: boolean): Promise<Term> {
  const term = await requireTerm(ctx, taxonomy, id);
  if (!canManageTerms(ctx.viewer)) refuse(ctx, "rest_cannot_delete", "Sorry, you are not allowed to delete this term.");
  if (!force) fail("rest_trash_not_supported", { message: "Terms do not support trashing. Set 'force=true' to delete." });
  const { options } = await ctx.site();
  if (taxonomy === "category" && id === options.default_category) fail("rest_cannot_delete", { message: "Sorry, you are not allowed to delete this term.", status: 403 });
  await ctx.prisma.$transaction([
    ctx.prisma.term.updateMany({ where: { parentId: id }, data: { parentId: term.parentId } }),
    ctx.prisma.term.delete({ where: { id } }),
  ]);
  ctx.loaders.term.clear(id);
  return term;
}
