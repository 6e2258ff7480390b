// Posts of every post type, the way WordPress's posts controller and wp_insert_post treat them:
// listing, reading (with password protection), creating, updating and trashing/deleting.
import { insertRows } from "../../../lib/db-insert.ts";
import { lockingAll, lockUntilCommit } from "../../../lib/db-locks.ts";
import { COMMENT_STATUSES, FORMATS, SETTABLE_STATUSES } from "../../../lib/wordpress/post-values.ts";
import { Prisma, type Post } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { PagedList } from "../../../lib/wordpress/limits.ts";
import { listWindow, pageInfo } from "../../../lib/wordpress/list-window.ts";
import type { ContentContext, Site } from "../context.ts";
import { GroupCommit } from "../../../lib/group-commit.ts";
import {
  canCreate, canDeletePost, canEditOthers, canEditPost, canPublish, canReadPost, hasCap, refuse,
} from "../permissions.ts";
import {
  buildPostWhere, IN_MEMORY_ORDERS, postOrder, relevance, type PostOrderBy, type PostWhereInput,
} from "./post-query.ts";
import { sanitizeTitle } from "./rendering.ts";
import { saveRevisionIfChanged } from "./revisions.ts";
import { parseWpDate, wholeSeconds } from "../site/site.ts";
import { permalink } from "./permalinks.ts";
import { descendantTermIds } from "../terms/terms.ts";
import { POST_TYPE_REGISTRY, type PostTypeRegistration } from "../site/post-type-registry.ts";

/** What the content domain needs to know of a post type; derived from its registration. */
export interface PostTypeDefinition {
  type: string;
  revisions: boolean;
  author: boolean;
  /** Only posts can be stuck to the front page (WordPress's sticky_posts option). */
  sticky: boolean;
  formats: boolean;
  /** Taxonomies written with the post (nav menus are written by menu items themselves). */
  taxonomies: ("category" | "post_tag")[];
  /** What a list shows when no status is asked for. */
  defaultStatus: string[];
  /** Has a parent and a menu order (page-attributes). */
  hierarchical: boolean;
}

function definitionOf(registration: PostTypeRegistration): PostTypeDefinition {
  const supports = (feature: string) => registration.supports.includes(feature);
  return {
    type: registration.slug,
    revisions: supports("revisions"),
    author: supports("author"),
    sticky: registration.slug === "post",
    formats: supports("post-formats"),
    taxonomies: registration.taxonomies.filter((t): t is "category" | "post_tag" => t === "category" || t === "post_tag"),
    defaultStatus: [registration.slug === "attachment" ? "inherit" : "publish"],
    hierarchical: supports("page-attributes"),
  };
}

/**
 * The post types this site stores. Media are written by media/attachments.ts (files, sizes), menu
 * items by menu-items.ts (menu and link data); all four share listing, reading and trashing here.
 */
export const POST_TYPES: Record<string, PostTypeDefinition> = Object.fromEntries(
  POST_TYPE_REGISTRY.filter((t) => ["post", "page", "attachment", "nav_menu_item"].includes(t.slug)).map((t) => [t.slug, definitionOf(t)]),
);


export interface ListArgs {
  where?: PostWhereInput | null;
  page?: number | null;
  perPage?: number | null;
  offset?: number | null;
  order?: "ASC" | "DESC" | null;
  orderBy?: PostOrderBy | null;
  first?: number | null;
  after?: string | null;
}

export interface PostPage {
  nodes: Post[];
  totalCount: number;
  totalPages: number;
  /** Offset of the first node and the page size, for cursors. */
  start: number;
  perPage: number;
}

/** The list each REST post type pages as (its bounds and default page size). */
const PAGED_LIST: Record<string, PagedList> = { post: "posts", page: "pages", attachment: "media", nav_menu_item: "menuItems" };

/**
 * Lists posts of a type. Rows the caller cannot read are dropped after the query but still
 * counted, as in WordPress; a type with its own read rule (attachments follow their parent)
 * passes it as `readable`.
 */
