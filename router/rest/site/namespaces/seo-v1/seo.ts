// seo/v1: Yoast SEO's REST routes (yoast/v1) under a neutral name (seed 000 §4.8). Arguments are
// the ones Yoast registers (types, enums, defaults, required flags and validate callbacks); each
// endpoint is one operation of seo.graphql, and `respond` gives Yoast's body and status (several
// routes answer `{…, status}` with that status as the HTTP status, some wrap bodies in `json`,
// the score routes answer `{error}` bodies, the AI callbacks a bare "Unauthorized." string).
import * as Ops from "../../../../../generated/graphql/operations.ts";
import { route, type ArgError, type ArgSchema, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { bool, int, str, strs } from "../../kit/args.ts";
import { op, opEndpoint, type Op } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import type { GraphAllow } from "../../route.ts";
import type { Method } from "../../../table.ts";

const NS = "seo/v1";

type Perms = Ops.SeoPermissionsQuery["seoViewerCan"];
const may = (check: (p: Perms) => boolean): GraphAllow => allowedBy(Ops.SeoPermissionsDocument, (d) => check(d.seoViewerCan));
const MANAGE = may((p) => p.manageOptions);
const EDIT = may((p) => p.editPosts);
const EDIT_OTHERS = may((p) => p.editOthersPosts);
const PUBLISH = may((p) => p.publishPosts);
const READ = may((p) => p.read);
const MANAGE_FILES = may((p) => p.manageOptions);
const IMPORT = may((p) => p.activatePlugins);

const endpoint = <Out>(methods: Method[], args: Record<string, ArgSchema>, allowed: GraphAllow | undefined, operation: Op<Out>, respond: (out: Out, r: RestRequest) => RestResult) =>
  opEndpoint({ methods, args, ...(allowed ? { allowed } : {}) }, operation, respond);

/** A validate callback that answers WordPress's "Invalid parameter." when `ok` says no. */
const validWhen = (ok: (v: unknown) => boolean): ArgSchema["validate"] =>
  (v) => (ok(v) ? undefined : ({ code: "rest_invalid_param", message: "Invalid parameter." } satisfies ArgError));

const answer = (a: { status: number; body?: unknown }): RestResult => ({ status: a.status, body: a.body ?? null });
/** A `{success, status, …}` object: Yoast drops members that are not set. */
const configBody = (c: Ops.SeoConfigurationFieldsFragment) => ({
  success: c.success, status: c.status, ...(c.error ? { error: c.error } : {}), ...(c.failures ? { failures: c.failures } : {}), ...(c.data ? { data: c.data } : {}),
});
const batchBody = (kind: string) => (b: Ops.SeoIndexingBatchFieldsFragment, r: RestRequest): RestResult => ({
  body: {
    objects: b.objects.map((o) => ({ object_type: o.objectType, object_id: o.objectId, object_sub_type: o.objectSubType, permalink: o.permalink })),
    next_url: b.more ? r.urls.rest(`/${NS}/${kind}`) : false,
  },
});
const scoresBody = (s: Ops.SeoScoreSummaryFieldsFragment): RestResult => (s.error
  ? { status: s.status, body: { error: s.error } }
  : {
    body: {
      scores: s.scores.map((b) => ({ name: b.name, amount: b.amount, links: b.viewLink ? { view: b.viewLink } : [], ...(b.ids !== null ? { ids: b.ids } : {}) })),
      queryTime: s.queryTime, cacheUsed: s.cacheUsed,
    },
  });

const scoreArgs: Record<string, ArgSchema> = {
  contentType: { type: "string", required: true },
  taxonomy: { type: "string", default: "" },
  term: { type: "integer", default: null },
  troubleshooting: { type: "boolean", default: null },
};
const scoreVariables = (r: RestRequest) => ({ contentType: String(r.params.contentType), taxonomy: str(r.params.taxonomy) ?? "", term: int(r.params.term) ?? null, troubleshooting: bool(r.params.troubleshooting) ?? null });

const callbackArgs: Record<string, ArgSchema> = {
  access_jwt: { type: "string", required: true, description: "The access JWT." },
  refresh_jwt: { type: "string", required: true, description: "The JWT to be used when the access JWT needs to be refreshed." },
  code_challenge: { type: "string", required: true, description: "The SHA266 of the verification code used to check the authenticity of a callback call." },
  user_id: { type: "integer", required: true, description: "The id of the user associated to the code verifier." },
};
const callback = (path: string) => route(NS, path, [
  endpoint(["POST"], callbackArgs, undefined,
    op(Ops.SeoAiCallbackDocument, (r) => ({ accessJwt: String(r.params.access_jwt), refreshJwt: String(r.params.refresh_jwt), codeChallenge: String(r.params.code_challenge), userId: Number(r.params.user_id) }), (d) => d.seoAiCallback),
    answer),
]);

const SUGGESTION_TYPES = ["seo-title", "meta-description", "product-seo-title", "product-meta-description", "product-taxonomy-seo-title", "product-taxonomy-meta-description", "taxonomy-seo-title", "taxonomy-meta-description"];

const indexing = (path: string, kind: Ops.SeoIndexingKind) => route(NS, `/${path}`, [
  endpoint(["POST"], {}, EDIT, op(Ops.SeoIndexDocument, () => ({ kind }), (d) => d.seoIndex), batchBody(path)),
]);
const indexingStep = (path: string, step: Ops.SeoIndexingStep) => route(NS, `/${path}`, [
  endpoint(["POST"], {}, EDIT, op(Ops.SeoIndexingStepDocument, () => ({ step }), (d) => d.seoIndexingStep), batchBody(path)),
]);

const nonEmpty = (v: unknown) => typeof v === "string" && v.trim() !== "";
const countryCode = (v: unknown) => typeof v === "string" && /^[a-z]{2}$/.test(v);

export const seoRoutes: SiteRoute[] = [
  route(NS, "/file_size", [
    endpoint(["GET"], { url: { required: true, type: "string", description: "The url to retrieve" } }, MANAGE_FILES,
      op(Ops.SeoFileSizeDocument, (r) => ({ url: String(r.params.url) }), (d) => d.seoFileSize),
      (f) => (f.type === "success" ? { body: { type: "success", size_in_bytes: f.sizeInBytes } } : { status: 404, body: { type: "failure", response: f.response } })),
  ]),
  route(NS, "/statistics", [
    endpoint(["GET"], {}, READ, op(Ops.SeoStatisticsDocument, () => ({}), (d) => d.seoStatistics),
      (s) => ({ body: { header: s.header, seo_scores: s.seoScores.map((x) => ({ seo_rank: x.seoRank, label: x.label, count: x.count, link: x.link })) } })),
  ]),
  callback("/ai_generator/callback"),
  callback("/ai_generator/refresh_callback"),
  route(NS, "/ai_generator/consent", [
    endpoint(["POST"], { consent: { required: true, type: "boolean", description: "Whether the consent to use AI-based services has been given by the user." } }, EDIT,
      op(Ops.SeoAiConsentDocument, (r) => ({ consent: r.params.consent === true }), (d) => d.seoAiConsent), answer),
  ]),
  route(NS, "/ai/free_sparks", [endpoint(["POST"], {}, EDIT, op(Ops.SeoAiFreeSparksDocument, () => ({}), (d) => d.seoAiFreeSparks), answer)]),
  route(NS, "/ai_generator/bust_subscription_cache", [
    endpoint(["POST"], {}, EDIT, op(Ops.SeoAiBustSubscriptionCacheDocument, () => ({}), (d) => d.seoAiBustSubscriptionCache), answer),
  ]),
  route(NS, "/ai_generator/get_suggestions", [
    endpoint(["POST"], {
      type: { required: true, type: "string", enum: SUGGESTION_TYPES, description: "The type of suggestion requested." },
      prompt_content: { required: true, type: "string", description: "The content needed by the prompt to ask for suggestions." },
      focus_keyphrase: { required: true, type: "string", description: "The focus keyphrase associated to the post." },
      language: { required: true, type: "string", description: "The language the post is written in." },
      platform: { required: true, type: "string", enum: ["Google", "Facebook", "Twitter"], description: "The platform the post is intended for." },
      editor: { required: true, type: "string", enum: ["classic", "elementor", "gutenberg"], description: "The current editor." },
    }, EDIT, op(Ops.SeoAiSuggestionsDocument, (r) => ({
      input: { type: String(r.params.type), promptContent: String(r.params.prompt_content), focusKeyphrase: String(r.params.focus_keyphrase), language: String(r.params.language), platform: String(r.params.platform), editor: String(r.params.editor) },
    }), (d) => d.seoAiSuggestions), answer),
  ]),
  route(NS, "/ai_generator/get_usage", [
    endpoint(["POST"], { is_woo_product_entity: { type: "boolean", default: false, description: "Whether the entity is a WooCommerce product." } }, EDIT,
      op(Ops.SeoAiUsageDocument, (r) => ({ isWooProductEntity: r.params.is_woo_product_entity === true }), (d) => d.seoAiUsage), answer),
  ]),
  route(NS, "/new-content-type-visibility/dismiss-post-type", [
    endpoint(["POST"], { postTypeName: {} }, EDIT,
      op(Ops.SeoDismissNewContentTypeDocument, (r) => ({ kind: "POST_TYPE" as const, name: str(r.params.postTypeName) ?? null }), (d) => d.dismissSeoNewContentType),
      (x) => ({ status: x.status, body: { message: x.message, success: x.success, status: x.status } })),
  ]),
  route(NS, "/new-content-type-visibility/dismiss-taxonomy", [
    endpoint(["POST"], { taxonomyName: {} }, EDIT,
      op(Ops.SeoDismissNewContentTypeDocument, (r) => ({ kind: "TAXONOMY" as const, name: str(r.params.taxonomyName) ?? null }), (d) => d.dismissSeoNewContentType),
      (x) => ({ status: x.status, body: { message: x.message, success: x.success, status: x.status } })),
  ]),
  route(NS, "/readability_scores", [
    endpoint(["GET"], scoreArgs, MANAGE, op(Ops.SeoReadabilityScoresDocument, scoreVariables, (d) => d.readabilityScores), scoresBody),
  ]),
  route(NS, "/seo_scores", [
    endpoint(["GET"], scoreArgs, MANAGE, op(Ops.SeoScoresDocument, scoreVariables, (d) => d.seoScores), scoresBody),
  ]),
  route(NS, "/introductions/(?P<introduction_id>[\\w-]+)/seen", [
    endpoint(["POST"], { introduction_id: { type: "string", required: true }, is_seen: { type: "boolean", required: false, default: true } }, EDIT,
      op(Ops.SeoIntroductionSeenDocument, (r) => ({ introductionId: String(r.params.introduction_id), isSeen: r.params.is_seen !== false }), (d) => d.markSeoIntroductionSeen),
      (x) => (x.available ? { status: x.success ? 200 : 400, body: { json: { success: x.success } } } : { status: 400, body: [] })),
  ]),
  route(NS, "/video-embed-permission", [
    endpoint(["GET"], {}, EDIT, op(Ops.SeoVideoEmbedPermissionDocument, () => ({}), (d) => d.seoVideoEmbedPermission), (value) => ({ body: { json: { value } } })),
    endpoint(["POST"], { value: { required: false, type: "boolean", default: true } }, EDIT,
      op(Ops.SeoSetVideoEmbedPermissionDocument, (r) => ({ value: r.params.value !== false }), (d) => d.setSeoVideoEmbedPermission),
      (success) => ({ status: success ? 200 : 400, body: { json: { success } } })),
  ]),
  route(NS, "/available_posts", [
    endpoint(["GET"], { search: { type: "string", default: "" }, postType: { type: "string", default: "page" } }, MANAGE,
      op(Ops.SeoAvailablePostsDocument, (r) => ({ search: str(r.params.search) ?? "", postType: str(r.params.postType) ?? "page" }), (d) => d.seoAvailablePosts),
      (x) => (x.error ? { status: x.status, body: { error: x.error } } : { body: x.posts })),
  ]),
  route(NS, "/alerts/dismiss", [
    endpoint(["POST"], { key: { required: true } }, EDIT,
      op(Ops.SeoDismissAlertDocument, (r) => ({ key: String(r.params.key) }), (d) => d.dismissSeoAlert),
      (success) => ({ status: success ? 200 : 400, body: { success, status: success ? 200 : 400 } })),
  ]),
  route(NS, "/configuration/site_representation", [
    endpoint(["POST"], {
      company_or_person: { type: "string", enum: ["company", "person"], required: true },
      company_name: { type: "string" }, company_logo: { type: "string" }, company_logo_id: { type: "integer" },
      person_logo: { type: "string" }, person_logo_id: { type: "integer" }, company_or_person_user_id: { type: "integer" }, description: { type: "string" },
    }, MANAGE, op(Ops.SeoSiteRepresentationDocument, (r) => ({
      input: {
        companyOrPerson: String(r.params.company_or_person), companyName: str(r.params.company_name), companyLogo: str(r.params.company_logo),
        companyLogoId: int(r.params.company_logo_id), personLogo: str(r.params.person_logo), personLogoId: int(r.params.person_logo_id),
        companyOrPersonUserId: int(r.params.company_or_person_user_id), description: str(r.params.description), websiteName: str(r.params.website_name),
      },
    }), (d) => d.setSeoSiteRepresentation), (c) => ({ status: c.status, body: configBody(c) })),
  ]),
  route(NS, "/configuration/social_profiles", [
    endpoint(["POST"], { facebook_site: { type: "string" }, twitter_site: { type: "string" }, other_social_urls: { type: "array" } }, MANAGE,
      op(Ops.SeoSocialProfilesDocument, (r) => ({
        input: { facebookSite: str(r.params.facebook_site), twitterSite: str(r.params.twitter_site), otherSocialUrls: strs(r.params.other_social_urls) },
      }), (d) => d.setSeoSocialProfiles), (c) => ({ body: { json: configBody(c) } })),
  ]),
  route(NS, "/configuration/check_capability", [
    endpoint(["GET"], { user_id: { required: true } }, MANAGE,
      op(Ops.SeoCheckCapabilityDocument, (r) => ({ userId: Number.isInteger(Number(r.params.user_id)) ? Number(r.params.user_id) : 0 }), (d) => d.seoCheckCapability),
      (c) => ({ body: configBody(c) })),
  ]),
  route(NS, "/configuration/enable_tracking", [
    endpoint(["POST"], { tracking: { type: "boolean", required: true } }, MANAGE,
      op(Ops.SeoEnableTrackingDocument, (r) => ({ tracking: r.params.tracking === true }), (d) => d.setSeoTracking), (c) => ({ status: c.status, body: configBody(c) })),
  ]),
  route(NS, "/configuration/save_configuration_state", [
    endpoint(["POST"], { finishedSteps: { type: "array", required: true } }, MANAGE,
      op(Ops.SeoSaveConfigurationStateDocument, (r) => ({ finishedSteps: strs(r.params.finishedSteps) ?? [] }), (d) => d.saveSeoConfigurationState),
      (c) => ({ status: c.status, body: configBody(c) })),
  ]),
  route(NS, "/configuration/get_configuration_state", [
    endpoint(["GET"], {}, MANAGE, op(Ops.SeoConfigurationStateDocument, () => ({}), (d) => d.seoConfigurationState), (c) => ({ status: c.status, body: configBody(c) })),
  ]),
  route(NS, "/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)", [
    endpoint(["POST"], {}, IMPORT, op(Ops.SeoImportDocument, (r) => ({ plugin: String(r.params.plugin), type: String(r.params.type) }), (d) => d.runSeoImport),
      (b, r) => (b ? batchBody(`import/${String(r.params.plugin)}/${String(r.params.type)}`)(b, r) : { status: 404, body: null })),
  ]),
  route(NS, "/get_head", [
    endpoint(["GET"], { url: { required: true, validate: validWhen((v) => { try { return /^https?:$/.test(new URL(String(v).trim()).protocol); } catch { return false; } }) } }, undefined,
      op(Ops.SeoHeadDocument, (r) => ({ url: String(r.params.url) }), (d) => d.seoHead), (h) => ({ status: h.status, body: { html: h.html, json: h.json, status: h.status } })),
  ]),
  indexing("indexing/posts", "POSTS"),
  indexing("indexing/terms", "TERMS"),
  indexing("indexing/post-type-archives", "POST_TYPE_ARCHIVES"),
  indexing("indexing/general", "GENERAL"),
  indexingStep("indexing/prepare", "PREPARE"),
  indexingStep("indexing/indexables-complete", "INDEXABLES_COMPLETE"),
  indexingStep("indexing/complete", "COMPLETE"),
  indexing("link-indexing/posts", "LINK_POSTS"),
  indexing("link-indexing/terms", "LINK_TERMS"),
  route(NS, "/integrations/set_active", [
    endpoint(["POST"], { active: { type: "boolean", required: true }, integration: { type: "string", required: true } }, MANAGE,
      op(Ops.SeoSetIntegrationActiveDocument, (r) => ({ integration: String(r.params.integration), active: r.params.active === true }), (d) => d.setSeoIntegrationActive),
      (c) => ({ body: { json: configBody(c) } })),
  ]),
  route(NS, "/meta/search", [
    endpoint(["GET"], {}, EDIT, op(Ops.SeoMetaSearchDocument, (r) => ({
      postId: Number.isInteger(Number(r.params.post_id)) && r.params.post_id !== undefined && r.params.post_id !== null ? Number(r.params.post_id) : null,
      query: typeof r.params.query === "string" ? r.params.query : "",
    }), (d) => d.seoMetaSearch), (meta) => ({ body: { meta } })),
  ]),
  route(NS, "/keyword-provider-a/authenticate", [
    endpoint(["POST"], { code: { required: true, validate: validWhen((v) => v !== "") } }, EDIT,
      op(Ops.SeoKeywordProviderAuthenticateDocument, (r) => ({ code: String(r.params.code) }), (d) => d.keywordProviderAuthenticate), answer),
  ]),
  route(NS, "/keyword-provider-a/country_code", [
    endpoint(["POST"], { country_code: { required: true, validate: validWhen(countryCode) } }, EDIT,
      op(Ops.SeoKeywordProviderCountryDocument, (r) => ({ countryCode: String(r.params.country_code) }), (d) => d.keywordProviderSetCountry), answer),
  ]),
  route(NS, "/keyword-provider-a/related_keyphrases", [
    endpoint(["GET"], { keyphrase: { required: true, validate: validWhen(nonEmpty) }, country_code: { required: true, validate: validWhen(countryCode) } }, EDIT,
      op(Ops.SeoRelatedKeyphrasesDocument, (r) => ({ keyphrase: String(r.params.keyphrase), countryCode: String(r.params.country_code) }), (d) => d.seoRelatedKeyphrases), answer),
  ]),
  route(NS, "/rank-tracker/authorization-url", [
    endpoint(["GET"], {}, PUBLISH, op(Ops.SeoRankTrackerAuthorizationUrlDocument, () => ({}), (d) => d.seoRankTrackerAuthorizationUrl), answer),
  ]),
  route(NS, "/rank-tracker/authenticate", [
    endpoint(["POST"], { code: { required: true, validate: validWhen((v) => v !== "") }, websiteId: { required: true, validate: validWhen((v) => v !== "") } }, PUBLISH,
      op(Ops.SeoRankTrackerAuthenticateDocument, (r) => ({ code: String(r.params.code), websiteId: String(r.params.websiteId) }), (d) => d.rankTrackerAuthenticate), answer),
  ]),
  route(NS, "/rank-tracker/keyphrases/track", [
    endpoint(["POST"], { keyphrases: { required: true } }, PUBLISH,
      op(Ops.SeoRankTrackerTrackDocument, (r) => ({ keyphrases: Array.isArray(r.params.keyphrases) ? r.params.keyphrases.map(String) : [String(r.params.keyphrases)] }), (d) => d.rankTrackerTrack), answer),
  ]),
  route(NS, "/rank-tracker/keyphrases", [
    endpoint(["POST"], { keyphrases: { required: false }, permalink: { required: false }, startAt: { required: false } }, PUBLISH,
      op(Ops.SeoRankTrackerKeyphrasesDocument, (r) => ({
        keyphrases: r.params.keyphrases === undefined || r.params.keyphrases === null ? null : (Array.isArray(r.params.keyphrases) ? r.params.keyphrases.map(String) : [String(r.params.keyphrases)]),
        permalink: r.params.permalink === undefined || r.params.permalink === null ? null : String(r.params.permalink),
        startAt: r.params.startAt === undefined || r.params.startAt === null ? null : String(r.params.startAt),
      }), (d) => d.rankTrackerKeyphrases), answer),
  ]),
  route(NS, "/rank-tracker/keyphrases/untrack", [
    endpoint(["DELETE"], {}, PUBLISH, op(Ops.SeoRankTrackerUntrackDocument, (r) => ({ keyphraseId: r.params.keyphraseID === undefined || r.params.keyphraseID === null ? null : String(r.params.keyphraseID) }), (d) => d.rankTrackerUntrack), answer),
  ]),
  route(NS, "/rank-tracker/account/limit", [
    endpoint(["GET"], {}, PUBLISH, op(Ops.SeoRankTrackerLimitDocument, () => ({}), (d) => d.seoRankTrackerLimit), answer),
  ]),
  route(NS, "/rank-tracker/account/upgrade-campaign", [
    endpoint(["GET"], {}, PUBLISH, op(Ops.SeoRankTrackerUpgradeCampaignDocument, () => ({}), (d) => d.seoRankTrackerUpgradeCampaign), answer),
  ]),
  route(NS, "/workouts", [
    endpoint(["GET"], {}, EDIT_OTHERS, op(Ops.SeoWorkoutsDocument, () => ({}), (d) => d.seoWorkouts),
      (w) => ({ body: { json: Object.fromEntries(w.map((x) => [x.name, { finishedSteps: x.finishedSteps }])) } })),
    endpoint(["POST"], {}, EDIT_OTHERS, op(Ops.SeoSaveWorkoutsDocument, (r) => ({ workouts: workoutsInput(r.params.workouts) }), (d) => d.saveSeoWorkouts),
      (w) => ({ body: { json: Object.fromEntries(w.map((x) => [x.name, { finishedSteps: x.finishedSteps }])) } })),
  ]),
];

/** The workouts body `{workouts: {name: {finishedSteps: [...]}}}` as the graph's input (anything else saves nothing). */
function workoutsInput(value: unknown): Ops.SeoWorkoutInput[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([name, w]) => ({
    name, finishedSteps: Array.isArray((w as { finishedSteps?: unknown })?.finishedSteps) ? ((w as { finishedSteps: unknown[] }).finishedSteps.map(String)) : [],
  }));
}
