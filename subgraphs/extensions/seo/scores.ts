// seo_scores / readability_scores (Yoast's dashboard score routes) and the older statistics
// widget: published indexables of a content type counted per bucket, cached for 60 s per
// content type (and term), with the ids in troubleshooting mode.
import type { SeoIndexable } from "../../../generated/prisma/client.ts";
import { askSubgraphAs } from "./peer.ts";
import { readTerm } from "./content-source.ts";
import { getOption, mayDo, requireCapability, setOption } from "./store.ts";
import type { ExtensionsContext } from "../context.ts";

export type ScoreKind = "seo" | "readability";
export const BUCKETS = ["good", "ok", "bad", "notAnalyzed"] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Content types with the score routes (indexable, with an admin screen) and their filtering taxonomy. */
export const CONTENT_TYPES: Record<string, { taxonomy: string | null }> = { post: { taxonomy: "category" }, page: { taxonomy: null } };
/** A taxonomy's query variable in admin list links. */
const QUERY_VAR: Record<string, string> = { category: "category_name", post_tag: "tag" };

export const CACHE_SECONDS = 60;

export interface ScoreBucket { name: Bucket; amount: number; ids: string | null; viewLink: string | null }
export interface ScoreSummary { scores: ScoreBucket[]; queryTime: number; cacheUsed: boolean; error: string | null; status: number }

/** Yoast's bucket of a stored score. */
export function bucketOf(kind: ScoreKind, i: Pick<SeoIndexable, "seoScore" | "readabilityScore" | "readingTimeMinutes">): Bucket {
  const score = kind === "seo" ? i.seoScore ?? 0 : i.readabilityScore;
  if (score >= 71) return "good";
  if (score >= 41) return "ok";
  if (score >= 1) return "bad";
  if (kind === "readability" && i.readingTimeMinutes !== null) return "bad";
  return "notAnalyzed";
}

const failure = (error: string, status: number): ScoreSummary => ({ scores: [], queryTime: 0, cacheUsed: false, error, status });

/** Post ids in a term, from the content subgraph (all pages of it). */
async function postIdsInTerm(ctx: ExtensionsContext, taxonomy: string, term: number): Promise<number[]> {
  const filter = taxonomy === "category" ? "categories" : "tags";
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const data = await askSubgraphAs<{ posts: { nodes: { databaseId: number }[]; totalCount: number } }>(ctx, "content",
      `query($t: [Int!]!, $page: Int) { posts(where: { ${filter}: { terms: $t } }, page: $page, perPage: 100) { totalCount nodes { databaseId } } }`, { t: [term], page });
    ids.push(...data.posts.nodes.map((n) => n.databaseId));
    if (ids.length >= data.posts.totalCount || data.posts.nodes.length === 0) return ids;
  }
}

interface CachedScores { expires: number; scores: { name: Bucket; amount: number; viewLink: string | null }[] }

