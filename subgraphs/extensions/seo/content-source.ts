// Where SEO reads the site's content: the content subgraph's own GraphQL API, asked over HTTP
// with the caller's identity signed as the router signs it (the content subgraph applies its
// own visibility rules, so an anonymous caller sees published content only). The extensions
// subgraph never reads content tables. One request answers a whole batch of posts, so a list of
// Post.seo fields or an indexing batch costs one fetch, not one per post.
import { askSubgraphAs } from "./peer.ts";
import { mayDo } from "./store.ts";
import type { ExtensionsContext } from "../context.ts";

export interface ContentPost {
  databaseId: number;
  /** post or page */
  type: string;
  slug: string;
  status: string;
  link: string;
  dateGmt: string;
  modifiedGmt: string;
  title: { rendered: string };
  content: { rendered: string };
  excerpt: { rendered: string };
  authorId: number;
  author: { name: string; slug: string; link: string } | null;
  featuredMediaId: number;
}

export interface SiteInfo { name: string; description: string; url: string; home: string }
export interface ContentTerm { databaseId: number; name: string; slug: string; link: string; taxonomy: "category" | "post_tag" }
export interface ContentMedia { databaseId: number; sourceUrl: string; mimeType: string; width: number | null; height: number | null; alt: string }

const POST_FIELDS = `databaseId type slug status link dateGmt modifiedGmt title { rendered } content { rendered } excerpt { rendered }
  authorId author { name slug link } featuredMediaId`;

export type ContentKind = "post" | "page";
const LIST_FIELD: Record<ContentKind, string> = { post: "posts", page: "pages" };

interface Connection<T> { nodes: T[]; totalCount: number }

export const statusOf = (post: { status: string }): string => post.status.toLowerCase();

/** Published posts or pages by id ascending, one page of `perPage` (the content subgraph's default status filter). */
export async function listPublished(ctx: ExtensionsContext, kind: ContentKind, page: number, perPage: number): Promise<Connection<ContentPost>> {
  const field = LIST_FIELD[kind];
  const data = await askSubgraphAs<Record<string, Connection<ContentPost>>>(ctx, "content",
    `query($page: Int, $perPage: Int) { ${field}(page: $page, perPage: $perPage, orderBy: ID, order: ASC) { totalCount nodes { ${POST_FIELDS} } } }`,
    { page, perPage });
  return data[field];
}

/** Posts and pages by database id, whatever their status, as far as the caller may read them. */
export async function readPosts(ctx: ExtensionsContext, ids: readonly number[]): Promise<Map<number, ContentPost>> {
  const found = new Map<number, ContentPost>();
  if (ids.length === 0) return found;
  const unique = [...new Set(ids)];
  // Published and, for those who may edit others' posts, every other status but trash (WordPress's `any`).
  const status = mayDo(ctx, "edit_others_posts") ? ["ANY"] : null;
  const data = await askSubgraphAs<{ posts: Connection<ContentPost>; pages: Connection<ContentPost> }>(ctx, "content",
    `query($ids: [Int!], $n: Int, $status: [PostStatusEnum!]) {
      posts(where: { include: $ids, status: $status }, perPage: $n) { totalCount nodes { ${POST_FIELDS} } }
      pages(where: { include: $ids, status: $status }, perPage: $n) { totalCount nodes { ${POST_FIELDS} } }
    }`, { ids: unique, n: Math.min(100, unique.length), status });
  for (const p of [...data.posts.nodes, ...data.pages.nodes]) found.set(p.databaseId, p);
  return found;
}

export async function readSite(ctx: ExtensionsContext): Promise<SiteInfo> {
  const data = await askSubgraphAs<{ site: SiteInfo }>(ctx, "content", "{ site { name description url home } }", {});
  return data.site;
}

/** What a front-end address shows, as the content subgraph resolves permalinks (nodeByUri). */
export interface ContentAuthor { databaseId: number; name: string; slug: string; link: string; description: string }

export async function resolveUri(ctx: ExtensionsContext, uri: string): Promise<{ kind: "post" | "page" | "category" | "tag" | "user"; databaseId: number; author?: ContentAuthor } | null> {
  const data = await askSubgraphAs<{ nodeByUri: { __typename: string; databaseId?: number; name?: string; slug?: string; link?: string; description?: string } | null }>(ctx, "content",
    `query($uri: String!) { nodeByUri(uri: $uri) { __typename ... on Post { databaseId } ... on Page { databaseId } ... on Category { databaseId } ... on Tag { databaseId }
      ... on User { databaseId name slug link description } } }`,
    { uri });
  const node = data.nodeByUri;
  if (!node?.databaseId) return null;
  const kinds: Record<string, "post" | "page" | "category" | "tag" | "user"> = { Post: "post", Page: "page", Category: "category", Tag: "tag", User: "user" };
  const kind = kinds[node.__typename];
  if (kind === "user") {
    return { kind, databaseId: node.databaseId, author: { databaseId: node.databaseId, name: node.name ?? "", slug: node.slug ?? "", link: node.link ?? "", description: node.description ?? "" } };
  }
  return kind ? { kind, databaseId: node.databaseId } : null;
}

/** Categories and tags, one page each, by id. */
export async function listTerms(ctx: ExtensionsContext, page: number, perPage: number): Promise<{ terms: ContentTerm[]; total: number }> {
  const data = await askSubgraphAs<{ categories: Connection<Omit<ContentTerm, "taxonomy">> | null; tags: Connection<Omit<ContentTerm, "taxonomy">> | null }>(ctx, "content",
    `query($page: Int, $perPage: Int) {
      categories(page: $page, perPage: $perPage, orderBy: ID) { totalCount nodes { databaseId name slug link } }
      tags(page: $page, perPage: $perPage, orderBy: ID) { totalCount nodes { databaseId name slug link } }
    }`, { page, perPage });
  const terms = [
    ...(data.categories?.nodes ?? []).map((t) => ({ ...t, taxonomy: "category" as const })),
    ...(data.tags?.nodes ?? []).map((t) => ({ ...t, taxonomy: "post_tag" as const })),
  ];
  return { terms, total: (data.categories?.totalCount ?? 0) + (data.tags?.totalCount ?? 0) };
}

export async function readTerm(ctx: ExtensionsContext, taxonomy: "category" | "tag", id: number): Promise<ContentTerm | null> {
  const field = taxonomy === "category" ? "categories" : "tags";
  const data = await askSubgraphAs<Record<string, Connection<Omit<ContentTerm, "taxonomy">> | null>>(ctx, "content",
    `query($ids: [Int!]) { ${field}(where: { include: $ids }) { totalCount nodes { databaseId name slug link } } }`, { ids: [id] });
  const term = data[field]?.nodes[0];
  return term ? { ...term, taxonomy: taxonomy === "category" ? "category" : "post_tag" } : null;
}

export async function readMedia(ctx: ExtensionsContext, id: number): Promise<ContentMedia | null> {
  if (!id) return null;
  const data = await askSubgraphAs<{ mediaItems: Connection<{ databaseId: number; sourceUrl: string; mimeType: string; altText: string; mediaDetails: { width: number | null; height: number | null } | null }> }>(ctx, "content",
    `query($ids: [Int!]) { mediaItems(where: { include: $ids }) { totalCount nodes { databaseId sourceUrl mimeType altText mediaDetails { width height } } } }`, { ids: [id] });
  const m = data.mediaItems.nodes[0];
  return m ? { databaseId: m.databaseId, sourceUrl: m.sourceUrl, mimeType: m.mimeType, width: m.mediaDetails?.width ?? null, height: m.mediaDetails?.height ?? null, alt: m.altText } : null;
}
