// core/v2/posts and core/v2/pages: one post-type resource, parameterised by type, as
// WordPress's posts controller serves every post type (seed 000 §2.1, §2.2, §4.2). The routes
// are the CRUD kit's plus revisions and autosaves; each endpoint is one typed operation of
// posts.graphql / pages.graphql.
import {
  CreatePageAutosaveDocument, CreatePageDocument, CreatePostAutosaveDocument, CreatePostDocument, DeletePageDocument,
  DeletePageRevisionDocument, DeletePostDocument, DeletePostRevisionDocument, ListPageAutosavesDocument, ListPageRevisionsDocument,
  ListPagesDocument, ListPostAutosavesDocument, ListPostRevisionsDocument, ListPostsDocument, ReadPageAutosaveDocument,
  ReadPageDocument, ReadPageRevisionDocument, ReadPostAutosaveDocument, ReadPostDocument, ReadPostRevisionDocument,
  PageEditPermissionDocument, PostEditPermissionDocument, SitePermissionsDocument, UpdatePageDocument, UpdatePostDocument, type PageFieldsFragment, type PageOrderBy, type PostFieldsFragment, type PostOrderBy,
} from "../../../../../generated/graphql/operations.ts";
import { FORMATS, SETTABLE_STATUSES } from "../../../../../lib/wordpress/post-values.ts";
import type { ArgSchema, GraphAllow, RestRequest, SiteRoute } from "../../route.ts";
import { int, str, upper, type Args } from "../../kit/args.ts";
import { contextOf, crudRoutes, inputOf, op, type Connection, type Op } from "../../kit/crud.ts";
import { allowedBy, allowedOn } from "../../kit/operation.ts";
import { CURIES, renderedSchema, writeArgs, type Context, type Field, type Links, type Resource, type View } from "../../kit/resource.ts";
import { listWhere, PAGE_LIST_ARGS, POST_LIST_ARGS } from "./post-lists.ts";
import { autosaveRoutes, revisionId, revisionListVariables, revisionResource, revisionRoutes, type RevisionNode } from "./revisions.ts";
import { toEnum, wpDiscussion, wpFormat, wpGmt, wpStatus } from "./wp-values.ts";

type PostNode = PostFieldsFragment | PageFieldsFragment;

const VIEW_EDIT: Context[] = ["view", "edit"];
const ALL: Context[] = ["view", "edit", "embed"];
const EDIT: Context[] = ["edit"];

/** title/content/excerpt: a string, or an object's `raw`; anything else is ignored (WordPress does not validate them). */
export const rawText = (value: unknown): string | undefined =>
  typeof value === "string" ? value
    : value && typeof value === "object" && typeof (value as { raw?: unknown }).raw === "string" ? (value as { raw: string }).raw
      : undefined;

const text = (description: string, what: string, contexts: { field?: Context[]; rendered?: Context[] } = {}): ArgSchema =>
  renderedSchema(description, `${what} for the post, as it exists in the database.`, `HTML ${what.toLowerCase()} for the post, transformed for display.`, contexts);
/** WordPress validates none of title/content/excerpt: a string or `{raw}` is taken, anything else ignored. */
const textWrite = { arg: { skipValidation: true } };
const scalar = (description: string, type: ArgSchema["type"], context: Context[], extra: Partial<ArgSchema> = {}): ArgSchema => ({ description, type, context, ...extra });

const postOnly = (n: PostNode) => ("sticky" in n ? n : undefined);
const pageOnly = (n: PostNode) => ("parentId" in n ? n : undefined);

