// How a post (or page) from the graph becomes WordPress's JSON: key order, `context` filtering
// and `_links`. Shared by every post type's routes.
import { CURIES } from "./links.ts";
import type { SiteUrls, RestRequest } from "../route.ts";

export type Context = "view" | "embed" | "edit";

/** Which post type a shape is for: its REST base and its WordPress type name. */
export interface PostTypeShape { base: "posts" | "pages"; type: "post" | "page" }

const hierarchical = (t: PostTypeShape) => t.type === "page";

/** The fields every route of the type selects. `$editing` unlocks protected content for editors. */
export function postFields(t: PostTypeShape): string {
  const G = t.type === "page" ? "Page" : "Post";
  const own = hierarchical(t) ? "parentId menuOrder" : "sticky format categoryIds tagIds";
  return `
  fragment ${G}Fields on ${G} {
    id date dateGmt guid { raw rendered } modified modifiedGmt password slug status type link
    title { raw rendered }
    content(editing: $editing) { raw rendered protected blockVersion }
    excerpt(length: $excerptLength, editing: $editing) { raw rendered protected }
    authorId featuredMediaId commentStatus pingStatus template meta { footnotes } ${own}
    permalinkTemplate generatedSlug revisionCount latestRevisionId
    viewerCan { edit delete publish assignAuthor sticky assignTerms createTerms unfilteredHtml }
  }`;
}

export interface GraphPost {
  id: string; date: string; dateGmt: string; guid: { raw: string | null; rendered: string };
  modified: string; modifiedGmt: string; password: string | null; slug: string; status: string; type: string; link: string;
  title: { raw: string | null; rendered: string };
  content: { raw: string | null; rendered: string; protected: boolean; blockVersion: number };
  excerpt: { raw: string | null; rendered: string; protected: boolean };
  authorId: number; featuredMediaId: number; commentStatus: string; pingStatus: string;
  template: string; meta: { footnotes: string };
  /** Posts only. */
  sticky?: boolean; format?: string; categoryIds?: number[]; tagIds?: number[];
  /** Pages only. */
  parentId?: number; menuOrder?: number;
  permalinkTemplate: string; generatedSlug: string;
  revisionCount: number; latestRevisionId: number | null;
  viewerCan: { edit: boolean; delete: boolean; publish: boolean; assignAuthor: boolean; sticky: boolean; assignTerms: boolean; createTerms: boolean; unfilteredHtml: boolean };
}

export const contextOf = (request: RestRequest): Context => (request.params.context ?? "view") as Context;

/** Variables the post fragment needs. */
export const postVariables = (request: RestRequest, context: Context = contextOf(request)) => ({
  editing: context === "edit",
  excerptLength: request.params.excerpt_length ?? null,
});

