// Polylang's REST integration on core/v2 (its translated-object REST fields): `lang` (the language
// slug) and `translations` (language slug → id, the object itself included) on
// posts, pages, categories and tags, accepted on create and update, and the `lang` filter on
// their lists. The content subgraph knows nothing of languages: the fields come from the
// extensions subgraph in the same query plan (register_rest_field, kit/rest-fields.ts), writes go
// to it once the object exists (checked first, so a refused language writes nothing), a new object
// without `lang` gets the default language as Polylang gives it, and a list's `lang` becomes the
// ids the extensions subgraph answers, handed to the list as `include` (totals stay the list's).
import type { DocumentNode } from "graphql";
import {
  CheckLanguageWriteDocument, ObjectsInLanguageDocument, SetCategoryLanguageFieldDocument, SetPageLanguageFieldDocument,
  SetPostLanguageFieldDocument, SetTagLanguageFieldDocument, TranslatedObjectsDocument, type TranslatableType,
} from "../../../../../generated/graphql/operations.ts";
import { LANGUAGE_SLUG_PATTERN } from "../../../../../lib/polylang/language-values.ts";
import type { RestRequest } from "../../route.ts";
import { registerRestField, registerRestFilter, type AnsweredNode, type OperationCall } from "../../kit/rest-fields.ts";

interface TranslatedType {
  /** The core/v2 object type (the resource's title). */
  title: string;
  objectType: TranslatableType;
  /** The GraphQL type whose reads also select the language. */
  graphType: string;
  /** The extensions subgraph's write for the type; it answers the fields read back. */
  write: DocumentNode;
}

const TYPES: TranslatedType[] = [
  { title: "post", objectType: "POST", graphType: "Post", write: SetPostLanguageFieldDocument },
  { title: "page", objectType: "PAGE", graphType: "Page", write: SetPageLanguageFieldDocument },
  { title: "category", objectType: "CATEGORY", graphType: "Category", write: SetCategoryLanguageFieldDocument },
  { title: "tag", objectType: "POST_TAG", graphType: "Tag", write: SetTagLanguageFieldDocument },
];

const SELECTION = "language { slug } translations { databaseId language { slug } }";

interface LanguageAnswer { language?: { slug: string } | null; translations?: { databaseId: number; language: { slug: string } }[] }

const answerOf = (node: AnsweredNode): LanguageAnswer => node as LanguageAnswer;

/**
 * `translations` as Polylang sends it: {slug: id}, the object itself included. An object without a
 * language (on a site that has none yet, before Polylang is set up) shows neither field.
 */
function translationsMap(node: AnsweredNode): Record<string, number> | undefined {
  const { language, translations = [] } = answerOf(node);
  return language ? Object.fromEntries(translations.map((t) => [t.language.slug, t.databaseId])) : undefined;
}

/** A sent `translations` object as the graph's pairs (values that are not ids are dropped, as Polylang drops them). */
function pairsOf(value: unknown): { language: string; databaseId: number }[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter((e): e is [string, number] => typeof e[1] === "number" && Number.isInteger(e[1]) && e[1] > 0)
    .map(([language, databaseId]) => ({ language, databaseId }));
}

const sent = (request: RestRequest, name: string) => request.sent.has(name) && request.params[name] !== undefined && request.params[name] !== null;
const isCreate = (request: RestRequest) => request.params.id === undefined;

/** One write of language and translations together, from whatever of the two the request sent. */
const languageVariables = (request: RestRequest) => ({
  language: sent(request, "lang") ? String(request.params.lang) : null,
  translations: sent(request, "translations") ? pairsOf(request.params.translations) : null,
});

for (const type of TYPES) {
  const check = (objectId: number | null, request: RestRequest): OperationCall => ({
    document: CheckLanguageWriteDocument, variables: { objectType: type.objectType, id: objectId, ...languageVariables(request) },
  });
  const write = (objectId: number, request: RestRequest): OperationCall => ({
    document: type.write, variables: { input: { databaseId: objectId, ...languageVariables(request) } },
  });
  /** `lang` writes both when it is due (sent, or any create); `translations` alone otherwise. */
  const langDue = (request: RestRequest) => sent(request, "lang") || isCreate(request);
  /** Both fields of many objects in one query (embedded lists). */
  const bulk = (ids: readonly number[]) => ({
    document: TranslatedObjectsDocument, variables: { objectType: type.objectType, ids: [...ids] },
    pick: (data: Record<string, unknown>) =>
      new Map((data as { translatedObjects: (LanguageAnswer & { databaseId: number })[] }).translatedObjects.map(({ databaseId, ...answer }) => [databaseId, { ...answer }])),
  });

  registerRestField(type.title, "lang", {
    schema: { description: "Language of the object (its code, e.g. fr).", type: "string", pattern: LANGUAGE_SLUG_PATTERN, context: ["view", "edit", "embed"] },
    selection: { graphType: type.graphType, fields: SELECTION },
    bulk,
    get: (node) => answerOf(node).language?.slug,
    check: (_value, objectId, request) => check(objectId, request),
    update: (_value, objectId, request) => write(objectId, request),
    // Polylang gives a new object without a language the default one.
    onCreate: true,
  });
  registerRestField(type.title, "translations", {
    schema: {
      description: "Translations of the object: language code → id of the object in that language.", type: "object",
      context: ["view", "edit", "embed"], additionalProperties: { type: "integer" },
    },
    selection: { graphType: type.graphType, fields: SELECTION },
    bulk,
    get: translationsMap,
    check: (_value, objectId, request) => (sent(request, "lang") ? null : check(objectId, request)),
    update: (_value, objectId, request) => (langDue(request) ? null : write(objectId, request)),
  });
  registerRestFilter(type.title, "lang", {
    arg: { description: "Limit result set to items in a language (its code, e.g. fr).", type: "string", pattern: LANGUAGE_SLUG_PATTERN },
    ids: (value) => ({
      document: ObjectsInLanguageDocument, variables: { objectType: type.objectType, language: String(value) },
      pick: (data) => (data as { objectsInLanguage: number[] }).objectsInLanguage,
    }),
  });
}
