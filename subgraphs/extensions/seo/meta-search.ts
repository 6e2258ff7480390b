// meta/search: a post's custom fields whose keys start with the query (at most 25; with an empty
// query, hidden `_` keys are skipped), for whoever may edit the post. The fields are the post's
// own meta (from the content subgraph) and Yoast's post meta kept on the indexable.
import { askSubgraphAs } from "./peer.ts";
import { mayDo, seoError } from "./store.ts";
import type { ExtensionsContext } from "../context.ts";

export async function metaSearch(ctx: ExtensionsContext, postId: number | null, query: string): Promise<{ key: string; value: string }[]> {
  const refuse = () => seoError("rest_forbidden", "Sorry, you are not allowed to do that.", ctx.identity.site ? 403 : 401);
  if (postId === null || !mayDo(ctx, "edit_posts")) throw refuse();
  const data = await askSubgraphAs<{ posts: { nodes: { databaseId: number; authorId: number; meta: { footnotes: string } }[] }; pages: { nodes: { databaseId: number; authorId: number; meta: { footnotes: string } }[] } }>(ctx, "content",
    `query($ids: [Int!]) { posts(where: { include: $ids }) { nodes { databaseId authorId meta { footnotes } } } pages(where: { include: $ids }) { nodes { databaseId authorId meta { footnotes } } } }`,
    { ids: [postId] });
  const post = [...data.posts.nodes, ...data.pages.nodes][0];
  if (!post || (post.authorId !== ctx.identity.site?.userId && !mayDo(ctx, "edit_others_posts"))) throw refuse();
  const i = await ctx.prisma.seoIndexable.findUnique({ where: { objectType_objectId: { objectType: "post", objectId: postId } } });
  const meta: [string, string | null | undefined][] = [
    ["footnotes", post.meta.footnotes || undefined],
    ["_yoast_wpseo_focuskw", i?.focusKeyphrase || undefined], ["_yoast_wpseo_title", i?.seoTitle || undefined],
    ["_yoast_wpseo_metadesc", i?.metaDescription || undefined], ["_yoast_wpseo_canonical", i?.canonical || undefined],
    ["_yoast_wpseo_linkdex", i?.seoScore?.toString()], ["_yoast_wpseo_content_score", i?.analysedAt ? String(i.readabilityScore) : undefined],
    ["_yoast_wpseo_is_cornerstone", i?.isCornerstone ? "1" : undefined], ["_yoast_wpseo_meta-robots-noindex", i?.isRobotsNoindex === null || i?.isRobotsNoindex === undefined ? undefined : i.isRobotsNoindex ? "1" : "2"],
    ["_yoast_wpseo_estimated-reading-time-minutes", i?.readingTimeMinutes?.toString()],
  ];
  return meta
    .filter((e): e is [string, string] => typeof e[1] === "string")
    .filter(([key]) => key.startsWith(query) && !(query === "" && key.startsWith("_")))
    .slice(0, 25)
    .map(([key, value]) => ({ key, value }));
}
