// lang/v1 (Polylang's pll/v1 under a neutral name): languages and language settings. Argument
// schemas are Polylang's item and options schemas as rest_get_endpoint_args_for_schema turns them
// into args (readonly fields dropped, `required`/`default` on create only, each with WordPress's
// rest_validate_request_arg); the GraphQL names are camelCase, the REST names snake_case.
import { can } from "../../../../lib/capabilities.ts";
import type { Identity } from "../../../../lib/identity.ts";
import { gql } from "../../table.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteRoute, type OperationData } from "../route.ts";
import { validatedBySchema } from "../validation.ts";

const NS = "lang/v1";
const SLUG_PATTERN = "^[a-z][a-z0-9_-]*$";
const LOCALE_PATTERN = "^[a-z]{2,3}(?:_[A-Z]{2})?(?:_[a-z0-9]+)?$";
const SYNC_OPTIONS = [
  "taxonomies", "post_meta", "comment_status", "ping_status", "sticky_posts", "post_date", "post_format",
  "post_parent", "_wp_page_template", "menu_order", "_thumbnail_id",
];

type Json = OperationData;

const canManage = (identity: Identity) => can(identity.site?.roles, "manage_options");

// ---------------------------------------------------------------------------------------------
// Arguments

/** Writable language fields, in Polylang's schema order. */
const languageFields: Record<string, ArgSchema> = {
  name: { description: "The name is how it is displayed on your site (for example: English).", type: "string", minLength: 1 },
  slug: { description: "Language code - preferably 2-letters ISO 639-1 (for example: en).", type: "string", pattern: SLUG_PATTERN },
  locale: { description: "WordPress Locale for the language (for example: en_US).", type: "string", pattern: LOCALE_PATTERN },
  is_rtl: { description: "Text direction. `true` for right-to-left.", type: "boolean" },
  term_group: { description: "Position of the language in the language switcher.", type: "integer" },
  flag_code: { description: "Flag code corresponding to ISO 3166-1 (for example: us for the United States flag).", type: "string" },
};

const schemaArgs = (fields: Record<string, ArgSchema>): Record<string, ArgSchema> =>
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, validatedBySchema(schema)]));

const createArgs = schemaArgs({
  ...languageFields,
  locale: { ...languageFields.locale, required: true },
  no_default_cat: { description: "Tells whether the default category must be created when creating a new language.", type: "boolean", default: false },
});
const updateArgs = schemaArgs(languageFields);

const contextArg: ArgSchema = validatedBySchema({
  description: "Scope under which the request is made; determines fields present in response.",
  type: "string", enum: ["view", "edit"], default: "view",
});
const termIdArg: ArgSchema = { description: "Unique identifier for the language.", type: "integer" };
const slugArg: ArgSchema = { description: "Language code - preferably 2-letters ISO 639-1 (for example: en).", type: "string" };

