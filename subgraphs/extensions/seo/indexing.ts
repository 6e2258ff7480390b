// Yoast's indexing routes: each call indexes one batch (posts, terms, post type archives,
// general pages, links) and answers the objects it indexed, with `nextUrl` set while the batch
// was full, so a client loops until it is false. prepare / indexables-complete / complete set
// Yoast's indexing flags. Progress: how many published posts and pages are still unindexed.
import { listPublished, listTerms, readPosts, readSite, type ContentPost } from "./content-source.ts";
import { analysePosts } from "./indexables.ts";
import { getOption, requireCapability, seoError, setOption } from "./store.ts";
import { linkKind, textModel } from "./analysis/text.ts";
import type { ExtensionsContext } from "../context.ts";

export const BATCH_LIMITS = { posts: 25, terms: 25, "post-type-archives": 25, general: 4, links: 5 } as const;
export type IndexingKind = "posts" | "terms" | "post-type-archives" | "general" | "link-posts" | "link-terms";

export interface IndexedObject { objectType: string; objectId: number | null; objectSubType: string | null; permalink: string }
export interface IndexingBatch { objects: IndexedObject[]; more: boolean }

const PAGE = 100;

/** Published posts and pages the content subgraph lists, page by page, without their bodies analysed yet. */
async function allPublished(ctx: ExtensionsContext): Promise<ContentPost[]> {
  const out: ContentPost[] = [];
  for (const kind of ["post", "page"] as const) {
    for (let page = 1; ; page++) {
      const { nodes, totalCount } = await listPublished(ctx, kind, page, PAGE);
      out.push(...nodes);
      if (nodes.length < PAGE || page * PAGE >= totalCount) break;
    }
  }
  return out;
}

/** Posts whose indexable is missing or older than their last change. */
async function unindexed(ctx: ExtensionsContext): Promise<ContentPost[]> {
  const posts = await allPublished(ctx);
  const rows = await ctx.prisma.seoIndexable.findMany({ where: { objectType: "post", objectId: { in: posts.map((p) => p.databaseId) } }, select: { objectId: true, analysedAt: true, postStatus: true } });
  const byId = new Map(rows.map((r) => [r.objectId, r]));
  return posts.filter((p) => {
    const row = byId.get(p.databaseId);
    if (!row?.analysedAt || row.postStatus !== "publish") return true;
    const modified = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(p.modifiedGmt) ? p.modifiedGmt : `${p.modifiedGmt}Z`);
    return modified.getTime() > row.analysedAt.getTime();
  });
}

async function guarded<T>(ctx: ExtensionsContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await setOption(ctx, "wpseo.indexing_failed", true);
    const message = error instanceof Error ? error.message : String(error);
    throw seoError("wpseo_error_indexing", message, 500, { stackTrace: error instanceof Error ? (error.stack ?? "") : "" });
  }
}

