// Permalinks with the site's "/%postname%/" structure: published items get pretty links (pages
// under their ancestors' slugs); everything else the plain "?p=" / "?page_id=" form. Term
// archives live under /category/… (with parent slugs) and /tag/….
import type { Post, Term } from "../../../generated/prisma/client.ts";
import type { ContentContext } from "../context.ts";

export type LoadPost = (id: number) => Promise<Post | null>;

export async function permalink(post: Post, home: string, loadPost: LoadPost): Promise<string> {
  if (post.status !== "publish" || !post.slug) return `${home}/?${post.type === "page" ? "page_id" : "p"}=${post.id}`;
  const slugs = [post.slug];
  const seen = new Set([post.id]);
  for (let parentId = post.type === "page" ? post.parentId : 0; parentId && !seen.has(parentId);) {
    seen.add(parentId);
    const parent = await loadPost(parentId);
    if (!parent) break;
    slugs.unshift(parent.slug);
    parentId = parent.parentId;
  }
  return `${home}/${slugs.join("/")}/`;
}

/** A post's permalink, its ancestors read through the request's loader. */
export async function postPermalink(ctx: ContentContext, post: Post): Promise<string> {
  return permalink(post, (await ctx.site()).home, (id) => ctx.loaders.post.load(id));
}

const TERM_BASES: Record<string, string> = { category: "category", post_tag: "tag" };

/** get_term_link: /category/{parents…}/{slug}/ or /tag/{slug}/; other taxonomies use ?taxonomy=…&term=…. */
export async function termLink(ctx: ContentContext, term: Term): Promise<string> {
  const { home } = await ctx.site();
  const base = TERM_BASES[term.taxonomy];
  if (!base) return `${home}/?taxonomy=${term.taxonomy}&term=${term.slug}`;
  const slugs = [term.slug];
  const seen = new Set([term.id]);
  for (let parentId = term.taxonomy === "category" ? term.parentId : 0; parentId && !seen.has(parentId);) {
    seen.add(parentId);
    const parent = await ctx.loaders.term.load(parentId);
    if (!parent) break;
    slugs.unshift(parent.slug);
    parentId = parent.parentId;
  }
  return `${home}/${base}/${slugs.join("/")}/`;
}
