// lang/v1/languages (Polylang's pll/v1 under a neutral name). Argument schemas are Polylang's item
// schema as rest_get_endpoint_args_for_schema turns it into args (readonly fields dropped,
// `required`/`default` on create only, each with WordPress's rest_validate_request_arg); the
// patterns are the ones the extensions subgraph checks (lib/polylang). Each endpoint is one typed
// operation of languages.graphql; every one may be batched.
import {
  CreateLanguageDocument, DeleteLanguageDocument, LanguagePermissionsDocument, ListLanguagesDocument, ReadLanguageBySlugDocument,
  ReadLanguageDocument, UpdateLanguageDocument, type CreateLanguageMutation, type LanguageFieldsFragment, type LanguageReadContext,
} from "../../../../../generated/graphql/operations.ts";
import { fromGraphQLError } from "../../errors.ts";
import { translateDefaultCategory } from "./default-category.ts";
import { LANGUAGE_CONTEXTS, LANGUAGE_SLUG_PATTERN, LOCALE_PATTERN } from "../../../../../lib/polylang/language-values.ts";
import { route, type ArgSchema, type LocalEndpoint, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { validatedBySchema } from "../../validation.ts";
import type { Args } from "../../kit/args.ts";
import { inputOf, op, opEndpoint, type EndpointOptions, type Op } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import { itemSchema, present, writeArgs, type Context, type Resource } from "../../kit/resource.ts";

type LanguageNode = LanguageFieldsFragment;

/** Polylang gives every language field the view and edit contexts. */
const CONTEXTS: Context[] = [...LANGUAGE_CONTEXTS];
const field = (description: string, type: ArgSchema["type"], extra: Partial<ArgSchema> = {}): ArgSchema => ({ description, type, context: CONTEXTS, ...extra });
const readonly = (description: string, type: ArgSchema["type"], extra: Partial<ArgSchema> = {}): ArgSchema => field(description, type, { readonly: true, ...extra });

/** A language in Polylang's schema and key order. */
export const LANGUAGE: Resource<LanguageNode> = {
  title: "language",
  fields: {
    term_id: { schema: readonly("Unique identifier for the language.", "integer"), read: (l) => l.termId },
    name: { schema: field("The name is how it is displayed on your site (for example: English).", "string", { minLength: 1 }), read: (l) => l.name, input: "name" },
    slug: { schema: field("Language code - preferably 2-letters ISO 639-1 (for example: en).", "string", { pattern: LANGUAGE_SLUG_PATTERN }), read: (l) => l.slug, input: "slug" },
    locale: {
      schema: field("WordPress Locale for the language (for example: en_US).", "string", { pattern: LOCALE_PATTERN }), read: (l) => l.locale, input: "locale",
      requiredOnCreate: true,
    },
    w3c: { schema: readonly("W3C locale.", "string"), read: (l) => l.w3c },
    facebook: { schema: readonly("Facebook locale.", "string"), read: (l) => l.facebook },
    is_rtl: { schema: field("Text direction. `true` for right-to-left.", "boolean"), read: (l) => l.isRtl, input: "isRtl" },
    term_group: { schema: field("Position of the language in the language switcher.", "integer"), read: (l) => l.termGroup, input: "termGroup" },
    flag_code: {
      schema: field("Flag code corresponding to ISO 3166-1 (for example: us for the United States flag).", "string"), read: (l) => l.flagCode, input: "flagCode",
    },
    flag_url: { schema: readonly("Flag URL.", "string", { format: "uri" }), read: (l) => l.flagUrl },
    flag: { schema: readonly("HTML tag for the flag.", "string"), read: (l) => l.flag },
    custom_flag_url: { schema: readonly("Custom flag URL.", "string"), read: (l) => l.customFlagUrl },
    custom_flag: { schema: readonly("HTML tag for the custom flag.", "string"), read: (l) => l.customFlag },
    is_default: { schema: readonly("Tells whether the language is the default one.", "boolean"), read: (l) => l.isDefault },
    active: { schema: readonly("Tells whether the language is active.", "boolean"), read: (l) => l.active },
    fallbacks: { schema: readonly("List of language locale fallbacks.", "array", { items: { type: "string" } }), read: (l) => l.fallbacks },
    home_url: { schema: readonly("Home URL in this language.", "string", { format: "uri" }), read: (l) => l.homeUrl },
    search_url: { schema: readonly("Search URL in this language.", "string", { format: "uri" }), read: (l) => l.searchUrl },
    host: { schema: readonly("Host for this language.", "string"), read: (l) => l.host },
    page_on_front: { schema: readonly("Identifier of the page on front in this language.", "integer"), read: (l) => l.pageOnFront },
    page_for_posts: { schema: readonly("Identifier of the page for posts in this language.", "integer"), read: (l) => l.pageForPosts },
    term_props: {
      schema: readonly("Language properties of the language's terms, by taxonomy.", "object"),
      read: (l) => Object.fromEntries(l.termProps.map((p) => [p.taxonomy, { term_id: p.termId, term_taxonomy_id: p.termTaxonomyId, count: p.count }])),
    },
    no_default_cat: {
      schema: { description: "Tells whether the default category must be created when creating a new language.", type: "boolean", context: ["edit"] },
      input: "noDefaultCat", createOnly: true, createDefault: false,
    },
  },
};

/** Every argument is checked against its own schema in the validate phase (Polylang's validate callbacks). */
export const schemaArgs = (args: Args): Args => Object.fromEntries(Object.entries(args).map(([name, schema]) => [name, validatedBySchema(schema)]));

/** The request's `context` (any param of that name, registered or not, as `$request['context']`). */
const contextOf = (r: RestRequest): string => (r.params.context === undefined || r.params.context === null ? "view" : String(r.params.context));
const readContext = (r: RestRequest): LanguageReadContext => (contextOf(r) === "edit" ? "EDIT" : "VIEW");

/**
 * A language as Polylang answers it: get_fields_for_response drops fields outside the context,
 * which here is all of them or none (and an emptied PHP array is encoded as []).
 */
const body = (l: LanguageNode, r: RestRequest): unknown => {
  const shaped = present(LANGUAGE, l, { context: contextOf(r) as Context, urls: r.urls });
  return Object.keys(shaped).length > 0 ? shaped : [];
};

/** Any value in term_id makes a create refused; GraphQL only needs to know one was sent. */
function presentId(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  const n = Number(value);
  return Number.isInteger(n) && Math.abs(n) <= 2 ** 31 - 1 ? n : 0;
}

/** Managing languages is Polylang's manage_languages (manage_options): the extensions subgraph answers. */
export const canManage = allowedBy(LanguagePermissionsDocument, (d) => d.languagesViewerCan.manage);

/** A lang/v1 endpoint: batchable, and answering 200 with the body (Polylang answers a create with 200, not 201). */
export const langEndpoint = <Out>(e: EndpointOptions, operation: Op<Out>, respond: (out: Out, r: RestRequest) => unknown) =>
  opEndpoint({ ...e, allowBatch: true }, operation, (out, r): RestResult => ({ status: 200, body: respond(out, r) }));

const contextArg: ArgSchema = validatedBySchema({
  description: "Scope under which the request is made; determines fields present in response.", type: "string", enum: CONTEXTS, default: "view",
});
const termIdArg: ArgSchema = { description: "Unique identifier for the language.", type: "integer" };
const slugArg: ArgSchema = { description: LANGUAGE.fields.slug.schema.description, type: "string" };
const termId = (r: RestRequest) => r.params.term_id as number;
const languageInput = inputOf(LANGUAGE);
const schema = itemSchema(LANGUAGE);

/**
 * POST /languages: the language (one operation of the extensions subgraph), then, unless
 * `no_default_cat`, the default category's translation in it (default-category.ts), read back so
 * term_props counts it.
 */
const createLanguageEndpoint: LocalEndpoint = {
  methods: ["POST"], args: schemaArgs(writeArgs(LANGUAGE, "create")), allowed: canManage, allowBatch: true,
  handle: async (request, context, site) => {
    const input = { ...languageInput(request), locale: String(request.params.locale), termId: presentId(request.params.term_id) };
    const created = await site.execute(CreateLanguageDocument, { input }, context);
    if (created.errors?.length) return fromGraphQLError(created.errors[0]);
    let language = (created.data as CreateLanguageMutation | null)?.createLanguage;
    if (!language) return fromGraphQLError({ message: "The operation returned no result.", extensions: { code: "rest_internal_error", status: 500 } });
    if (request.params.no_default_cat !== true && await translateDefaultCategory(site, context, language)) {
      language = (await site.query(ReadLanguageDocument, { termId: language.termId, context: "EDIT" }, context))?.language ?? language;
    }
    return { status: 200, body: body(language, request) };
  },
};

export const languageRoutes: SiteRoute[] = [
  route("lang/v1", "/languages", [
    langEndpoint({ methods: ["GET"], args: {} }, op(ListLanguagesDocument, (r) => ({ context: readContext(r) }), (d) => d.languages),
      (languages, r) => languages.map((l) => body(l, r))),
    createLanguageEndpoint,
  ], schema),
  route("lang/v1", "/languages/(?P<term_id>[\\d]+)", [
    langEndpoint({ methods: ["GET"], args: { term_id: termIdArg, context: contextArg } },
      op(ReadLanguageDocument, (r) => ({ termId: termId(r), context: readContext(r) }), (d) => d.language!), body),
    langEndpoint({ methods: ["POST", "PUT", "PATCH"], args: { term_id: termIdArg, ...schemaArgs(writeArgs(LANGUAGE, "update")) }, allowed: canManage },
      op(UpdateLanguageDocument, (r) => ({ termId: termId(r), input: languageInput(r) }), (d) => d.updateLanguage!), body),
    langEndpoint({ methods: ["DELETE"], args: { term_id: termIdArg }, allowed: canManage },
      op(DeleteLanguageDocument, (r) => ({ termId: termId(r) }), (d) => d.deleteLanguage!),
      ({ deleted, previous }, r) => ({ deleted, previous: body(previous, r) })),
  ], schema),
  // The slug route matches what a slug may be.
  route("lang/v1", `/languages/(?P<slug>${LANGUAGE_SLUG_PATTERN.slice(1, -1)})`, [
    langEndpoint({ methods: ["GET"], args: { slug: slugArg, context: contextArg } },
      op(ReadLanguageBySlugDocument, (r) => ({ slug: String(r.params.slug), context: readContext(r) }), (d) => d.languageBySlug!), body),
  ], schema),
];
