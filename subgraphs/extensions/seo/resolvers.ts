// Thin resolvers of seo/v1: arguments in, domain functions out.
import type { PostSeo, Resolvers, SeoAssessment } from "../../../generated/graphql/extensions-resolvers.ts";
import type { ExtensionsContext } from "../context.ts";
import { bucketOf } from "./scores.ts";
import { analysedPostLoader, updatePostSeo, type AnalysedPost } from "./indexables.ts";
import { headForUrl, postHead } from "./head.ts";
import { scoreSummary, statistics } from "./scores.ts";
import { indexBatch, indexingProgress, indexingStep, type IndexingBatch, type IndexingKind } from "./indexing.ts";
import {
  checkCapability, getConfigurationState, saveConfigurationState, setSiteRepresentation, setSocialProfiles, setTracking,
} from "./configuration.ts";
import {
  availablePosts, dismissAlert, dismissedAlerts, dismissNewContentType, fileSize, readWorkouts, runImport, saveWorkouts, setIntegrationActive,
  setIntroductionSeen, setVideoEmbedPermission, videoEmbedPermission,
} from "./user-state.ts";
import { metaSearch } from "./meta-search.ts";
import {
  bustSubscriptionCache, getSuggestions, getUsage, keywordProviderAuthenticate, keywordProviderCountry, rankTrackerAuthenticate,
  rankTrackerAuthorizationUrl, rankTrackerLimit, rankTrackerUpgradeCampaign, relatedKeyphrases, setConsent, startFreeSparks,
  storeCallbackTokens, trackedKeyphrases, trackKeyphrases, untrackKeyphrase,
} from "./services.ts";
import { mayDo } from "./store.ts";

const BUCKET = { good: "GOOD", ok: "OK", bad: "BAD", notAnalyzed: "NOT_ANALYZED" } as const;
const rating = (score: number): SeoAssessment["rating"] => (score >= 8 ? "GOOD" : score >= 5 ? "OK" : score >= 1 || score < -100 || score === -10 || score === -20 || score === -50 ? "BAD" : "FEEDBACK");

/** A post's analysis as the PostSeo type; the head is built only when asked for. */
export function postSeo(ctx: ExtensionsContext, analysed: AnalysedPost): PostSeo {
  const { indexable: i, analysis: a } = analysed;
  const assessments: SeoAssessment[] = [
    ...(a.seo?.results ?? []).map((r) => ({ kind: "SEO" as const, identifier: r.id, score: r.score, rating: rating(r.score), text: r.text })),
    ...a.readability.results.map((r) => ({ kind: "READABILITY" as const, identifier: r.id, score: r.score, rating: rating(r.score), text: r.text })),
  ];
  let head: ReturnType<typeof postHead> | undefined;
  return {
    score: i.seoScore, readability: i.readabilityScore, scoreBucket: BUCKET[bucketOf("seo", i)], readabilityBucket: BUCKET[bucketOf("readability", i)],
    focusKeyphrase: i.focusKeyphrase, seoTitle: i.seoTitle, metaDescription: i.metaDescription, canonical: i.canonical, isCornerstone: i.isCornerstone,
    isRobotsNoindex: i.isRobotsNoindex, isRobotsNofollow: i.isRobotsNofollow, fleschReadingEase: a.fleschReadingEase,
    readingTimeMinutes: a.readingTimeMinutes, wordCount: a.wordCount, assessments,
    get head() { return (head ??= postHead(ctx, analysed)) as unknown as PostSeo["head"]; },
  };
}

const seoOf = async (ref: { databaseId: number }, ctx: ExtensionsContext) => {
  const analysed = await analysedPostLoader(ctx).load(ref.databaseId);
  return analysed ? postSeo(ctx, analysed) : null;
};

const KIND: Record<string, IndexingKind> = { POSTS: "posts", TERMS: "terms", POST_TYPE_ARCHIVES: "post-type-archives", GENERAL: "general", LINK_POSTS: "link-posts", LINK_TERMS: "link-terms" };
const STEP = { PREPARE: "prepare", INDEXABLES_COMPLETE: "indexables-complete", COMPLETE: "complete" } as const;
const batch = (b: IndexingBatch) => b;