export async function listPosts(
  ctx: ContentContext, type: string, args: ListArgs,
  readable: (rows: Post[]) => Promise<Post[]> = async (rows) => rows.filter((p) => canReadPost(ctx.viewer, p)),
): Promise<PostPage> {
  const definition = POST_TYPES[type];
  // Cursor arguments (first/after) are another spelling of offset/limit.
  const window = listWindow(PAGED_LIST[type], args);
  const perPage = window.perPage!;
  const { page, start } = window;
  const { clock } = await ctx.site();
  const where = args.where ?? {};
  const orderBy = args.orderBy ?? "DATE";
  if (orderBy === "RELEVANCE" && !where.search) {
    fail("rest_no_search_term_defined");
  }
  if (orderBy === "INCLUDE" && !where.include?.length) {
    fail("rest_orderby_include_missing_include");
  }
  const prismaWhere = await buildPostWhere(type, where, ctx.viewer, clock, {
    descendants: (ids) => descendantTermIds(ctx, ids),
  }, definition.defaultStatus);

  let nodes: Post[];
  if (IN_MEMORY_ORDERS.has(orderBy)) {
    const all = await ctx.prisma.post.findMany({ where: prismaWhere, orderBy: postOrder("DATE", "DESC") });
    const rank = orderBy === "INCLUDE"
      ? (p: Post) => where.include!.indexOf(p.id)
      : orderBy === "INCLUDE_SLUGS"
        ? (p: Post) => (where.slug ?? []).indexOf(p.slug)
        : (p: Post) => relevance(p, where.search!);
    // include / include_slugs keep the order given (WordPress's ORDER BY FIELD ignores `order`); relevance is best first.
    all.sort((a, b) => (orderBy === "RELEVANCE" ? rank(b) - rank(a) : rank(a) - rank(b)));
    nodes = all.slice(start, start + perPage);
  } else {
    nodes = await ctx.prisma.post.findMany({ where: prismaWhere, orderBy: postOrder(orderBy, args.order ?? "DESC"), skip: start, take: perPage });
  }
  nodes.forEach((p) => ctx.loaders.post.prime(p.id, p));

  // WordPress counts found rows only when rows came back; an empty first page with an offset reports 0.
  let totalCount = nodes.length === 0 && page <= 1 && args.offset ? 0 : await countPosts(ctx, type, prismaWhere);
  if (nodes.length > 0 && totalCount === 0) totalCount = nodes.length;
  const totalPages = totalCount === 0 ? 0 : Math.ceil(totalCount / perPage);
  if (!window.byCursor && page > totalPages && totalCount > 0) fail("rest_post_invalid_page_number");
  return { nodes: await readable(nodes), totalCount, totalPages, start, perPage };
}

/**
 * How many posts a list's filter matches. A filter of nothing but the type and statuses (the
 * default list and its pages) reads the counts the database keeps per type and status (PostCount)
 * instead of counting every post; one filtered by one term and nothing else (?categories=3,
 * ?tags=5) reads those kept per term, type and status (PostTermCount).
 */
async function countPosts(ctx: ContentContext, type: string, where: Prisma.PostWhereInput): Promise<number> {
  const [typeClause, statusClause, ...filters] = where.AND as Prisma.PostWhereInput[];
  const term = filters.length === 1 ? singleTermFilter(filters[0]) : null;
  if ((filters.length && !term) || typeClause.type !== type || !statusClause?.status) return ctx.prisma.post.count({ where });
  const status = statusClause.status as Prisma.StringFilter;
  if (!term) {
    const counts = await ctx.prisma.postCount.findMany({ where: { type, status } });
    return counts.reduce((sum, c) => sum + c.count, 0);
  }
  // The filter also asks the term to be of the taxonomy (?categories= names a category, not a tag).
  const [ofTaxonomy, counts] = await Promise.all([
    ctx.prisma.term.count({ where: { id: term.termId, taxonomy: term.taxonomy } }),
    ctx.prisma.postTermCount.findMany({ where: { termId: term.termId, type, status } }),
  ]);
  return ofTaxonomy ? counts.reduce((sum, c) => sum + c.count, 0) : 0;
}

/**
 * The term of a tax clause built by buildPostWhere for posts in exactly one term of one taxonomy
 * ({ terms: { some: { termId: { in: [id] }, term: { taxonomy } } } }, alone or as the only clause of
 * an AND / OR); null for anything else (exclusions, several terms, several taxonomies).
 */
function singleTermFilter(clause: Prisma.PostWhereInput): { termId: number; taxonomy: string } | null {
  const keys = Object.keys(clause);
  if (keys.length !== 1) return null;
  const inner = clause.AND ?? clause.OR;
  if (inner !== undefined) return Array.isArray(inner) && inner.length === 1 ? singleTermFilter(inner[0]) : null;
  const some = clause.terms?.some;
  if (keys[0] !== "terms" || Object.keys(clause.terms!).length !== 1 || !some || Object.keys(some).length !== 2) return null;
  const termId = some.termId as Prisma.IntFilter | undefined;
  const taxonomy = (some.term as Prisma.TermWhereInput | undefined)?.taxonomy;
  const ids = termId && Object.keys(termId).length === 1 && Array.isArray(termId.in) ? termId.in : null;
  if (ids?.length !== 1 || typeof ids[0] !== "number" || typeof taxonomy !== "string" || Object.keys(some.term!).length !== 1) return null;
  return { termId: ids[0], taxonomy };
}

/** A page of a list as a GraphQL connection: the page itself plus cursor information. */
export const connection = (page: PostPage) => ({ ...page, pageInfo: pageInfo(page, page.nodes.length, page.totalCount) });