/** The fields of a post type, in the order WordPress answers them; `hierarchical` types have parents and no formats, stickies or post taxonomies. */
function postTypeFields(hierarchical: boolean): Record<string, Field<PostNode>> {
  const fields: Record<string, Field<PostNode>> = {
    id: { schema: scalar("Unique identifier for the post.", "integer", ALL, { readonly: true }), read: (n) => Number(n.id) },
    date: { schema: scalar("The date the post was published, in the site's timezone.", ["string", "null"], ALL, { format: "date-time" }), read: (n) => n.date, input: "date" },
    date_gmt: { schema: scalar("The date the post was published, as GMT.", ["string", "null"], VIEW_EDIT, { format: "date-time" }), read: (n) => wpGmt(n.dateGmt), input: "dateGmt" },
    guid: {
      schema: { ...text("The globally unique identifier for the post.", "GUID"), context: VIEW_EDIT, readonly: true },
      read: (n) => ({ rendered: n.guid.rendered, raw: n.guid.raw ?? n.guid.rendered }),
    },
    modified: { schema: scalar("The date the post was last modified, in the site's timezone.", "string", VIEW_EDIT, { format: "date-time", readonly: true }), read: (n) => n.modified },
    modified_gmt: { schema: scalar("The date the post was last modified, as GMT.", "string", VIEW_EDIT, { format: "date-time", readonly: true }), read: (n) => wpGmt(n.modifiedGmt) },
    password: { schema: scalar("A password to protect access to the content and excerpt.", "string", EDIT), read: (n) => n.password ?? "", input: "password" },
    slug: { schema: scalar("An alphanumeric identifier for the post unique to its type.", "string", ALL), read: (n) => n.slug, input: "slug" },
    status: { schema: scalar("A named status for the post.", "string", VIEW_EDIT, { enum: SETTABLE_STATUSES }), read: (n) => wpStatus(n.status), input: ["status", toEnum] },
    type: { schema: scalar("Type of post.", "string", ALL, { readonly: true }), read: (n) => n.type },
    link: { schema: scalar("URL to the post.", "string", ALL, { format: "uri", readonly: true }), read: (n) => n.link },
    title: { schema: text("The title for the post.", "Title"), read: (n) => ({ raw: n.title.raw ?? "", rendered: n.title.rendered }), ...textWrite, input: ["title", rawText] },
    content: {
      schema: {
        ...text("The content for the post.", "Content", { field: VIEW_EDIT, rendered: VIEW_EDIT }),
        properties: {
          ...text("", "Content", { rendered: VIEW_EDIT }).properties,
          protected: { description: "Whether the content is protected with a password.", type: "boolean", context: ALL, readonly: true },
          block_version: { description: "Version of the content block format used by the post.", type: "integer", context: EDIT, readonly: true },
        },
      },
      read: (n) => ({ raw: n.content.raw ?? "", rendered: n.content.rendered, protected: n.content.protected, block_version: n.content.blockVersion }),
      ...textWrite, input: ["content", rawText],
    },
    excerpt: {
      schema: {
        ...text("The excerpt for the post.", "Excerpt"),
        properties: {
          ...text("", "Excerpt").properties,
          protected: { description: "Whether the excerpt is protected with a password.", type: "boolean", context: ALL, readonly: true },
        },
      },
      read: (n) => ({ raw: n.excerpt.raw ?? "", rendered: n.excerpt.rendered, protected: n.excerpt.protected }),
      ...textWrite, input: ["excerpt", rawText],
    },
    author: { schema: scalar("The ID for the author of the post.", "integer", ALL), read: (n) => n.authorId, input: "author" },
    featured_media: { schema: scalar("The ID of the featured media for the post.", "integer", ALL), read: (n) => n.featuredMediaId, input: "featuredMedia" },
  };
  if (hierarchical) {
    fields.parent = { schema: scalar("The ID for the parent of the post.", "integer", ALL), read: (n) => pageOnly(n)?.parentId, input: "parent" };
    fields.menu_order = { schema: scalar("The order of the post in relation to other posts.", "integer", ALL), read: (n) => pageOnly(n)?.menuOrder, input: "menuOrder" };
  }
  Object.assign(fields, {
    comment_status: { schema: scalar("Whether or not comments are open on the post.", "string", VIEW_EDIT, { enum: ["open", "closed"] }), read: (n: PostNode) => wpDiscussion(n.commentStatus), input: ["commentStatus", toEnum] },
    ping_status: { schema: scalar("Whether or not the post can be pinged.", "string", VIEW_EDIT, { enum: ["open", "closed"] }), read: (n: PostNode) => wpDiscussion(n.pingStatus), input: ["pingStatus", toEnum] },
    ...(hierarchical ? {} : {
      sticky: { schema: scalar("Whether or not the post should be treated as sticky.", "boolean", VIEW_EDIT), read: (n: PostNode) => postOnly(n)?.sticky, input: "sticky" },
    }),
    template: { schema: scalar("The theme file to use to display the post.", "string", VIEW_EDIT), read: (n: PostNode) => n.template, input: "template" },
    ...(hierarchical ? {} : {
      format: { schema: scalar("The format for the post.", "string", VIEW_EDIT, { enum: FORMATS }), read: (n: PostNode) => wpFormat(postOnly(n)?.format), input: ["format", toEnum] },
    }),
    meta: {
      schema: { description: "Meta fields.", type: "object", context: VIEW_EDIT, properties: { footnotes: { type: "string", description: "", default: "" } } },
      read: (n: PostNode) => ({ footnotes: n.meta.footnotes }),
      input: ["meta", (v: unknown) => (v && typeof v === "object" && typeof (v as { footnotes?: unknown }).footnotes === "string" ? { footnotes: (v as { footnotes: string }).footnotes } : undefined)],
    },
    ...(hierarchical ? {} : {
      categories: { schema: scalar("The terms assigned to the post in the category taxonomy.", "array", VIEW_EDIT, { items: { type: "integer" } }), read: (n: PostNode) => postOnly(n)?.categoryIds, input: "categories" },
      tags: { schema: scalar("The terms assigned to the post in the post_tag taxonomy.", "array", VIEW_EDIT, { items: { type: "integer" } }), read: (n: PostNode) => postOnly(n)?.tagIds, input: "tags" },
    }),
    permalink_template: { schema: scalar("Permalink template for the post.", "string", EDIT, { readonly: true }), read: (n: PostNode) => n.permalinkTemplate },
    generated_slug: { schema: scalar("Slug automatically generated from the post title.", "string", EDIT, { readonly: true }), read: (n: PostNode) => n.generatedSlug },
  } satisfies Record<string, Field<PostNode>>);
  return fields;
}