/** Polylang's options schema, writable keys, in registration order. */
const settingsArgs = schemaArgs({
  browser: { description: "Detect preferred browser language on front page: `true` to detect, `false` to not detect.", type: "boolean" },
  rewrite: { description: "Remove /language/ in pretty permalinks: `true` to remove, `false` to keep.", type: "boolean" },
  hide_default: { description: "Remove the language code in URL for the default language: `true` to hide, `false` to display.", type: "boolean" },
  force_lang: {
    description: "Determine how the current language is defined: 1 by the directory name in pretty permalinks, 2 by the subdomain name, 3 by different domains.",
    type: "integer", enum: [1, 2, 3],
  },
  redirect_lang: { description: "Remove the page name or page id from the URL of the front page: `true` to remove, `false` to keep.", type: "boolean" },
  media_support: { description: "Translate media: `true` to translate, `false` otherwise.", type: "boolean" },
  sync: { description: "List of data to synchronize.", type: "array", items: { type: "string", enum: SYNC_OPTIONS } },
  post_types: { description: "List of post types to translate.", type: "array", items: { type: "string" } },
  taxonomies: { description: "List of taxonomies to translate.", type: "array", items: { type: "string" } },
  domains: {
    description: "Domains used when the language is set from different domains.",
    type: "object", patternProperties: { [SLUG_PATTERN]: { type: "string", format: "uri" } }, additionalProperties: false,
  },
  default_lang: { description: "Slug of the default language.", type: "string", pattern: SLUG_PATTERN },
  nav_menus: {
    description: "Translated navigation menus for each theme.",
    type: "object",
    patternProperties: {
      '[^\\/:<>\\*\\?"\\|]+': {
        type: "object",
        patternProperties: {
          "[\\w-]+": {
            type: "object",
            patternProperties: { [SLUG_PATTERN]: { type: "integer", minimum: 0 } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
});

// ---------------------------------------------------------------------------------------------
// Operations and their variables

const LANGUAGE_FIELDS = `termId name slug locale w3c facebook isRtl termGroup flagCode flagUrl flag customFlagUrl customFlag
  isDefault active fallbacks homeUrl searchUrl host pageOnFront pageForPosts termProps { taxonomy termId termTaxonomyId count }`;
const SETTINGS_FIELDS = `browser defaultLang domains { language url } firstActivation forceLang hideDefault mediaSupport
  navMenus { theme locations { location menus { language menuId } } } postTypes previousVersion redirectLang rewrite sync taxonomies version`;

const absent = (value: unknown) => value === undefined || value === null;

/** Only the params that were given (null counts as absent, as WordPress's get_param has it). */
function given(params: Json, names: Record<string, string>): Json {
  const out: Json = {};
  for (const [rest, graph] of Object.entries(names)) if (!absent(params[rest])) out[graph] = params[rest];
  return out;
}

const LANGUAGE_INPUT = { name: "name", slug: "slug", locale: "locale", is_rtl: "isRtl", term_group: "termGroup", flag_code: "flagCode" };

/** The request's `context` (any param of that name, registered or not, as `$request['context']`). */
const contextOf = (request: RestRequest): string | undefined => (absent(request.params.context) ? undefined : String(request.params.context));
const readContext = (request: RestRequest) => (contextOf(request) === "edit" ? "EDIT" : "VIEW");

/** Any value in term_id makes a create refused; GraphQL only needs to know one was sent. */
function presentId(value: unknown): number | undefined {
  if (absent(value)) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && Math.abs(n) <= 2 ** 31 - 1 ? n : 0;
}

function settingsInput(params: Json): Json {
  const input = given(params, {
    browser: "browser", rewrite: "rewrite", hide_default: "hideDefault", force_lang: "forceLang", redirect_lang: "redirectLang",
    media_support: "mediaSupport", sync: "sync", post_types: "postTypes", taxonomies: "taxonomies", default_lang: "defaultLang",
  });
  if (!absent(params.domains)) {
    input.domains = Object.entries(params.domains as Record<string, string>).map(([language, url]) => ({ language, url: String(url ?? "") }));
  }
  if (!absent(params.nav_menus)) {
    input.navMenus = Object.entries(params.nav_menus as Record<string, Record<string, Record<string, number>>>).map(([theme, locations]) => ({
      theme,
      locations: Object.entries(locations ?? {}).map(([location, menus]) => ({
        location,
        menus: Object.entries(menus ?? {}).map(([language, menuId]) => ({ language, menuId })),
      })),
    }));
  }
  return input;
}

// ---------------------------------------------------------------------------------------------
// Responses

/** Contexts every language field appears in (Polylang's schema gives them all view and edit). */
const LANGUAGE_CONTEXTS = ["view", "edit"];

/** A language in Polylang's JSON shape and key order. */
function restLanguage(l: Json, request: RestRequest): unknown {
  const context = contextOf(request);
  // get_fields_for_response drops fields outside the context: here that is all of them or none
  // (and an emptied PHP array is encoded as []).
  if (context !== undefined && !LANGUAGE_CONTEXTS.includes(context)) return [];
  const termProps: Json = {};
  for (const p of l.termProps as Json[]) termProps[p.taxonomy] = { term_id: p.termId, term_taxonomy_id: p.termTaxonomyId, count: p.count };
  return {
    term_id: l.termId, name: l.name, slug: l.slug, locale: l.locale, w3c: l.w3c, facebook: l.facebook,
    is_rtl: l.isRtl, term_group: l.termGroup, flag_code: l.flagCode, flag_url: l.flagUrl, flag: l.flag,
    custom_flag_url: l.customFlagUrl, custom_flag: l.customFlag, is_default: l.isDefault, active: l.active,
    fallbacks: l.fallbacks, home_url: l.homeUrl, search_url: l.searchUrl, host: l.host,
    page_on_front: l.pageOnFront, page_for_posts: l.pageForPosts, term_props: termProps,
  };
}

/** An empty map is a PHP empty array, encoded as []. */
const phpMap = (entries: [string, unknown][]): unknown => (entries.length > 0 ? Object.fromEntries(entries) : []);

/** The settings in Polylang's JSON shape (key order as `GET /settings` shows it). */
function restSettings(s: Json): Json {
  return {
    browser: s.browser,
    default_lang: s.defaultLang,
    domains: phpMap((s.domains as Json[]).map((d) => [d.language, d.url])),
    first_activation: s.firstActivation,
    force_lang: s.forceLang,
    hide_default: s.hideDefault,
    media_support: s.mediaSupport,
    nav_menus: phpMap((s.navMenus as Json[]).map((t) => [
      t.theme, phpMap((t.locations as Json[]).map((l) => [l.location, phpMap((l.menus as Json[]).map((m) => [m.language, m.menuId]))])),
    ])),
    post_types: s.postTypes,
    previous_version: s.previousVersion,
    redirect_lang: s.redirectLang,
    rewrite: s.rewrite,
    sync: s.sync,
    taxonomies: s.taxonomies,
    version: s.version,
  };
}

// Polylang answers 200 to a create too (not 201).
const ok = (body: unknown): RestResult => ({ status: 200, body });

// ---------------------------------------------------------------------------------------------
// Routes

export const languageRoutes: SiteRoute[] = [
  route(NS, "/languages", [
    {
      methods: ["GET"], args: {}, allowBatch: true,
      operation: gql`query ListLanguages($context: LanguageReadContext) { languages(context: $context) { ${LANGUAGE_FIELDS} } }`,
      variables: (r) => ({ context: readContext(r) }),
      respond: (data, r) => ok((data.languages as Json[]).map((l) => restLanguage(l, r))),
    },
    {
      methods: ["POST"], args: createArgs, allowBatch: true, allowed: canManage,
      operation: gql`mutation CreateLanguage($input: CreateLanguageInput!) { createLanguage(input: $input) { ${LANGUAGE_FIELDS} } }`,
      variables: (r) => ({
        input: {
          ...given(r.params, { ...LANGUAGE_INPUT, no_default_cat: "noDefaultCat" }),
          ...(presentId(r.params.term_id) !== undefined ? { termId: presentId(r.params.term_id) } : {}),
        },
      }),
      respond: (data, r) => ok(restLanguage(data.createLanguage, r)),
    },
  ]),
  route(NS, "/languages/(?P<term_id>[\\d]+)", [
    {
      methods: ["GET"], args: { term_id: termIdArg, context: contextArg }, allowBatch: true,
      operation: gql`query GetLanguage($termId: Int!, $context: LanguageReadContext) { language(termId: $termId, context: $context) { ${LANGUAGE_FIELDS} } }`,
      variables: (r) => ({ termId: r.params.term_id, context: readContext(r) }),
      respond: (data, r) => ok(restLanguage(data.language, r)),
    },
    {
      methods: ["POST", "PUT", "PATCH"], args: { term_id: termIdArg, ...updateArgs }, allowBatch: true, allowed: canManage,
      operation: gql`mutation UpdateLanguage($termId: Int!, $input: UpdateLanguageInput!) { updateLanguage(termId: $termId, input: $input) { ${LANGUAGE_FIELDS} } }`,
      variables: (r) => ({ termId: r.params.term_id, input: given(r.params, LANGUAGE_INPUT) }),
      respond: (data, r) => ok(restLanguage(data.updateLanguage, r)),
    },
    {
      methods: ["DELETE"], args: { term_id: termIdArg }, allowBatch: true, allowed: canManage,
      operation: gql`mutation DeleteLanguage($termId: Int!) { deleteLanguage(termId: $termId) { deleted previous { ${LANGUAGE_FIELDS} } } }`,
      variables: (r) => ({ termId: r.params.term_id }),
      respond: (data, r) => ok({ deleted: data.deleteLanguage.deleted, previous: restLanguage(data.deleteLanguage.previous, r) }),
    },
  ]),
  route(NS, "/languages/(?P<slug>[a-z][a-z0-9_-]*)", [
    {
      methods: ["GET"], args: { slug: slugArg, context: contextArg }, allowBatch: true,
      operation: gql`query GetLanguageBySlug($slug: String!, $context: LanguageReadContext) { languageBySlug(slug: $slug, context: $context) { ${LANGUAGE_FIELDS} } }`,
      variables: (r) => ({ slug: r.params.slug, context: readContext(r) }),
      respond: (data, r) => ok(restLanguage(data.languageBySlug, r)),
    },
  ]),
  route(NS, "/settings", [
    {
      methods: ["GET"], args: {}, allowBatch: true, allowed: canManage,
      operation: gql`query GetLanguageSettings { languageSettings { ${SETTINGS_FIELDS} } }`,
      respond: (data) => ok(restSettings(data.languageSettings)),
    },
    {
      methods: ["POST", "PUT", "PATCH"], args: settingsArgs, allowBatch: true, allowed: canManage,
      operation: gql`mutation UpdateLanguageSettings($input: LanguageSettingsInput!) { updateLanguageSettings(input: $input) { ${SETTINGS_FIELDS} } }`,
      variables: (r) => ({ input: settingsInput(r.params) }),
      respond: (data) => ok(restSettings(data.updateLanguageSettings)),
    },
  ]),
];