/** A post of the given type; 404 for a missing id or another type's id. */
export async function requirePost(ctx: ContentContext, type: string, id: number): Promise<Post> {
  const post = id > 0 ? await ctx.loaders.post.load(id) : null;
  if (!post || post.type !== type) return fail("rest_post_invalid_id");
  return post;
}

export async function readPost(ctx: ContentContext, type: string, id: number, password?: string | null): Promise<Post> {
  const post = await requirePost(ctx, type, id);
  if (!canReadPost(ctx.viewer, post)) {
    return refuse(ctx, "rest_forbidden");
  }
  if (password !== undefined && password !== null && post.password !== "" && password !== post.password && !canEditPost(ctx.viewer, post)) {
    fail("rest_post_incorrect_password");
  }
  return post;
}

export interface PostInput {
  date?: string | null;
  dateGmt?: string | null;
  clearDate?: boolean | null;
  slug?: string | null;
  status?: string | null;
  password?: string | null;
  title?: string | null;
  content?: string | null;
  excerpt?: string | null;
  author?: number | null;
  featuredMedia?: number | null;
  commentStatus?: string | null;
  pingStatus?: string | null;
  format?: string | null;
  meta?: { footnotes?: string | null } | null;
  sticky?: boolean | null;
  template?: string | null;
  categories?: number[] | null;
  tags?: number[] | null;
  parent?: number | null;
  menuOrder?: number | null;
}

const invalidParam = (param: string, message: string) =>
  fail("rest_invalid_param", { message: `Invalid parameter(s): ${param}`, data: { params: { [param]: message }, details: { [param]: { code: "rest_not_in_enum", message, data: null } } } });

function oneOf(value: string | null | undefined, allowed: string[], param: string): void {
  if (value === undefined || value === null || allowed.includes(value)) return;
  const list = allowed.length === 2 ? `${allowed[0]} and ${allowed[1]}` : `${allowed.slice(0, -1).join(", ")}, and ${allowed.at(-1)}`;
  invalidParam(param, `${param} is not one of ${list}.`);
}