interface PostType { base: "/posts" | "/pages"; type: "post" | "page"; hierarchical: boolean }

function postLinks(t: PostType, n: PostNode, view: View): Links {
  const id = Number(n.id);
  const rest = view.urls.rest;
  const self = [{ href: rest(`/core/v2${t.base}/${id}`) }];
  const links: Links = { self, collection: [{ href: rest(`/core/v2${t.base}`) }], about: [{ href: rest(`/core/v2/types/${t.type}`) }] };
  if (n.authorId) links.author = [{ embeddable: true, href: rest(`/core/v2/users/${n.authorId}`) }];
  links.replies = [{ embeddable: true, href: rest(`/core/v2/comments?post=${id}`) }];
  links["version-history"] = [{ count: n.revisionCount, href: rest(`/core/v2${t.base}/${id}/revisions`) }];
  if (n.revisionCount > 0 && n.latestRevisionId) {
    links["predecessor-version"] = [{ id: n.latestRevisionId, href: rest(`/core/v2${t.base}/${id}/revisions/${n.latestRevisionId}`) }];
  }
  const parent = pageOnly(n)?.parentId;
  if (parent) links.up = [{ embeddable: true, href: rest(`/core/v2${t.base}/${parent}`) }];
  if (n.featuredMediaId) links["wp:featuredmedia"] = [{ embeddable: true, href: rest(`/core/v2/media/${n.featuredMediaId}`) }];
  links["wp:attachment"] = [{ href: rest(`/core/v2/media?parent=${id}`) }];
  const terms = !t.hierarchical;
  if (terms) {
    links["wp:term"] = [
      { taxonomy: "category", embeddable: true, href: rest(`/core/v2/categories?post=${id}`) },
      { taxonomy: "post_tag", embeddable: true, href: rest(`/core/v2/tags?post=${id}`) },
    ];
  }
  if (view.context === "edit") {
    const can = n.viewerCan;
    if (can.publish) links["wp:action-publish"] = self;
    if (can.unfilteredHtml) links["wp:action-unfiltered-html"] = self;
    if (can.sticky) links["wp:action-sticky"] = self;
    if (can.assignAuthor) links["wp:action-assign-author"] = self;
    if (terms && can.createTerms) links["wp:action-create-categories"] = self;
    if (terms && can.assignTerms) links["wp:action-assign-categories"] = self;
    if (terms && can.createTerms) links["wp:action-create-tags"] = self;
    if (terms && can.assignTerms) links["wp:action-assign-tags"] = self;
  }
  links.curies = CURIES;
  return links;
}

export const postTypeResource = (t: PostType): Resource<PostNode> =>
  ({ title: t.type, fields: postTypeFields(t.hierarchical), links: (n, view) => postLinks(t, n, view) });