export function postLinks(t: PostTypeShape, post: GraphPost, urls: SiteUrls, context: Context): Record<string, unknown[]> {
  const id = Number(post.id);
  const self = [{ href: urls.rest(`/core/v2/${t.base}/${id}`) }];
  const links: Record<string, unknown[]> = {
    self,
    collection: [{ href: urls.rest(`/core/v2/${t.base}`) }],
    about: [{ href: urls.rest(`/core/v2/types/${t.type}`) }],
  };
  if (post.authorId) links.author = [{ embeddable: true, href: urls.rest(`/core/v2/users/${post.authorId}`) }];
  links.replies = [{ embeddable: true, href: urls.rest(`/core/v2/comments?post=${id}`) }];
  links["version-history"] = [{ count: post.revisionCount, href: urls.rest(`/core/v2/${t.base}/${id}/revisions`) }];
  if (post.revisionCount > 0 && post.latestRevisionId) {
    links["predecessor-version"] = [{ id: post.latestRevisionId, href: urls.rest(`/core/v2/${t.base}/${id}/revisions/${post.latestRevisionId}`) }];
  }
  if (post.parentId) links.up = [{ embeddable: true, href: urls.rest(`/core/v2/${t.base}/${post.parentId}`) }];
  if (post.featuredMediaId) links["wp:featuredmedia"] = [{ embeddable: true, href: urls.rest(`/core/v2/media/${post.featuredMediaId}`) }];
  links["wp:attachment"] = [{ href: urls.rest(`/core/v2/media?parent=${id}`) }];
  const terms = !hierarchical(t);
  if (terms) {
    links["wp:term"] = [
      { taxonomy: "category", embeddable: true, href: urls.rest(`/core/v2/categories?post=${id}`) },
      { taxonomy: "post_tag", embeddable: true, href: urls.rest(`/core/v2/tags?post=${id}`) },
    ];
  }
  if (context === "edit") {
    const can = post.viewerCan;
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

/** The post in WordPress's key order, with only the fields of the context. */
export function restPost(t: PostTypeShape, post: GraphPost, context: Context, urls: SiteUrls, withLinks = true): Record<string, unknown> {
  const edit = context === "edit";
  let body: Record<string, unknown>;
  if (context === "embed") {
    body = {
      id: Number(post.id), date: post.date, slug: post.slug, type: post.type, link: post.link,
      title: { rendered: post.title.rendered },
      excerpt: { rendered: post.excerpt.rendered, protected: post.excerpt.protected },
      author: post.authorId, featured_media: post.featuredMediaId,
      ...(hierarchical(t) ? { parent: post.parentId, menu_order: post.menuOrder } : {}),
    };
  } else {
    body = {
      id: Number(post.id), date: post.date, date_gmt: post.dateGmt,
      guid: edit ? { rendered: post.guid.rendered, raw: post.guid.raw ?? post.guid.rendered } : { rendered: post.guid.rendered },
      modified: post.modified, modified_gmt: post.modifiedGmt,
      ...(edit ? { password: post.password ?? "" } : {}),
      slug: post.slug, status: post.status, type: post.type, link: post.link,
      title: edit ? { raw: post.title.raw ?? "", rendered: post.title.rendered } : { rendered: post.title.rendered },
      content: edit
        ? { raw: post.content.raw ?? "", rendered: post.content.rendered, protected: post.content.protected, block_version: post.content.blockVersion }
        : { rendered: post.content.rendered, protected: post.content.protected },
      excerpt: edit
        ? { raw: post.excerpt.raw ?? "", rendered: post.excerpt.rendered, protected: post.excerpt.protected }
        : { rendered: post.excerpt.rendered, protected: post.excerpt.protected },
      author: post.authorId, featured_media: post.featuredMediaId,
      ...(hierarchical(t) ? { parent: post.parentId, menu_order: post.menuOrder } : {}),
      comment_status: post.commentStatus, ping_status: post.pingStatus,
      ...(hierarchical(t) ? { template: post.template } : { sticky: post.sticky, template: post.template, format: post.format }),
      meta: { footnotes: post.meta.footnotes },
      ...(hierarchical(t) ? {} : { categories: post.categoryIds, tags: post.tagIds }),
      ...(edit ? { permalink_template: post.permalinkTemplate, generated_slug: post.generatedSlug } : {}),
    };
  }
  if (withLinks) body._links = postLinks(t, post, urls, context);
  return body;
}

/** `Allow` methods for one post, from what the caller may do with it. */
export const postAllow = (post: GraphPost) =>
  ["GET", ...(post.viewerCan.edit ? ["POST", "PUT", "PATCH"] : []), ...(post.viewerCan.delete ? ["DELETE"] : [])];

/** Revision / autosave shape (reference §5.6–5.7). */
export interface GraphRevision {
  id: number; parent: number; authorId: number; date: string | null; dateGmt: string | null; modified: string; modifiedGmt: string;
  slug: string; guid: { raw: string; rendered: string }; title: { raw: string; rendered: string };
  content: { raw: string; rendered: string }; excerpt: { raw: string; rendered: string }; meta: { footnotes: string };
  isAutosave: boolean; previewLink: string;
}

export const REVISION_FIELDS = `
  fragment RevisionFields on Revision {
    id parent authorId date dateGmt modified modifiedGmt slug guid { raw rendered } title { raw rendered }
    content { raw rendered } excerpt { raw rendered } meta { footnotes } isAutosave previewLink
  }`;

export function restRevision(t: PostTypeShape, r: GraphRevision, context: Context, urls: SiteUrls, options: { autosave?: boolean; links?: boolean } = {}): Record<string, unknown> {
  const edit = context === "edit";
  const text = (t: { raw: string; rendered: string }) => (edit ? { raw: t.raw, rendered: t.rendered } : { rendered: t.rendered });
  // WordPress emits the guid as {rendered, raw}, the other fields as {raw, rendered}.
  const guid = edit ? { rendered: r.guid.rendered, raw: r.guid.raw } : { rendered: r.guid.rendered };
  const body: Record<string, unknown> = context === "embed"
    ? { author: r.authorId, date: r.date, id: r.id, parent: r.parent, slug: r.slug, title: { rendered: r.title.rendered }, excerpt: { rendered: r.excerpt.rendered } }
    : {
      author: r.authorId, date: r.date, date_gmt: r.dateGmt, id: r.id, modified: r.modified, modified_gmt: r.modifiedGmt,
      parent: r.parent, slug: r.slug, guid, title: text(r.title), content: text(r.content), excerpt: text(r.excerpt),
      meta: { footnotes: r.meta.footnotes },
      ...(options.autosave && edit ? { preview_link: r.previewLink } : {}),
    };
  if (options.links !== false && r.parent) body._links = { parent: [{ href: urls.rest(`/core/v2/${t.base}/${r.parent}`) }] };
  return body;
}