/** Checks a write the way WordPress's permission callbacks do, in their order. */
function checkWrite(ctx: ContentContext, type: string, input: PostInput, existing: Post | null): void {
  const viewer = ctx.viewer;
  oneOf(input.status, SETTABLE_STATUSES, "status");
  oneOf(input.commentStatus, COMMENT_STATUSES, "comment_status");
  oneOf(input.pingStatus, COMMENT_STATUSES, "ping_status");
  if (POST_TYPES[type].formats) oneOf(input.format, FORMATS, "format");
  const verb = existing ? "update" : "create";
  if (input.author !== undefined && input.author !== null && input.author !== (existing?.authorId ?? viewer?.id) && !canEditOthers(viewer, type)) {
    refuse(ctx, "rest_cannot_edit_others", `Sorry, you are not allowed to ${verb} posts as this user.`);
  }
  if (input.sticky && !canEditOthers(viewer, type) && !canPublish(viewer, type)) {
    refuse(ctx, "rest_cannot_assign_sticky", "Sorry, you are not allowed to make posts sticky.");
  }
  if (existing) {
    if (!canEditPost(viewer, existing)) refuse(ctx, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.");
  } else if (!canCreate(viewer, type)) {
    refuse(ctx, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.");
  }
  const status = input.status;
  if ((status === "publish" || status === "future") && status !== existing?.status && !canPublish(viewer, type)) {
    refuse(ctx, "rest_cannot_publish", "Sorry, you are not allowed to publish posts in this post type.");
  }
  if (status === "private" && status !== existing?.status && !canPublish(viewer, type)) {
    refuse(ctx, "rest_cannot_publish", "Sorry, you are not allowed to create private posts in this post type.");
  }
}

/**
 * The slugs of the type a slug made from `bases` must avoid (firstFree), in two steps. WordPress
 * suffixes a taken slug with the first free "-2", "-3"…, so a base's suffixed forms matter only
 * when the base itself is taken, or wanted by more than one post at once (`repeated`). The bases
 * are looked up by equality first (`slugsEqualTo`), which the (type, slug) index answers whatever
 * the collation and whatever the planner knows of the table; only the bases that need it are then
 * read by prefix (`withSuffixedForms`). A prefix LIKE uses that index only under the "C" collation
 * and with fresh statistics: 100 ORed prefixes on 10,000 posts not yet analysed took 35 ms.
 */
const slugsEqualTo = (type: string, bases: string[], exceptId: number): Prisma.Sql =>
  Prisma.sql`SELECT slug FROM "Post" WHERE type = ${type} AND slug = ANY(${bases}::text[]) AND id <> ${exceptId}`;

/** The slugs of the type that start with any of `bases` (each base and its suffixed forms are among them), as a query. */
function slugsStartingWith(type: string, bases: string[], exceptId: number): Prisma.Sql {
  // Written as SQL: Prisma's OR of 25 startsWith (a batch) costs ~3 ms to compile. An OR of LIKEs,
  // not LIKE ANY, which no index serves: each prefix is a range of the (type, slug) index.
  const prefixes = bases.map((base) => Prisma.sql`slug LIKE ${`${base.replace(/[\\%_]/g, "\\$&")}%`}`);
  return Prisma.sql`SELECT slug FROM "Post" WHERE type = ${type} AND (${Prisma.join(prefixes, " OR ")}) AND id <> ${exceptId}`;
}

/** The slugs `bases` must avoid: those taken, looked up by equality, and their suffixed forms (withSuffixedForms). */
async function takenSlugs(tx: Prisma.TransactionClient, type: string, bases: string[], exceptId: number, repeated: string[] = []): Promise<Set<string>> {
  const taken = bases.length ? (await tx.$queryRaw<{ slug: string }[]>(slugsEqualTo(type, bases, exceptId))).map((p) => p.slug) : [];
  return withSuffixedForms(tx, type, taken, exceptId, repeated);
}

/** `taken` (the bases found taken) with the suffixed forms of those and of the `repeated` bases. */
async function withSuffixedForms(tx: Prisma.TransactionClient, type: string, taken: string[], exceptId: number, repeated: string[] = []): Promise<Set<string>> {
  const all = new Set(taken);
  const suffixed = [...new Set([...taken, ...repeated])];
  if (suffixed.length) for (const { slug } of await tx.$queryRaw<{ slug: string }[]>(slugsStartingWith(type, suffixed, exceptId))) all.add(slug);
  return all;
}

/** WordPress's suffixing: "slug", else the first free of "slug-2", "slug-3"… */
function firstFree(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A slug unique within the type, WordPress-style: "slug", "slug-2", "slug-3"… */
async function uniqueSlug(tx: Prisma.TransactionClient, type: string, wanted: string, exceptId: number): Promise<string> {
  const base = sanitizeTitle(wanted);
  if (base === "") return "";
  // Simultaneous writers of the same slug (of any type: attachments check them all) take turns,
  // so each sees the others' suffixes.
  await lockUntilCommit(tx, `slug:${base}`);
  return firstFree(base, await takenSlugs(tx, type, [base], exceptId));
}

const PUBLIC_STATUSES = ["publish", "future", "private"];

/** A checked write, ready for the database: the row without its slug, and what the slug is made from. */
interface PlannedWrite {
  input: PostInput;
  existing: Post | null;
  data: Omit<Prisma.PostUncheckedCreateInput, "slug" | "type">;
  /** Made unique in the transaction; null keeps the current slug. */
  slugFrom: string | null;
}

/** Everything savePost decides before it writes: permissions, references, dates, status, the row's values. */
async function planWrite(ctx: ContentContext, type: string, input: PostInput, existing: Post | null): Promise<PlannedWrite> {
  const definition = POST_TYPES[type];
  checkWrite(ctx, type, input, existing);
  const viewer = ctx.viewer!;
  const { clock, options } = await ctx.site();
  const id = existing?.id;

  if (input.author !== undefined && input.author !== null && input.author !== existing?.authorId) {
    const author = await ctx.loaders.user.load(input.author);
    if (!author) fail("rest_invalid_author");
  }
  if (definition.hierarchical && input.parent !== undefined && input.parent !== null && input.parent !== 0) {
    // WordPress refuses a parent that does not exist (400, not 404).
    if (!(await ctx.loaders.post.load(input.parent))) fail("rest_post_invalid_id", { message: "Invalid post parent ID.", status: 400 });
  }
  const password = input.password ?? existing?.password ?? "";
  const sticky = input.sticky ?? existing?.sticky ?? false;
  if (password !== "" && sticky) {
    fail("rest_invalid_field", { message: input.sticky ? "A password protected post can not be set to sticky." : "A sticky post can not be password protected." });
  }

  const now = wholeSeconds(new Date());
  let local: Date | null = existing?.date ?? null;
  let gmt: Date | null = existing?.dateGmt ?? null;
  for (const [value, isGmt] of [[input.date, false], [input.dateGmt, true]] as const) {
    if (value === undefined || value === null) continue;
    const parsed = parseWpDate(value, clock, isGmt);
    if (!parsed) fail("rest_invalid_date");
    ({ local, gmt } = parsed!);
  }
  let status = input.status ?? existing?.status ?? "draft";
  // A draft without a date "floats" (no GMT date) until it is published; publishing fixes it to now.
  if (local === null) local = clock.toLocal(now);
  if (gmt === null && PUBLIC_STATUSES.includes(status)) {
    gmt = now;
    local = clock.toLocal(now);
  }
  if (status === "publish" && gmt && gmt.getTime() > now.getTime()) status = "future";
  else if (status === "future" && gmt && gmt.getTime() <= now.getTime()) status = "publish";

  const featuredMedia = input.featuredMedia === undefined || input.featuredMedia === null
    ? existing?.featuredMedia ?? 0
    : input.featuredMedia === 0 ? 0
      // A featured_media id that is not an attachment is ignored, as WordPress does.
      : (await ctx.loaders.post.load(input.featuredMedia))?.type === "attachment" ? input.featuredMedia : existing?.featuredMedia ?? 0;

  const meta = { ...(existing?.meta as Record<string, unknown> ?? { footnotes: "" }), ...(input.meta?.footnotes !== undefined && input.meta?.footnotes !== null ? { footnotes: input.meta.footnotes } : {}) };
  const title = input.title ?? existing?.title ?? "";
  const slugFrom = input.slug !== undefined && input.slug !== null ? input.slug
    : !existing?.slug && PUBLIC_STATUSES.includes(status) ? title || `${existing?.id ?? ""}`
      : null;
  return {
    input, existing, slugFrom,
    data: {
      status, title, password, sticky, meta, featuredMedia,
      content: input.content ?? existing?.content ?? "",
      excerpt: input.excerpt ?? existing?.excerpt ?? "",
      authorId: input.author ?? existing?.authorId ?? viewer.id,
      date: local, dateGmt: gmt, modified: clock.toLocal(now), modifiedGmt: now,
      // Pages start with comments and pings closed (WordPress's get_default_comment_status for pages).
      commentStatus: input.commentStatus ?? existing?.commentStatus ?? (type === "post" ? options.default_comment_status : "closed"),
      pingStatus: input.pingStatus ?? existing?.pingStatus ?? (type === "post" ? options.default_ping_status : "closed"),
      format: definition.formats ? input.format ?? existing?.format ?? "standard" : "standard",
      template: input.template ?? existing?.template ?? "",
      ...(definition.hierarchical ? {
        // A post cannot be its own parent; WordPress quietly resets that to 0.
        parentId: input.parent === undefined || input.parent === null ? existing?.parentId ?? 0 : input.parent === id ? 0 : input.parent,
        menuOrder: input.menuOrder ?? existing?.menuOrder ?? 0,
      } : {}),
    },
  };
}

/** Creates or updates a post in one transaction, with its terms and (on update) a revision. */
export async function savePost(ctx: ContentContext, type: string, input: PostInput, id?: number): Promise<Post> {
  if (id === undefined) {
    // A create is a bulk create of one: fewer statements, and the answer's relations come primed.
    const [created] = await createPosts(ctx, type, [input]);
    if (created instanceof Error) throw created;
    return created;
  }
  const existing = await requirePost(ctx, type, id);
  const plan = await planWrite(ctx, type, input, existing);
  const viewer = ctx.viewer!;
  const { options } = await ctx.site();

  const saved = await ctx.prisma.$transaction(async (tx) => {
    const slug = plan.slugFrom === null ? existing.slug : await uniqueSlug(tx, type, plan.slugFrom, id);
    const post = await tx.post.update({ where: { id: existing.id }, data: { ...plan.data, slug } });
    await saveTerms(tx, post.id, type, input, options.default_category);
    if (POST_TYPES[type].revisions) await saveRevisionIfChanged(tx, post, viewer.id);
    return post;
  });
  ctx.loaders.post.clear(saved.id).prime(saved.id, saved);
  ctx.loaders.postTerms.clear(saved.id);
  ctx.loaders.revisionSummary.clear(saved.id);
  return saved;
}

/** The most posts one createPosts writes (batch/v1 sends at most 25). */
export const MAX_BULK_CREATE = 100;

/**
 * Creates many posts of a type as ONE transaction with multi-row inserts (batch/v1's creates):
 * each input is checked and dated as savePost does; a refused one answers its own error in its
 * place and the others are still written. Slugs are made unique against the site and against the
 * earlier inputs, as writing them one by one in order would. Creates from other requests that
 * arrive meanwhile share the transaction (group commit, lib/group-commit.ts).
 */
export async function createPosts(ctx: ContentContext, type: string, inputs: PostInput[]): Promise<(Post | Error)[]> {
  if (inputs.length > MAX_BULK_CREATE) fail("rest_invalid_param", { message: `At most ${MAX_BULK_CREATE} posts can be created at once.` });
  const answers: (Post | Error)[] = [];
  const plans: { index: number; plan: PlannedWrite }[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      plans.push({ index, plan: await planWrite(ctx, type, input, null) });
    } catch (error) {
      answers[index] = error as Error;
    }
  }
  if (!plans.length) return answers;
  const written = await creates(ctx, type).add({ ctx, site: await ctx.site(), plans: plans.map(({ plan }) => plan) });
  plans.forEach(({ index }, i) => {
    const post = written[i].post;
    answers[index] = post;
    // A new post's relations are exactly what was just written.
    ctx.loaders.post.clear(post.id).prime(post.id, post);
    ctx.loaders.postTerms.clear(post.id).prime(post.id, { category: [], post_tag: [], nav_menu: [], ...written[i].terms });
    ctx.loaders.revisionSummary.clear(post.id).prime(post.id, { count: 0, latestId: null });
  });
  return answers;
}

/** One createPosts call's checked rows, written in its group's transaction. */
interface CreateJob { ctx: ContentContext; site: Site; plans: PlannedWrite[] }
type WrittenPost = { post: Post; terms: Partial<Record<"category" | "post_tag", number[]>> };

/** The group commit of new posts, one per database and post type. */
const createQueues = new WeakMap<object, Map<string, GroupCommit<CreateJob, WrittenPost[]>>>();
function creates(ctx: ContentContext, type: string): GroupCommit<CreateJob, WrittenPost[]> {
  let byType = createQueues.get(ctx.prisma);
  if (!byType) createQueues.set(ctx.prisma, (byType = new Map()));
  let queue = byType.get(type);
  if (!queue) byType.set(type, (queue = new GroupCommit((jobs) => writeNewPosts(type, jobs), (job) => job.plans.length, MAX_BULK_CREATE)));
  return queue;
}

/** Writes the planned posts of every job in one transaction, in order; answers each job's posts with their terms. */
async function writeNewPosts(type: string, jobs: CreateJob[]): Promise<WrittenPost[][]> {
  const entries = jobs.flatMap((job) => job.plans.map((plan) => ({ job, plan })));
  const { prisma, db } = jobs[0].ctx;

  const written = await prisma.$transaction(async (tx) => {
    const bases = entries.map(({ plan }) => (plan.slugFrom === null ? "" : sanitizeTitle(plan.slugFrom)));
    const wanted = new Map<string, number>();
    for (const base of bases) if (base) wanted.set(base, (wanted.get(base) ?? 0) + 1);
    const distinct = [...wanted.keys()];
    const repeated = distinct.filter((base) => wanted.get(base)! > 1);
    const { ids, taken } = await newIdsAndTakenSlugs(tx, db.serialTransactions, type, entries.length, distinct, repeated);
    const rows = await Promise.all(entries.map(async ({ job, plan }, i) => {
      const slug = bases[i] && firstFree(bases[i], taken);
      taken.add(slug);
      const row = { ...plan.data, slug, type, id: ids[i] };
      // The guid is the item's address when it is created; a page's parent exists already (checked above).
      return { ...row, guid: await permalink({ ...row, parentId: row.parentId ?? 0 } as Post, job.site.home, (id) => job.ctx.loaders.post.load(id)) };
    }));
    const linked = rows.map((row, i) => ({ postId: row.id, input: entries[i].plan.input, defaultCategory: entries[i].job.site.options.default_category }));
    const readBack = readBackColumns(rows);
    const inserted = await tx.$queryRaw<(Record<string, unknown> & { id: number; termLinks: ["category" | "post_tag", number][] })[]>(
      insertPostsLinkingTerms(type, rows, linked, readBack));
    const rowsById = new Map(rows.map((row) => [row.id, row]));
    const posts = inserted.map((stored) => newPost(rowsById.get(stored.id)!, stored, readBack));
    const terms = new Map(inserted.map(({ id, termLinks }) => {
      const own: Partial<Record<"category" | "post_tag", number[]>> = {};
      for (const [taxonomy, termId] of termLinks) (own[taxonomy] ??= []).push(termId);
      return [id, own];
    }));
    await linkFormatTerms(tx, type, linked);
    return { ids, posts: new Map(posts.map((p) => [p.id, p])), terms };
  });

  let next = 0;
  return jobs.map((job) => job.plans.map(() => {
    const id = written.ids[next++];
    return { post: written.posts.get(id)!, terms: written.terms.get(id) ?? {} };
  }));
}

/**
 * Draws `count` new post ids (a sequence is never rolled back) and reads the slugs `bases` must
 * avoid (withSuffixedForms; `repeated`: bases more than one new post wants). Simultaneous writers
 * of a base take turns on its lock until commit, so each sees the others' suffixes; the read is
 * then a statement of its own, after the lock, since a statement reads what was committed when it
 * began. Where transactions run one at a time (PGlite) there is no one to take turns with, and one
 * statement draws the ids and finds the taken bases.
 */
async function newIdsAndTakenSlugs(
  tx: Prisma.TransactionClient, serial: boolean, type: string, count: number, bases: string[], repeated: string[],
): Promise<{ ids: number[]; taken: Set<string> }> {
  const ids = Prisma.sql`ARRAY(SELECT nextval(pg_get_serial_sequence('"Post"', 'id'))::int FROM generate_series(1, ${count}::int))`;
  if (serial) {
    const taken = bases.length ? Prisma.sql`ARRAY(${slugsEqualTo(type, bases, 0)})` : Prisma.sql`ARRAY[]::text[]`;
    const [row] = await tx.$queryRaw<{ ids: number[]; taken: string[] }[]>`SELECT ${ids} AS ids, ${taken} AS taken`;
    return { ids: row.ids, taken: await withSuffixedForms(tx, type, row.taken, 0, repeated) };
  }
  const [row] = await tx.$queryRaw<{ ids: number[] }[]>`SELECT ${lockingAll(bases.map((base) => `slug:${base}`))} AS locked, ${ids} AS ids`;
  return { ids: row.ids, taken: await takenSlugs(tx, type, bases, 0, repeated) };
}

const POST_COLUMNS = Object.values(Prisma.PostScalarFieldEnum);

/**
 * The columns of new posts read back from their INSERT: the id, the meta (jsonb orders its keys its
 * own way) and any column a row leaves to the database's default. The others are the values just
 * written: reading whole rows back cost the database thread ~15 % of the INSERT (every value
 * decoded, copied to this thread, converted by Prisma) for values this thread holds already.
 */
function readBackColumns(rows: Record<string, unknown>[]): string[] {
  return POST_COLUMNS.filter((column) => column === "id" || column === "meta" || rows.some((row) => row[column] === undefined));
}

/** A new post as a read would give it: the values written, and the columns read back. */
function newPost(written: Record<string, unknown>, stored: Record<string, unknown>, readBack: string[]): Post {
  const post: Record<string, unknown> = {};
  for (const column of POST_COLUMNS) post[column] = readBack.includes(column) ? stored[column] : written[column];
  return post as Post;
}

/** The term ids a write asks for, by taxonomy; a new post, or one whose categories are emptied, gets the default category. */
function wantedTerms(type: string, input: PostInput, isNew: boolean, defaultCategory: number): [taxonomy: "category" | "post_tag", ids: number[]][] {
  const wanted: [taxonomy: "category" | "post_tag", ids: number[]][] = [];
  for (const taxonomy of POST_TYPES[type].taxonomies) {
    let ids = taxonomy === "category" ? input.categories : input.tags;
    if (taxonomy === "category" && isNew && !ids?.length) ids = [defaultCategory];
    if (ids === undefined || ids === null) continue;
    if (taxonomy === "category" && ids.length === 0) ids = [defaultCategory];
    wanted.push([taxonomy, ids]);
  }
  return wanted;
}

/** Rewrites an updated post's categories and tags; a post always has a category (the default one). Unknown term ids are ignored. */
async function saveTerms(tx: Prisma.TransactionClient, postId: number, type: string, input: PostInput, defaultCategory: number): Promise<void> {
  for (const [taxonomy, ids] of wantedTerms(type, input, false, defaultCategory)) {
    const existing = await tx.term.findMany({ where: { id: { in: ids }, taxonomy }, select: { id: true } });
    const valid = ids.filter((id) => existing.some((t) => t.id === id));
    await tx.postTerm.deleteMany({ where: { postId, term: { taxonomy } } });
    await tx.postTerm.createMany({ data: [...new Set(valid)].map((termId, i) => ({ postId, termId, termOrder: i })) });
  }
  if (POST_TYPES[type].formats && input.format) await saveFormatTerm(tx, postId, input.format);
}

/** A new post, as the category and tag links of its input are made (wantedTerms). */
interface NewPostLinks { postId: number; input: PostInput; defaultCategory: number }

/**
 * New posts and their category and tag links (saveTerms for many new posts at once) as ONE
 * statement: each statement of a transaction is a round trip between threads while the transaction
 * holds the database. The terms asked for that exist in their taxonomy are linked (an unknown id is
 * ignored, as on update), numbered 0, 1, … per taxonomy in the order asked, as saveTerms numbers
 * them. Answers the new rows' `returning` columns with `termLinks`: each post's [taxonomy, term id]
 * in term order (what the postTerms loader would read).
 */
function insertPostsLinkingTerms(type: string, rows: Record<string, unknown>[], posts: NewPostLinks[], returning: string[]): Prisma.Sql {
  const asked = posts.flatMap(({ postId, input, defaultCategory }) => wantedTerms(type, input, true, defaultCategory)
    .flatMap(([taxonomy, ids]) => [...new Set(ids)].map((termId) => ({ postId, termId, taxonomy }))));
  return Prisma.sql`
    WITH posts AS (${insertRows("Post", rows, { meta: "jsonb" })} RETURNING ${Prisma.raw(returning.map((column) => `"${column}"`).join(", "))}),
    asked AS (
      SELECT a."postId", a."termId", a.taxonomy, (row_number() OVER (PARTITION BY a."postId", a.taxonomy ORDER BY a.position) - 1)::int AS "termOrder"
      FROM unnest(${asked.map((a) => a.postId)}::int[], ${asked.map((a) => a.termId)}::int[], ${asked.map((a) => a.taxonomy)}::text[])
        WITH ORDINALITY AS a("postId", "termId", taxonomy, position)
      JOIN "Term" t ON t.id = a."termId" AND t.taxonomy = a.taxonomy
    ), links AS (
      INSERT INTO "PostTerm" ("postId", "termId", "termOrder") SELECT "postId", "termId", "termOrder" FROM asked
    )
    SELECT posts.*, COALESCE((
      SELECT json_agg(json_build_array(asked.taxonomy, asked."termId") ORDER BY asked.taxonomy, asked."termOrder") FROM asked WHERE asked."postId" = posts.id
    ), '[]'::json) AS "termLinks"
    FROM posts`;
}

/** A format is a post_format term, created on first use and linked to the new posts of that format (rare: most posts are "standard"). */
async function linkFormatTerms(tx: Prisma.TransactionClient, type: string, posts: NewPostLinks[]): Promise<void> {
  const formats = POST_TYPES[type].formats ? [...new Set(posts.map((p) => p.input.format).filter((f): f is string => !!f && f !== "standard"))] : [];
  if (!formats.length) return;
  const formatTerms = new Map(await Promise.all(formats.map(async (format) => [format, await formatTerm(tx, format)] as const)));
  const links = posts.filter((p) => formatTerms.has(p.input.format!)).map((p) => ({ postId: p.postId, termId: formatTerms.get(p.input.format!)!, termOrder: 0 }));
  await tx.$executeRaw(insertRows("PostTerm", links));
}

/** The post_format term of a format ("post-format-aside"), created on first use. */
async function formatTerm(tx: Prisma.TransactionClient, format: string): Promise<number> {
  const slug = `post-format-${format}`;
  const term = await tx.term.upsert({
    where: { taxonomy_slug: { taxonomy: "post_format", slug } },
    create: { taxonomy: "post_format", slug, name: format[0].toUpperCase() + format.slice(1) },
    update: {},
  });
  return term.id;
}

/**
 * WordPress keeps a post's format as a term of the post_format taxonomy ("post-format-aside"),
 * created on first use; we keep it the same way so term ids advance as they do in WordPress.
 * The `format` column stays the source the API reads.
 */
async function saveFormatTerm(tx: Prisma.TransactionClient, postId: number, format: string): Promise<void> {
  await tx.postTerm.deleteMany({ where: { postId, term: { taxonomy: "post_format" } } });
  if (format === "standard") return;
  await tx.postTerm.create({ data: { postId, termId: await formatTerm(tx, format) } });
}

export interface DeleteOutcome { deleted: boolean; post: Post; previousCategoryIds: number[]; previousTagIds: number[] }

/** Trashes a post, or with `force` deletes it and its revisions for good. */
export async function deletePost(ctx: ContentContext, type: string, id: number, force: boolean): Promise<DeleteOutcome> {
  const post = await requirePost(ctx, type, id);
  if (!canDeletePost(ctx.viewer, post)) refuse(ctx, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.");
  const terms = await ctx.loaders.postTerms.load(id);
  if (force) {
    await ctx.prisma.$transaction([
      ctx.prisma.post.deleteMany({ where: { parentId: id, type: "revision" } }),
      ctx.prisma.post.delete({ where: { id } }),
    ]);
    ctx.loaders.post.clear(id);
    return { deleted: true, post, previousCategoryIds: terms.category, previousTagIds: terms.post_tag };
  }
  if (post.status === "trash") fail("rest_already_trashed");
  const { clock } = await ctx.site();
  const now = wholeSeconds(new Date());
  const trashed = await ctx.prisma.$transaction(async (tx) => {
    const updated = await tx.post.update({
      where: { id },
      data: {
        status: "trash",
        slug: post.slug === "" ? "" : `${post.slug}__trashed`,
        modified: clock.toLocal(now), modifiedGmt: now,
        meta: { ...(post.meta as Record<string, unknown>), _wp_trash_meta_status: post.status, _wp_trash_meta_time: Math.floor(now.getTime() / 1000) },
      },
    });
    if (POST_TYPES[type].revisions) await saveRevisionIfChanged(tx, updated, ctx.viewer!.id);
    return updated;
  });
  ctx.loaders.post.clear(id).prime(id, trashed);
  ctx.loaders.revisionSummary.clear(id);
  return { deleted: false, post: trashed, previousCategoryIds: terms.category, previousTagIds: terms.post_tag };
}

/** Permissions of the caller on one post (for REST `Allow`, action links and edit-only fields). */
export function viewerPermissions(ctx: ContentContext, post: Post) {
  const v = ctx.viewer;
  return {
    edit: canEditPost(v, post),
    delete: canDeletePost(v, post),
    publish: canPublish(v, post.type),
    assignAuthor: canEditOthers(v, post.type),
    sticky: POST_TYPES[post.type]?.sticky === true && canEditOthers(v, post.type) && canPublish(v, post.type),
    assignTerms: canCreate(v, post.type),
    createTerms: hasCap(v, "manage_categories"),
    unfilteredHtml: hasCap(v, "unfiltered_html"),
  };
}
