// Thin resolvers of posts, pages and their revisions: arguments in, domain functions out. Field
// resolvers derive the presentation fields (rendered HTML, links, zone-less dates) from the stored row.
import { refId, type EntityRef } from "../../../lib/entity-ref.ts";
import { databaseIdOf, toGlobalId } from "../../../lib/global-id.ts";
import { relayList } from "../connections.ts";
import { postIdArg, type IdType } from "../nodes/nodes.ts";
import type { MutationResolvers, QueryResolvers, Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import crypto from "node:crypto";
import type { Post, Term } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";
import { canEditPost, canReadPost } from "../permissions.ts";
import {
  createPosts, deletePost, listPosts, readPost, savePost, viewerPermissions, type ListArgs, type PostInput,
} from "./posts.ts";
import { blockVersion, renderContent, renderExcerpt, renderTitle, sanitizeTitle } from "./rendering.ts";
import {
  createAutosave, deleteRevision, isAutosave, listAutosaves, listRevisions, readAutosave, readRevision, type RevisionListArgs,
} from "./revisions.ts";
import { formatWpDate, type SiteClock } from "../site/site.ts";
import { postPermalink } from "./permalinks.ts";

/** A post as resolved: the row plus the password the request unlocked it with. */
type PostParent = Post & { unlockedWith?: string | null };
/** A revision as resolved; `asPost` is set when a draft autosave answered with the post itself. */
type RevisionParent = Post & { asPost?: boolean };

const gmtDate = (d: Date | null, local: Date, clock: SiteClock) => formatWpDate(d ?? clock.toGmt(local));
/** A mutation's post id: a global id or the database id. */
const postId = (id: string | number) => databaseIdOf(id, "post") ?? fail("rest_post_invalid_id");

/** An address on the site relative to its home ("/hello-world/", "/?p=12"). */
export const relativeUri = (link: string, home: string) => (link.startsWith(home) ? link.slice(home.length) || "/" : link);


/** Protected content is shown only when unlocked by its password or to an editor editing it. */
function unlocked(ctx: ContentContext, post: PostParent, editing: boolean | null | undefined): boolean {
  if (post.password === "") return true;
  if (editing && canEditPost(ctx.viewer, post)) return true;
  return post.unlockedWith !== undefined && post.unlockedWith === post.password;
}

async function readableReference(ctx: ContentContext, id: number, type?: string): Promise<Post | null> {
  const post = await ctx.loaders.post.load(id);
  return post && (!type || post.type === type) && canReadPost(ctx.viewer, post) ? post : null;
}

/** Terms by id through the loader, skipping any that no longer exist. */
async function loadTerms(ctx: ContentContext, ids: number[]): Promise<Term[]> {
  return (await ctx.loaders.term.loadMany(ids)).filter((t): t is Term => t !== null && !(t instanceof Error));
}

function previewNonce(post: Post): string {
  return crypto.createHash("sha256").update(`preview:${post.parentId}:${post.id}`).digest("hex").slice(0, 10);
}

// Posts and pages share every handler; each field names its post type.
const TYPENAMES: Record<string, string> = { post: "Post", page: "Page" };
const list = (type: string) => (_: unknown, args: ListArgs, ctx: ContentContext) =>
  relayList(type === "page" ? "pages" : "posts", args, (a) => listPosts(ctx, type, a));
const one = (type: string) => async (_: unknown, args: { id: string | number; idType?: IdType | null; password?: string | null }, ctx: ContentContext): Promise<PostParent> => {
  const id = await postIdArg(ctx, type, args.id, args.idType ?? "ID", TYPENAMES[type]);
  return { ...(await readPost(ctx, type, id, args.password)), unlockedWith: args.password };
};
const revisions = (type: string) => (_: unknown, args: RevisionListArgs & { parent: number }, ctx: ContentContext) =>
  relayList("revisions", args, (a) => listRevisions(ctx, type, args.parent, a));
const revision = (type: string) => (_: unknown, args: { parent: number; id: number }, ctx: ContentContext) => readRevision(ctx, type, args.parent, args.id);
const autosaves = (type: string) => (_: unknown, args: { parent: number }, ctx: ContentContext) => listAutosaves(ctx, type, args.parent);
const autosave = (type: string) => (_: unknown, args: { parent: number }, ctx: ContentContext) => readAutosave(ctx, type, args.parent);

const create = (type: string) => (_: unknown, args: { input: PostInput }, ctx: ContentContext) => savePost(ctx, type, args.input);
// A refused input answers as an Error in its place: graphql-js nulls that item and paths the error at
// its index (the generated resolver type knows nothing of that, hence the cast).
const createMany = (type: string) => (_: unknown, args: { inputs: PostInput[] }, ctx: ContentContext) =>
  createPosts(ctx, type, args.inputs) as Promise<unknown> as Promise<Post[]>;
const update = (type: string) => (_: unknown, args: { id: string; input: PostInput }, ctx: ContentContext) => savePost(ctx, type, args.input, postId(args.id));
const remove = (type: string) => (_: unknown, args: { id: string; force?: boolean | null }, ctx: ContentContext) => deletePost(ctx, type, postId(args.id), args.force ?? false);
const createAutosaveOf = (type: string) => async (_: unknown, args: { parent: number; input: PostInput }, ctx: ContentContext): Promise<RevisionParent> => {
  const outcome = await createAutosave(ctx, type, args.parent, args.input);
  return { ...outcome.item, asPost: outcome.updatedPost };
};
const removeRevision = (type: string) => async (_: unknown, args: { parent: number; id: number; force?: boolean | null }, ctx: ContentContext) =>
  ({ deleted: true, previous: await deleteRevision(ctx, type, args.parent, args.id, args.force ?? false) });

const Query: QueryResolvers = {
  posts: list("post"), post: one("post"),
  postRevisions: revisions("post"), postRevision: revision("post"), postAutosaves: autosaves("post"), postAutosave: autosave("post"),
  pages: list("page"), page: one("page"),
  pageRevisions: revisions("page"), pageRevision: revision("page"), pageAutosaves: autosaves("page"), pageAutosave: autosave("page"),
};

const Mutation: MutationResolvers = {
  createPost: create("post"), createPosts: createMany("post"), updatePost: update("post"), deletePost: remove("post"),
  createPostAutosave: createAutosaveOf("post"), deletePostRevision: removeRevision("post"),
  createPage: create("page"), createPages: createMany("page"), updatePage: update("page"),
  deletePage: async (parent, args, ctx) => { const outcome = await remove("page")(parent, args, ctx); return { ...outcome, page: outcome.post }; },
  createPageAutosave: createAutosaveOf("page"), deletePageRevision: removeRevision("page"),
};

/** Fields shared by every post type's GraphQL type (Post, Page): derived from the stored row. */
const postFields = {
    id: (post: Post) => toGlobalId("post", post.id),
    databaseId: (post: Post) => post.id,
    uri: async (post: Post, _: unknown, ctx: ContentContext) => relativeUri(await postPermalink(ctx, post), (await ctx.site()).home),
    date: (post: Post) => formatWpDate(post.date),
    dateGmt: async (post: Post, _: unknown, ctx: ContentContext) => gmtDate(post.dateGmt, post.date, (await ctx.site()).clock),
    modified: (post: Post) => formatWpDate(post.modified),
    modifiedGmt: (post: Post) => formatWpDate(post.modifiedGmt),
    guid: (post: Post, _: unknown, ctx: ContentContext) => ({ raw: canEditPost(ctx.viewer, post) ? post.guid : null, rendered: post.guid }),
    password: (post: Post, _: unknown, ctx: ContentContext) => (canEditPost(ctx.viewer, post) ? post.password : null),
    link: (post: Post, _: unknown, ctx: ContentContext) => postPermalink(ctx, post),
    title: (post: Post, _: unknown, ctx: ContentContext) => ({ raw: canEditPost(ctx.viewer, post) ? post.title : null, rendered: renderTitle(post.title) }),
    content: (post: PostParent, args: { editing?: boolean | null }, ctx: ContentContext) => ({
      raw: canEditPost(ctx.viewer, post) ? post.content : null,
      rendered: unlocked(ctx, post, args.editing) ? renderContent(post.content) : "",
      protected: post.password !== "",
      blockVersion: blockVersion(post.content),
    }),
    excerpt: (post: PostParent, args: { length?: number | null; editing?: boolean | null }, ctx: ContentContext) => ({
      raw: canEditPost(ctx.viewer, post) ? post.excerpt : null,
      rendered: unlocked(ctx, post, args.editing) ? renderExcerpt(post.excerpt, post.content, args.length ?? 55) : "",
      protected: post.password !== "",
    }),
    authorId: (post: Post) => post.authorId,
    author: (post: Post, _: unknown, ctx: ContentContext) => (post.authorId ? ctx.loaders.user.load(post.authorId) : null),
    featuredMediaId: (post: Post) => post.featuredMedia,
    meta: (post: Post) => ({ footnotes: String((post.meta as Record<string, unknown>)?.footnotes ?? "") }),
    categoryIds: async (post: Post, _: unknown, ctx: ContentContext) => (await ctx.loaders.postTerms.load(post.id)).category,
    categories: async (post: Post, _: unknown, ctx: ContentContext) => loadTerms(ctx, (await ctx.loaders.postTerms.load(post.id)).category),
    tagIds: async (post: Post, _: unknown, ctx: ContentContext) => (await ctx.loaders.postTerms.load(post.id)).post_tag,
    tags: async (post: Post, _: unknown, ctx: ContentContext) => loadTerms(ctx, (await ctx.loaders.postTerms.load(post.id)).post_tag),
    permalinkTemplate: async (_post: Post, _: unknown, ctx: ContentContext) => `${(await ctx.site()).home}/%postname%/`,
    generatedSlug: (post: Post) => post.slug || sanitizeTitle(post.title),
    revisionCount: async (post: Post, _: unknown, ctx: ContentContext) => (await ctx.loaders.revisionSummary.load(post.id)).count,
    latestRevisionId: async (post: Post, _: unknown, ctx: ContentContext) => (await ctx.loaders.revisionSummary.load(post.id)).latestId,
    viewerCan: (post: Post, _: unknown, ctx: ContentContext) => viewerPermissions(ctx, post),
};

export const postResolvers: Resolvers = {
  Query,
  Mutation,
  Post: {
    ...postFields,
    __resolveReference: (ref: EntityRef, ctx: ContentContext) => readableReference(ctx, refId(ref, "post"), "post"),
  },
  Page: {
    ...postFields,
    __resolveReference: (ref: EntityRef, ctx: ContentContext) => readableReference(ctx, refId(ref, "post"), "page"),
    parentId: (page: Post) => page.parentId,
    parent: (page: Post, _: unknown, ctx: ContentContext) => (page.parentId ? readableReference(ctx, page.parentId) : null),
    menuOrder: (page: Post) => page.menuOrder,
  },

  Revision: {
    id: (r: Post) => toGlobalId("post", r.id),
    databaseId: (r: Post) => r.id,
    parent: (r: RevisionParent) => (r.asPost ? 0 : r.parentId),
    // A floating draft (no GMT date yet) answered in the revision shape has no dates, as in WordPress.
    date: (r: RevisionParent) => (r.asPost && !r.dateGmt ? null : formatWpDate(r.date)),
    dateGmt: async (r: RevisionParent, _: unknown, ctx: ContentContext) => (r.asPost && !r.dateGmt ? null : gmtDate(r.dateGmt, r.date, (await ctx.site()).clock)),
    modified: (r: Post) => formatWpDate(r.modified),
    modifiedGmt: (r: Post) => formatWpDate(r.modifiedGmt),
    guid: async (r: RevisionParent, _: unknown, ctx: ContentContext) => {
      const guid = r.asPost ? r.guid : `${(await ctx.site()).home}/?p=${r.id}`;
      return { raw: guid, rendered: guid };
    },
    title: (r: Post) => ({ raw: r.title, rendered: renderTitle(r.title) }),
    content: (r: Post) => ({ raw: r.content, rendered: renderContent(r.content) }),
    // A revision renders its own excerpt only; an empty one stays empty (no excerpt made from the content).
    excerpt: (r: Post) => ({ raw: r.excerpt, rendered: renderExcerpt(r.excerpt, "") }),
    meta: (r: Post) => ({ footnotes: String((r.meta as Record<string, unknown>)?.footnotes ?? "") }),
    isAutosave: (r: RevisionParent) => r.asPost === true || isAutosave(r),
    previewLink: async (r: RevisionParent, _: unknown, ctx: ContentContext) => {
      const { home } = await ctx.site();
      return r.asPost ? `${home}/?p=${r.id}&preview=true` : `${home}/?p=${r.parentId}&preview_id=${r.parentId}&preview_nonce=${previewNonce(r)}&preview=true`;
    },
  },
};