export const seoResolvers: Resolvers = {
  Query: {
    seoScores: (_, a, ctx) => scoreSummary(ctx, "seo", { contentType: a.contentType, taxonomy: a.taxonomy ?? "", term: a.term ?? null, troubleshooting: a.troubleshooting ?? null }),
    readabilityScores: (_, a, ctx) => scoreSummary(ctx, "readability", { contentType: a.contentType, taxonomy: a.taxonomy ?? "", term: a.term ?? null, troubleshooting: a.troubleshooting ?? null }),
    seoHead: (_, a, ctx) => headForUrl(ctx, a.url),
    seoStatistics: (_, __, ctx) => statistics(ctx),
    seoIndexingProgress: (_, __, ctx) => indexingProgress(ctx),
    seoConfigurationState: (_, __, ctx) => getConfigurationState(ctx),
    seoCheckCapability: (_, a, ctx) => checkCapability(ctx, a.userId),
    seoVideoEmbedPermission: (_, __, ctx) => videoEmbedPermission(ctx),
    seoAvailablePosts: (_, a, ctx) => availablePosts(ctx, a.postType ?? "page", a.search ?? ""),
    seoMetaSearch: (_, a, ctx) => metaSearch(ctx, a.postId ?? null, a.query ?? ""),
    seoFileSize: (_, a, ctx) => fileSize(ctx, a.url),
    seoWorkouts: async (_, __, ctx) => Object.entries(await readWorkouts(ctx)).map(([name, w]) => ({ name, finishedSteps: w.finishedSteps })),
    seoDismissedAlerts: (_, __, ctx) => dismissedAlerts(ctx),
    seoRelatedKeyphrases: (_, a, ctx) => relatedKeyphrases(ctx, a.keyphrase, a.countryCode),
    seoRankTrackerAuthorizationUrl: (_, __, ctx) => rankTrackerAuthorizationUrl(ctx),
    seoRankTrackerLimit: (_, __, ctx) => rankTrackerLimit(ctx),
    seoRankTrackerUpgradeCampaign: (_, __, ctx) => rankTrackerUpgradeCampaign(ctx),
    seoViewerCan: (_, __, ctx) => ({
      manageOptions: mayDo(ctx, "wpseo_manage_options"), editPosts: mayDo(ctx, "edit_posts"), editOthersPosts: mayDo(ctx, "edit_others_posts"), publishPosts: mayDo(ctx, "publish_posts"),
      read: ctx.identity.site !== undefined && mayDo(ctx, "read"), activatePlugins: mayDo(ctx, "activate_plugins"),
    }),
  },
  Mutation: {
    updatePostSeo: async (_, a, ctx) => postSeo(ctx, await updatePostSeo(ctx, a.databaseId, a.input)),
    seoIndex: async (_, a, ctx) => batch(await indexBatch(ctx, KIND[a.kind])),
    seoIndexingStep: (_, a, ctx) => indexingStep(ctx, STEP[a.step]),
    runSeoImport: (_, a, ctx) => runImport(ctx, a.plugin, a.type),
    seoAiCallback: (_, a, ctx) => storeCallbackTokens(ctx, { accessJwt: a.accessJwt, refreshJwt: a.refreshJwt, codeChallenge: a.codeChallenge, userId: a.userId }),
    seoAiConsent: (_, a, ctx) => setConsent(ctx, a.consent),
    seoAiFreeSparks: (_, __, ctx) => startFreeSparks(ctx),
    seoAiBustSubscriptionCache: (_, __, ctx) => bustSubscriptionCache(ctx),
    seoAiSuggestions: (_, a, ctx) => getSuggestions(ctx, a.input),
    seoAiUsage: (_, a, ctx) => getUsage(ctx, a.isWooProductEntity ?? false),
    dismissSeoNewContentType: (_, a, ctx) => dismissNewContentType(ctx, a.kind === "POST_TYPE" ? "postType" : "taxonomy", a.name ?? null),
    markSeoIntroductionSeen: (_, a, ctx) => setIntroductionSeen(ctx, a.introductionId, a.isSeen ?? true),
    setSeoVideoEmbedPermission: (_, a, ctx) => setVideoEmbedPermission(ctx, a.value ?? true),
    dismissSeoAlert: (_, a, ctx) => dismissAlert(ctx, a.key),
    setSeoSiteRepresentation: (_, a, ctx) => setSiteRepresentation(ctx, a.input),
    setSeoSocialProfiles: (_, a, ctx) => setSocialProfiles(ctx, a.input),
    setSeoTracking: (_, a, ctx) => setTracking(ctx, a.tracking),
    saveSeoConfigurationState: (_, a, ctx) => saveConfigurationState(ctx, a.finishedSteps),
    setSeoIntegrationActive: (_, a, ctx) => setIntegrationActive(ctx, a.integration, a.active),
    saveSeoWorkouts: async (_, a, ctx) => Object.entries(await saveWorkouts(ctx, a.workouts)).map(([name, w]) => ({ name, finishedSteps: w.finishedSteps })),
    keywordProviderAuthenticate: (_, a, ctx) => keywordProviderAuthenticate(ctx, a.code),
    keywordProviderSetCountry: (_, a, ctx) => keywordProviderCountry(ctx, a.countryCode),
    rankTrackerAuthenticate: (_, a, ctx) => rankTrackerAuthenticate(ctx, a.code, a.websiteId),
    rankTrackerTrack: (_, a, ctx) => trackKeyphrases(ctx, a.keyphrases),
    rankTrackerKeyphrases: (_, a, ctx) => trackedKeyphrases(ctx, { keyphrases: a.keyphrases ?? null, permalink: a.permalink ?? null, startAt: a.startAt ?? null }),
    rankTrackerUntrack: (_, a, ctx) => untrackKeyphrase(ctx, a.keyphraseId ?? null),
  },
  Post: { seo: (ref, _, ctx) => seoOf(ref, ctx) },
  Page: { seo: (ref, _, ctx) => seoOf(ref, ctx) },
};