const POST: PostType = { base: "/posts", type: "post", hierarchical: false };
const PAGE: PostType = { base: "/pages", type: "page", hierarchical: true };
export const POST_RESOURCE = postTypeResource(POST);
export const PAGE_RESOURCE = postTypeResource(PAGE);

// ---- variables shared by both types' documents ----

/** The fragment's switches: edit context unlocks protected content for editors; excerpt_length overrides the length. */
const fragmentVariables = (r: RestRequest, context: Context = contextOf(r)) => ({ editing: context === "edit", excerptLength: int(r.params.excerpt_length) ?? null });
const writing = { editing: true, excerptLength: null };
const listVariables = (args: Args) => (r: RestRequest) => ({
  where: listWhere(args, r.params), page: r.params.page as number, perPage: r.params.per_page as number, offset: r.params.offset ?? null,
  order: upper<"ASC" | "DESC">(r.params.order), ...fragmentVariables(r),
});
/** Only a wrong password given in the query string is an error (WordPress checks that one alone). */
const readVariables = (r: RestRequest) => ({
  id: String(r.params.id), password: str(r.query.password) ?? str(r.params.password) ?? null, ...fragmentVariables(r),
});
const idOf = (r: RestRequest) => String(r.params.id);

const idArg: ArgSchema = { description: "Unique identifier for the post.", type: "integer" };
const readArgs: Args = {
  id: idArg, context: { description: "Scope under which the request is made; determines fields present in response.", type: "string", enum: ["view", "embed", "edit"], default: "view" },
  excerpt_length: { description: "Override the default excerpt length.", type: "integer" },
  password: { description: "The password for the post if it is password protected.", type: "string" },
};
const EDIT_CONTEXT = { list: "Sorry, you are not allowed to edit posts in this post type.", item: "Sorry, you are not allowed to edit this post." };
const alternate = (n: PostNode) => ({ Link: `<${n.link}>; rel="alternate"; type=text/html` });
const visible = (n: PostNode, context: Context) => context !== "edit" || n.viewerCan.edit;
const autosaveParent: ArgSchema = { description: "The ID for the parent of the revision.", type: "integer" };

// ---- the routes ----

/** Contributors and up may write posts (edit_posts); pages need edit_pages: the graph decides. */
const canWritePosts = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.createPosts ?? false);
const canWritePages = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.createPages ?? false);

/** The post an autosave route names: `{id}/autosaves`, `{parent}/autosaves/{id}`. */
const autosaveParentId = (p: Readonly<Record<string, string>>) => ({ id: p.parent ?? p.id });
/** Autosaves run the parent's update check (edit_post of that post), as WordPress's autosaves controller does. */
const canEditPost = allowedOn(PostEditPermissionDocument, autosaveParentId, (d) => d.post?.viewerCan.edit ?? false);
const canEditPage = allowedOn(PageEditPermissionDocument, autosaveParentId, (d) => d.page?.viewerCan.edit ?? false);

/** The typed operations of one post type; everything else about its routes is the same for every type. */
interface PostTypeOps {
  list: Op<Connection<PostNode>>; create: Op<PostNode>; read: Op<PostNode>; update: Op<PostNode>; delete: Op<{ deleted: boolean; node: PostNode }>;
  revisions: Op<Connection<RevisionNode>>; revision: Op<RevisionNode>; deleteRevision: Op<RevisionNode>;
  autosaves: Op<RevisionNode[]>; createAutosave: Op<RevisionNode>; autosave: Op<RevisionNode>;
}

/** The routes WordPress's posts controller registers for a type: collection, item, revisions, autosaves. */
function postTypeRoutes(t: PostType, resource: Resource<PostNode>, listArgs: Args, canWrite: GraphAllow, canEditParent: GraphAllow, ops: PostTypeOps): SiteRoute[] {
  return [
    ...crudRoutes({
      namespace: "core/v2", path: t.base, resource, batch: true, idArg,
      allow: { create: canWrite, update: canWrite, delete: canWrite, editContext: canWrite },
      editContextMessages: EDIT_CONTEXT,
      list: { args: listArgs, visible, op: ops.list },
      create: { op: ops.create },
      read: { args: readArgs, op: ops.read, headers: alternate },
      update: { op: ops.update },
      delete: { force: "Whether to bypass Trash and force deletion.", op: ops.delete },
    }),
    ...revisionRoutes(t.base, { list: ops.revisions, read: ops.revision, remove: ops.deleteRevision }),
    ...autosaveRoutes(t.base, {
      resource: revisionResource(t.base, { autosave: true }), allowed: canEditParent, parentArg: autosaveParent,
      writeArgs: writeArgs(resource, "update"), ops: { list: ops.autosaves, create: ops.createAutosave, read: ops.autosave },
    }),
  ];
}