export async function indexBatch(ctx: ExtensionsContext, kind: IndexingKind): Promise<IndexingBatch> {
  requireCapability(ctx, "edit_posts");
  return guarded(ctx, async () => {
    switch (kind) {
      case "posts": {
        const todo = (await unindexed(ctx)).slice(0, BATCH_LIMITS.posts);
        const analysed = await analysePosts(ctx, todo);
        return { objects: analysed.map(({ indexable: i }) => ({ objectType: "post", objectId: i.objectId, objectSubType: i.objectSubType, permalink: i.permalink })), more: todo.length === BATCH_LIMITS.posts };
      }
      case "terms": {
        const known = new Set((await ctx.prisma.seoIndexable.findMany({ where: { objectType: "term" }, select: { objectId: true } })).map((r) => r.objectId));
        const todo: Awaited<ReturnType<typeof listTerms>>["terms"] = [];
        for (let page = 1; todo.length < BATCH_LIMITS.terms; page++) {
          const { terms } = await listTerms(ctx, page, PAGE);
          todo.push(...terms.filter((t) => !known.has(t.databaseId)));
          if (terms.length < PAGE) break;
        }
        const batch = todo.slice(0, BATCH_LIMITS.terms);
        for (const t of batch) {
          await ctx.prisma.seoIndexable.upsert({
            where: { objectType_objectId: { objectType: "term", objectId: t.databaseId } },
            create: { objectType: "term", objectId: t.databaseId, objectSubType: t.taxonomy, permalink: t.link, title: t.name, postStatus: null, analysedAt: new Date() },
            update: { objectSubType: t.taxonomy, permalink: t.link, title: t.name, analysedAt: new Date() },
          });
        }
        return { objects: batch.map((t) => ({ objectType: "term", objectId: t.databaseId, objectSubType: t.taxonomy, permalink: t.link })), more: batch.length === BATCH_LIMITS.terms };
      }
      case "post-type-archives":
        // Posts and pages have no post type archive (has_archive is false for both), so there is nothing to index.
        return { objects: [], more: false };
      case "general": {
        const site = await readSite(ctx);
        const home = site.home.endsWith("/") ? site.home : `${site.home}/`;
        const general: IndexedObject[] = [
          { objectType: "home-page", objectId: null, objectSubType: null, permalink: home },
          { objectType: "date-archive", objectId: null, objectSubType: null, permalink: "" },
          { objectType: "system-page", objectId: null, objectSubType: "search-result", permalink: "" },
          { objectType: "system-page", objectId: null, objectSubType: "404", permalink: "" },
        ];
        const done = await getOption<string[]>(ctx, "wpseo.general_indexed", []);
        const todo = general.filter((g) => !done.includes(`${g.objectType}:${g.objectSubType ?? ""}`)).slice(0, BATCH_LIMITS.general);
        await setOption(ctx, "wpseo.general_indexed", [...done, ...todo.map((g) => `${g.objectType}:${g.objectSubType ?? ""}`)]);
        return { objects: todo, more: todo.length === BATCH_LIMITS.general };
      }
      case "link-posts": {
        const rows = await ctx.prisma.seoIndexable.findMany({ where: { objectType: "post", linkCount: null }, orderBy: { objectId: "asc" }, take: BATCH_LIMITS.links });
        const posts = await readPosts(ctx, rows.map((r) => r.objectId));
        const permalinks = new Map((await ctx.prisma.seoIndexable.findMany({ where: { objectType: "post" }, select: { objectId: true, permalink: true } })).map((r) => [r.permalink.replace(/\/+$/, ""), r.objectId]));
        const siteHost = new URL(ctx.config.siteUrl).host;
        for (const row of rows) {
          const post = posts.get(row.objectId);
          const links = post ? textModel(post.content.rendered).links : [];
          const internal = links.filter((l) => linkKind(l.href, siteHost) === "internal");
          const targets = internal.map((l) => permalinks.get(new URL(l.href, ctx.config.siteUrl).href.replace(/[?#].*$/, "").replace(/\/+$/, ""))).filter((id): id is number => id !== undefined);
          await ctx.prisma.seoIndexable.update({ where: { id: row.id }, data: { linkCount: internal.length, linkedObjectIds: [...new Set(targets)] } });
        }
        return { objects: rows.map((r) => ({ objectType: "post", objectId: r.objectId, objectSubType: r.objectSubType, permalink: r.permalink })), more: rows.length === BATCH_LIMITS.links };
      }
      case "link-terms":
        // Term descriptions carry no links here (terms are indexed without bodies).
        return { objects: [], more: false };
    }
  });
}

/** prepare / indexables-complete / complete: Yoast's indexing flags. */
export async function indexingStep(ctx: ExtensionsContext, step: "prepare" | "indexables-complete" | "complete"): Promise<IndexingBatch> {
  requireCapability(ctx, "edit_posts");
  if (step === "prepare") {
    await setOption(ctx, "wpseo.indexing_started", Math.floor(Date.now() / 1000));
    await setOption(ctx, "wpseo.indexing_failed", false);
    await setOption(ctx, "wpseo.general_indexed", []);
  } else if (step === "indexables-complete") {
    await setOption(ctx, "wpseo.indexables_indexing_completed", true);
  } else {
    await setOption(ctx, "wpseo.indexing_reason", "");
    await setOption(ctx, "wpseo.indexing_started", false);
    await setOption(ctx, "wpseo.indexation_completed", true);
  }
  return { objects: [], more: false };
}

export interface IndexingProgress { total: number; indexed: number; remaining: number; completed: boolean; failed: boolean }

export async function indexingProgress(ctx: ExtensionsContext): Promise<IndexingProgress> {
  requireCapability(ctx, "edit_posts");
  const posts = await allPublished(ctx);
  const remaining = (await unindexed(ctx)).length;
  return {
    total: posts.length, indexed: posts.length - remaining, remaining,
    completed: await getOption<boolean>(ctx, "wpseo.indexables_indexing_completed", false),
    failed: await getOption<boolean>(ctx, "wpseo.indexing_failed", false),
  };
}
