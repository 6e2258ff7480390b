// Revisions and autosaves, following WordPress exactly (reference §6): when a revision is
// stored, how an author's draft autosave differs from an autosave of a published post, and
// what the lists include. Both are rows of type "revision" whose parent is the post.
import type { Post, Prisma } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { listWindow } from "../../../lib/wordpress/list-window.ts";
import type { ContentContext } from "../context.ts";
import { canDeletePost, canEditPost, refuse } from "../permissions.ts";
import { requirePost, type PostInput } from "./posts.ts";
import { searchTerms } from "./post-query.ts";
import { wholeSeconds } from "../site/site.ts";

export const isAutosave = (revision: Post): boolean => revision.slug.includes("-autosave-v1");

const footnotes = (post: Post): string => String((post.meta as Record<string, unknown>)?.footnotes ?? "");
const normalize = (s: string) => s.replace(/\r\n?/g, "\n").replace(/[ \t]+/g, " ").trim();

/** Fields a revision keeps: title, content, excerpt and the revisioned meta. */
function sameContent(a: Post, b: Pick<Post, "title" | "content" | "excerpt" | "meta">): boolean {
  return normalize(a.title) === normalize(b.title) && normalize(a.content) === normalize(b.content)
    && normalize(a.excerpt) === normalize(b.excerpt) && footnotes(a) === footnotes(b as Post);
}

/**
 * After an update: store a revision of the new state, unless one exists and nothing revisioned
 * changed. The first update always stores one (autosaves do not count as revisions here).
 */
export async function saveRevisionIfChanged(tx: Prisma.TransactionClient, post: Post, userId: number): Promise<void> {
  if (post.status === "auto-draft") return;
  const latest = await tx.post.findFirst({
    where: { type: "revision", parentId: post.id, NOT: { slug: { contains: "-autosave-v1" } } },
    orderBy: [{ date: "desc" }, { id: "desc" }],
  });
  if (latest && sameContent(latest, post)) return;
  await tx.post.create({ data: revisionData(post, userId, `${post.id}-revision-v1`) });
}

function revisionData(post: Pick<Post, "id" | "title" | "content" | "excerpt" | "meta" | "modified" | "modifiedGmt">, userId: number, slug: string) {
  return {
    type: "revision", status: "inherit", parentId: post.id, authorId: userId, slug,
    title: post.title, content: post.content, excerpt: post.excerpt,
    meta: { footnotes: footnotes(post as Post) },
    date: post.modified, dateGmt: post.modifiedGmt, modified: post.modified, modifiedGmt: post.modifiedGmt,
  };
}

/** The parent of a revision route; revisions need edit rights on it even to be read. */
async function readableParent(ctx: ContentContext, type: string, parentId: number, what: "revisions" | "autosaves"): Promise<Post> {
  const parent = parentId > 0 ? await ctx.loaders.post.load(parentId) : null;
  if (!parent || parent.type !== type) return fail("rest_post_invalid_parent");
  if (!canEditPost(ctx.viewer, parent)) {
    refuse(ctx, "rest_cannot_read", `Sorry, you are not allowed to view ${what} of this post.`);
  }
  return parent;
}

export interface RevisionListArgs {
  where?: { search?: string | null; include?: number[] | null; exclude?: number[] | null } | null;
  page?: number | null;
  perPage?: number | null;
  offset?: number | null;
  order?: "ASC" | "DESC" | null;
  orderBy?: "DATE" | "ID" | "INCLUDE" | "RELEVANCE" | "SLUG" | "INCLUDE_SLUGS" | "TITLE" | null;
}

/** Revisions of a post, autosaves included; without perPage, all of them on one page. */
export async function listRevisions(ctx: ContentContext, type: string, parentId: number, args: RevisionListArgs) {
  const { perPage, page, offset } = listWindow("revisions", args);
  await readableParent(ctx, type, parentId, "revisions");
  const where: Prisma.PostWhereInput = { type: "revision", parentId };
  const and: Prisma.PostWhereInput[] = [where];
  if (args.where?.include?.length) and.push({ id: { in: args.where.include } });
  if (args.where?.exclude?.length) and.push({ id: { notIn: args.where.exclude } });
  for (const term of args.where?.search ? searchTerms(args.where.search) : []) {
    and.push({ OR: (["title", "content", "excerpt"] as const).map((c) => ({ [c]: { contains: term, mode: "insensitive" } })) });
  }
  const dir = args.order === "ASC" ? "asc" : "desc";
  const orderBy = args.orderBy ?? "DATE";
  const sqlOrder: Prisma.PostOrderByWithRelationInput[] = orderBy === "ID" ? [{ id: dir }]
    : orderBy === "SLUG" ? [{ slug: dir }, { id: dir }]
      : orderBy === "TITLE" ? [{ title: dir }, { id: dir }]
        : [{ date: dir }, { id: dir }];
  let rows = await ctx.prisma.post.findMany({ where: { AND: and }, orderBy: sqlOrder });
  if (orderBy === "INCLUDE" && args.where?.include?.length) {
    const include = args.where.include;
    rows = rows.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
  }
  const total = rows.length;
  let totalPages = total > 0 ? 1 : 0;
  let start = 0;
  if (perPage !== null) {
    totalPages = Math.ceil(total / perPage);
    if (offset !== null) {
      if (total > 0 && offset >= total) {
        fail("rest_revision_invalid_offset_number");
      }
      start = offset;
    } else {
      if (total > 0 && page > totalPages) {
        fail("rest_revision_invalid_page_number");
      }
      start = (page - 1) * perPage;
    }
  }
  return { nodes: perPage === null ? rows : rows.slice(start, start + perPage), totalCount: total, totalPages };
}

