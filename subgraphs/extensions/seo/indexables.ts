// Indexables: one row per analysed post or page with Yoast's SEO settings and the scores the
// analysis produced. A post's scores are computed from its content as the content subgraph
// answers it, and stored (Yoast stores them as post meta when the editor saves), so the score
// buckets count what was last analysed.
import DataLoader from "dataloader";
import type { SeoIndexable } from "../../../generated/prisma/client.ts";
import { analyse, type Analysis } from "./analysis/index.ts";
import { readPosts, statusOf, type ContentPost } from "./content-source.ts";
import { mayDo, onceMoreOnConflict, seoError } from "./store.ts";
import type { ExtensionsContext } from "../context.ts";

/** The site's content language for the analysis (English: every assessment and Flesch). */
export const CONTENT_LANGUAGE = "en";

export interface AnalysedPost { post: ContentPost; indexable: SeoIndexable; analysis: Analysis }

/** Yoast's SEO settings of a post that an editor sets (post meta _yoast_wpseo_*). */
export interface PostSeoSettings {
  focusKeyphrase?: string | null;
  seoTitle?: string | null;
  metaDescription?: string | null;
  canonical?: string | null;
  isCornerstone?: boolean | null;
  isRobotsNoindex?: boolean | null;
  isRobotsNofollow?: boolean | null;
}

const blankIndexable = (post: ContentPost): Omit<SeoIndexable, "id" | "createdAt" | "updatedAt"> => ({
  objectType: "post", objectId: post.databaseId, objectSubType: post.type, permalink: post.link, postStatus: statusOf(post), authorId: post.authorId,
  title: "", focusKeyphrase: "", seoTitle: "", metaDescription: "", canonical: "", isCornerstone: false, isRobotsNoindex: null,
  isRobotsNofollow: false, seoScore: null, readabilityScore: 0, readingTimeMinutes: null, linkCount: null, internalLinkCount: 0,
  externalLinkCount: 0, linkedObjectIds: [], analysedAt: null,
});

/** The plain post title (rendered HTML without tags and entities). */
export const plainTitle = (post: ContentPost): string =>
  post.title.rendered.replace(/<[^>]*>/g, "").replace(/&#8217;/g, "’").replace(/&amp;/g, "&").replace(/&quot;/g, "\"").replace(/&#0?39;/g, "'").trim();

/** Analyses posts already read from the content subgraph and stores their scores; one statement per changed post. */
export async function analysePosts(ctx: ExtensionsContext, posts: ContentPost[]): Promise<AnalysedPost[]> {
  if (posts.length === 0) return [];
  const ids = posts.map((p) => p.databaseId);
  const existing = new Map((await ctx.prisma.seoIndexable.findMany({ where: { objectType: "post", objectId: { in: ids } } })).map((i) => [i.objectId, i]));
  const keyphrases = [...new Set([...existing.values()].map((i) => i.focusKeyphrase.toLowerCase()).filter(Boolean))];
  const used = keyphrases.length
    ? await ctx.prisma.seoIndexable.findMany({ where: { objectType: "post", focusKeyphrase: { in: keyphrases, mode: "insensitive" } }, select: { objectId: true, focusKeyphrase: true } })
    : [];
  const results: AnalysedPost[] = [];
  for (const post of posts) {
    const stored = existing.get(post.databaseId);
    const base = stored ?? { ...blankIndexable(post), id: 0, createdAt: new Date(), updatedAt: new Date() };
    const keyphrase = base.focusKeyphrase.toLowerCase();
    const previouslyUsed = keyphrase ? used.filter((u) => u.focusKeyphrase.toLowerCase() === keyphrase && u.objectId !== post.databaseId).length : 0;
    const title = base.seoTitle || plainTitle(post);
    const analysis = analyse({
      html: post.content.rendered, title, slug: post.slug, keyphrase: base.focusKeyphrase, metaDescription: base.metaDescription,
      cornerstone: base.isCornerstone, language: CONTENT_LANGUAGE, siteUrl: ctx.config.siteUrl, previouslyUsed,
    });
    const computed = {
      objectSubType: post.type, permalink: post.link, postStatus: statusOf(post), authorId: post.authorId, title: plainTitle(post),
      seoScore: analysis.seo?.score ?? null, readabilityScore: analysis.readability.score, readingTimeMinutes: analysis.readingTimeMinutes,
      internalLinkCount: analysis.internalLinks.length, externalLinkCount: analysis.externalLinks.length,
    };
    const changed = !stored || stored.analysedAt === null || (Object.keys(computed) as (keyof typeof computed)[]).some((k) => stored[k] !== computed[k]);
    const indexable = changed
      ? await onceMoreOnConflict(() => ctx.prisma.seoIndexable.upsert({
        where: { objectType_objectId: { objectType: "post", objectId: post.databaseId } },
        create: { ...blankIndexable(post), ...computed, analysedAt: new Date() },
        update: { ...computed, analysedAt: new Date() },
      }))
      : stored;
    results.push({ post, indexable, analysis });
  }
  return results;
}

const loaders = new WeakMap<ExtensionsContext, DataLoader<number, AnalysedPost | null>>();

/** Post.seo's loader: every post of a request read in one content fetch and analysed together. */
export function analysedPostLoader(ctx: ExtensionsContext): DataLoader<number, AnalysedPost | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const posts = await readPosts(ctx, ids);
      const analysed = await analysePosts(ctx, ids.map((id) => posts.get(id)).filter((p): p is ContentPost => p !== undefined));
      const byId = new Map(analysed.map((a) => [a.post.databaseId, a]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    loaders.set(ctx, loader);
  }
  return loader;
}

/** Sets a post's SEO settings (who may edit the post) and answers it analysed again. */
export async function updatePostSeo(ctx: ExtensionsContext, databaseId: number, input: PostSeoSettings): Promise<AnalysedPost> {
  if (!mayDo(ctx, "edit_posts")) throw seoError("rest_cannot_edit", "Sorry, you are not allowed to edit this post.", ctx.identity.site ? 403 : 401);
  const post = (await readPosts(ctx, [databaseId])).get(databaseId);
  if (!post) throw seoError("rest_post_invalid_id", "Invalid post ID.", 404);
  if (post.authorId !== ctx.identity.site?.userId && !mayDo(ctx, "edit_others_posts")) {
    throw seoError("rest_cannot_edit", "Sorry, you are not allowed to edit this post.", 403);
  }
  if (input.canonical && !/^https?:\/\/\S+$/i.test(input.canonical)) throw seoError("rest_invalid_param", "Invalid parameter(s): canonical", 400, { params: { canonical: "Invalid URL." } });
  const data = Object.fromEntries(Object.entries({
    focusKeyphrase: input.focusKeyphrase?.trim(), seoTitle: input.seoTitle, metaDescription: input.metaDescription, canonical: input.canonical,
    isCornerstone: input.isCornerstone, isRobotsNofollow: input.isRobotsNofollow,
  }).filter(([, v]) => v !== undefined && v !== null));
  const noindex = input.isRobotsNoindex === undefined ? {} : { isRobotsNoindex: input.isRobotsNoindex };
  await onceMoreOnConflict(() => ctx.prisma.seoIndexable.upsert({
    where: { objectType_objectId: { objectType: "post", objectId: databaseId } },
    create: { ...blankIndexable(post), ...data, ...noindex },
    update: { ...data, ...noindex, analysedAt: null },
  }));
  loaders.delete(ctx);
  const [analysed] = await analysePosts(ctx, [post]);
  return analysed;
}