// Variables every type's operations share.
const created = (input: (r: RestRequest) => Record<string, unknown>) => (r: RestRequest) => ({ input: input(r), ...writing });
const updated = (input: (r: RestRequest) => Record<string, unknown>) => (r: RestRequest) => ({ id: idOf(r), input: input(r), ...writing });
const deleted = (r: RestRequest) => ({ id: idOf(r), force: r.params.force ?? false, ...writing });
const revisionDeleted = (r: RestRequest) => ({ ...revisionId(r), force: r.params.force ?? false });
/** The route names the post {id}; WordPress calls the same value `parent`. */
const autosaveParentOf = (r: RestRequest) => ({ parent: Number(r.params.id) });
const autosaveCreated = (input: (r: RestRequest) => Record<string, unknown>) => (r: RestRequest) => ({ ...autosaveParentOf(r), input: input(r) });

const postInput = inputOf(POST_RESOURCE);
const pageInput = inputOf(PAGE_RESOURCE);

export const postRoutes = postTypeRoutes(POST, POST_RESOURCE, POST_LIST_ARGS, canWritePosts, canEditPost, {
  list: op(ListPostsDocument, (r) => ({ ...listVariables(POST_LIST_ARGS)(r), orderBy: upper<PostOrderBy>(r.params.orderby) }), (d) => d.posts!),
  create: op(CreatePostDocument, created(postInput), (d) => d.createPost!),
  read: op(ReadPostDocument, readVariables, (d) => d.post!),
  update: op(UpdatePostDocument, updated(postInput), (d) => d.updatePost!),
  delete: op(DeletePostDocument, deleted, (d) => ({ deleted: d.deletePost!.deleted, node: d.deletePost!.post })),
  revisions: op(ListPostRevisionsDocument, revisionListVariables, (d) => d.postRevisions!),
  revision: op(ReadPostRevisionDocument, revisionId, (d) => d.postRevision!),
  deleteRevision: op(DeletePostRevisionDocument, revisionDeleted, (d) => d.deletePostRevision!.previous),
  autosaves: op(ListPostAutosavesDocument, autosaveParentOf, (d) => d.postAutosaves!),
  createAutosave: op(CreatePostAutosaveDocument, autosaveCreated(postInput), (d) => d.createPostAutosave!),
  autosave: op(ReadPostAutosaveDocument, revisionId, (d) => d.postAutosave!),
});

export const pageRoutes = postTypeRoutes(PAGE, PAGE_RESOURCE, PAGE_LIST_ARGS, canWritePages, canEditPage, {
  list: op(ListPagesDocument, (r) => ({ ...listVariables(PAGE_LIST_ARGS)(r), orderBy: upper<PageOrderBy>(r.params.orderby) }), (d) => d.pages!),
  create: op(CreatePageDocument, created(pageInput), (d) => d.createPage!),
  read: op(ReadPageDocument, readVariables, (d) => d.page!),
  update: op(UpdatePageDocument, updated(pageInput), (d) => d.updatePage!),
  delete: op(DeletePageDocument, deleted, (d) => ({ deleted: d.deletePage!.deleted, node: d.deletePage!.page })),
  revisions: op(ListPageRevisionsDocument, revisionListVariables, (d) => d.pageRevisions!),
  revision: op(ReadPageRevisionDocument, revisionId, (d) => d.pageRevision!),
  deleteRevision: op(DeletePageRevisionDocument, revisionDeleted, (d) => d.deletePageRevision!.previous),
  autosaves: op(ListPageAutosavesDocument, autosaveParentOf, (d) => d.pageAutosaves!),
  createAutosave: op(CreatePageAutosaveDocument, autosaveCreated(pageInput), (d) => d.createPageAutosave!),
  autosave: op(ReadPageAutosaveDocument, revisionId, (d) => d.pageAutosave!),
});