async function requireRevision(ctx: ContentContext, id: number): Promise<Post> {
  const revision = id > 0 ? await ctx.loaders.post.load(id) : null;
  if (!revision || revision.type !== "revision") return fail("rest_post_invalid_id", { message: "Invalid revision ID." });
  return revision;
}

export async function readRevision(ctx: ContentContext, type: string, parentId: number, id: number): Promise<Post> {
  await readableParent(ctx, type, parentId, "revisions");
  const revision = await requireRevision(ctx, id);
  if (revision.parentId !== parentId) {
    fail("rest_revision_parent_id_mismatch", { message: `The revision does not belong to the specified parent with id of "${parentId}"` });
  }
  return revision;
}

/** delete_post on a revision: WordPress maps it to do_not_allow. */
export const canDeleteRevision = (): boolean => false;

/** Deletes a revision; revisions cannot be trashed, so `force` must be true. */
export async function deleteRevision(ctx: ContentContext, type: string, parentId: number, id: number, force: boolean): Promise<Post> {
  const parent = parentId > 0 ? await ctx.loaders.post.load(parentId) : null;
  if (!parent || parent.type !== type) return fail("rest_post_invalid_parent");
  if (!canDeletePost(ctx.viewer, parent)) refuse(ctx, "rest_cannot_delete", "Sorry, you are not allowed to delete revisions of this post.");
  const revision = await requireRevision(ctx, id);
  if (!canEditPost(ctx.viewer, parent)) refuse(ctx, "rest_cannot_read");
  // WordPress's map_meta_cap answers do_not_allow to delete_post on a revision, for everyone,
  // so the route refuses here whatever `force` says (the recorded WordPress answers 403 to an
  // administrator). Were that capability ever granted, `force` would still have to be true.
  if (!canDeleteRevision()) refuse(ctx, "rest_cannot_delete", "Sorry, you are not allowed to delete this revision.");
  if (!force) fail("rest_trash_not_supported", { message: "Revisions do not support trashing. Set 'force=true' to delete." });
  await ctx.prisma.post.delete({ where: { id: revision.id } });
  ctx.loaders.post.clear(revision.id);
  return revision;
}

/** Every user's autosave of a post, newest first. */
export async function listAutosaves(ctx: ContentContext, type: string, parentId: number): Promise<Post[]> {
  await readableParent(ctx, type, parentId, "autosaves");
  return ctx.prisma.post.findMany({
    where: { type: "revision", parentId, slug: { contains: `${parentId}-autosave` } },
    orderBy: [{ date: "desc" }, { id: "desc" }],
  });
}

/** The newest autosave of a post by anyone; WordPress ignores the requested autosave id. */
export async function readAutosave(ctx: ContentContext, type: string, parentId: number): Promise<Post> {
  if (parentId <= 0) return fail("rest_post_invalid_id", { message: "Invalid post parent ID." });
  const [latest] = await listAutosaves(ctx, type, parentId);
  if (!latest) return fail("rest_post_no_autosave");
  return latest;
}

export interface AutosaveOutcome { item: Post; updatedPost: boolean }

/**
 * An author's own draft is updated in place (no revision); anything else gets one autosave per
 * user, created or overwritten. Submitting the post's own content again returns the existing autosave.
 */
export async function createAutosave(ctx: ContentContext, type: string, parentId: number, input: PostInput): Promise<AutosaveOutcome> {
  const parent = await requirePost(ctx, type, parentId);
  if (!canEditPost(ctx.viewer, parent)) refuse(ctx, "rest_cannot_edit");
  const viewer = ctx.viewer!;
  if ((parent.status === "draft" || parent.status === "auto-draft") && parent.authorId === viewer.id) {
    const { title, content, excerpt, meta } = input;
    const saved = await savePostWithoutRevision(ctx, type, parentId, { title, content, excerpt, meta });
    return { item: saved, updatedPost: true };
  }
  const proposed = {
    title: input.title ?? "", content: input.content ?? "", excerpt: input.excerpt ?? "",
    meta: { footnotes: input.meta?.footnotes ?? footnotes(parent) },
  };
  const existing = await ctx.prisma.post.findFirst({ where: { type: "revision", parentId, authorId: viewer.id, slug: `${parentId}-autosave-v1` } });
  if (existing && sameContent(parent, proposed)) return { item: existing, updatedPost: false };
  const { clock } = await ctx.site();
  const now = wholeSeconds(new Date());
  const data = {
    ...revisionData({ ...parent, ...proposed, modified: clock.toLocal(now), modifiedGmt: now }, viewer.id, `${parentId}-autosave-v1`),
  };
  const item = existing
    ? await ctx.prisma.post.update({ where: { id: existing.id }, data })
    : await ctx.prisma.post.create({ data });
  ctx.loaders.revisionSummary.clear(parentId);
  return { item, updatedPost: false };
}

/** The draft-autosave path: the post itself changes, and no revision is written (DOING_AUTOSAVE). */
async function savePostWithoutRevision(ctx: ContentContext, type: string, id: number, input: PostInput): Promise<Post> {
  const post = await requirePost(ctx, type, id);
  const { clock } = await ctx.site();
  const now = wholeSeconds(new Date());
  const updated = await ctx.prisma.post.update({
    where: { id },
    data: {
      title: input.title ?? post.title,
      content: input.content ?? post.content,
      excerpt: input.excerpt ?? post.excerpt,
      meta: { ...(post.meta as Record<string, unknown>), ...(input.meta?.footnotes != null ? { footnotes: input.meta.footnotes } : {}) },
      modified: clock.toLocal(now), modifiedGmt: now,
    },
  });
  ctx.loaders.post.clear(id).prime(id, updated);
  return updated;
}