export async function scoreSummary(
  ctx: ExtensionsContext, kind: ScoreKind, args: { contentType: string; taxonomy: string; term: number | null; troubleshooting: boolean | null },
  now: () => number = Date.now,
): Promise<ScoreSummary> {
  requireCapability(ctx, "wpseo_manage_options");
  const type = CONTENT_TYPES[args.contentType];
  if (!type) return failure("Invalid content type.", 400);
  if (args.taxonomy && args.taxonomy !== type.taxonomy) return failure("Invalid taxonomy.", 400);
  if (args.term !== null && !args.taxonomy) return failure("Term needs a provided taxonomy.", 400);
  if (args.taxonomy && args.term === null) return failure("Taxonomy needs a provided term.", 400);
  let termSlug: string | null = null;
  if (args.taxonomy && args.term !== null) {
    const term = await readTerm(ctx, args.taxonomy === "category" ? "category" : "tag", args.term);
    if (!term) return failure("Invalid term.", 400);
    termSlug = term.slug;
  }
  const cacheKey = `transient:wpseo_${kind}_scores_${args.contentType}${args.term !== null ? `_${args.term}` : ""}`;
  if (!args.troubleshooting) {
    const cached = await getOption<CachedScores | null>(ctx, cacheKey, null);
    if (cached && cached.expires > now()) return { scores: cached.scores.map((s) => ({ ...s, ids: null })), queryTime: 0, cacheUsed: true, error: null, status: 200 };
  }
  const started = performance.now();
  const inTerm = args.term !== null && args.taxonomy ? await postIdsInTerm(ctx, args.taxonomy, args.term) : null;
  const rows = await ctx.prisma.seoIndexable.findMany({
    where: {
      objectType: "post", objectSubType: args.contentType, OR: [{ postStatus: "publish" }, { postStatus: null }],
      ...(inTerm ? { objectId: { in: inTerm } } : {}),
      ...(kind === "seo" ? { AND: [{ OR: [{ isRobotsNoindex: null }, { isRobotsNoindex: false }] }] } : {}),
    },
    select: { objectId: true, seoScore: true, readabilityScore: true, readingTimeMinutes: true },
    orderBy: { objectId: "asc" },
  });
  const queryTime = Math.round(performance.now() - started) / 1000;
  const filter = kind === "seo" ? "seo_filter" : "readability_filter";
  const queryVar = args.taxonomy ? QUERY_VAR[args.taxonomy] : undefined;
  const admin = `${ctx.config.siteUrl.replace(/\/+$/, "")}/wp-admin/edit.php`;
  const scores = BUCKETS.map((name) => {
    const ids = rows.filter((r) => bucketOf(kind, r) === name).map((r) => r.objectId);
    const link = args.taxonomy && !queryVar ? null
      : `${admin}?post_status=publish&post_type=${encodeURIComponent(args.contentType)}&${filter}=${name === "notAnalyzed" ? "na" : name}${queryVar && termSlug ? `&${queryVar}=${encodeURIComponent(termSlug)}` : ""}`;
    return { name, amount: ids.length, ids: args.troubleshooting ? ids.join(",") : null, viewLink: link };
  });
  if (!args.troubleshooting) {
    await setOption(ctx, cacheKey, { expires: now() + CACHE_SECONDS * 1000, scores: scores.map(({ ids: _ids, ...s }) => s) });
  }
  return { scores, queryTime, cacheUsed: false, error: null, status: 200 };
}

/** WPSEO_Rank: na, bad, ok, good (by SEO score) and noindex. */
export const RANKS = ["na", "bad", "ok", "good", "noindex"] as const;

export interface StatisticsRank { seoRank: string; label: string; count: number; link: string }

const RANK_LABELS: Record<(typeof RANKS)[number], string> = {
  na: "Posts <strong>without</strong> a focus keyphrase",
  bad: "Posts with the SEO score: <strong>Needs improvement</strong>",
  ok: "Posts with the SEO score: <strong>OK</strong>",
  good: "Posts with the SEO score: <strong>Good</strong>",
  noindex: "Posts that should not show up in search results",
};

/** The dashboard widget: published posts per SEO rank (the caller's own unless they may edit others' posts). */
export async function statistics(ctx: ExtensionsContext): Promise<{ header: string; seoScores: StatisticsRank[] }> {
  const userId = requireCapability(ctx, "read");
  const own = !mayDo(ctx, "edit_others_posts");
  const rows = await ctx.prisma.seoIndexable.findMany({
    where: { objectType: "post", objectSubType: "post", postStatus: "publish", ...(own ? { authorId: userId } : {}) },
    select: { seoScore: true, isRobotsNoindex: true, readabilityScore: true, readingTimeMinutes: true },
  });
  const rankOf = (r: (typeof rows)[number]): (typeof RANKS)[number] => {
    if (r.isRobotsNoindex) return "noindex";
    const b = bucketOf("seo", r);
    return b === "notAnalyzed" ? "na" : b;
  };
  const admin = `${ctx.config.siteUrl.replace(/\/+$/, "")}/wp-admin/edit.php?post_status=publish&#038;post_type=post&#038;seo_filter=`;
  const all = RANKS.map((rank) => ({
    seoRank: rank, label: RANK_LABELS[rank], count: rows.filter((r) => rankOf(r) === rank).length,
    link: `${admin}${rank}${own ? `&#038;author=${userId}` : ""}`,
  }));
  const total = all.reduce((n, r) => n + r.count, 0);
  const good = total ? (all.find((r) => r.seoRank === "good")!.count / total) : 0;
  const header = total === 0
    ? "You don't have any published posts, your SEO scores will appear here once you make your first post!"
    : good > 0.66 ? "Hey, your SEO is doing pretty well! Check out the stats:"
      : "Below are your published posts' SEO scores. Now is as good a time as any to start improving some of your posts!";
  return { header, seoScores: all.filter((r) => r.count !== 0) };
}
