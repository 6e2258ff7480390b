// lang/v1/settings: Polylang's options, readable and writable by those who may manage languages.
// The schema is Polylang's options schema in registration order (the arguments' order); the
// allowed values are the ones the extensions subgraph checks (lib/polylang). One typed operation
// of settings.graphql per endpoint; both may be batched.
import {
  ReadLanguageSettingsDocument, UpdateLanguageSettingsDocument, type LanguageSettingsFieldsFragment,
} from "../../../../../generated/graphql/operations.ts";
import { FORCE_LANG_VALUES, LANGUAGE_SLUG_PATTERN, SYNC_OPTIONS } from "../../../../../lib/polylang/language-values.ts";
import { route, type ArgSchema, type RestRequest, type SiteRoute } from "../../route.ts";
import { inputOf, op } from "../../kit/crud.ts";
import { itemSchema, present, writeArgs, type Resource } from "../../kit/resource.ts";
import { canManage, langEndpoint, schemaArgs } from "./languages.ts";

type Settings = LanguageSettingsFieldsFragment;

const flag = (description: string): ArgSchema => ({ description, type: "boolean" });
const list = (description: string, items: ArgSchema = { type: "string" }): ArgSchema => ({ description, type: "array", items });
/** `{slug: value}` with slugs checked (domains, and the innermost level of nav_menus). */
const bySlug = (value: ArgSchema): Pick<ArgSchema, "patternProperties" | "additionalProperties"> =>
  ({ patternProperties: { [LANGUAGE_SLUG_PATTERN]: value }, additionalProperties: false });

/** An empty map is a PHP empty array, encoded as []. */
const phpMap = (entries: [string, unknown][]): unknown => (entries.length > 0 ? Object.fromEntries(entries) : []);

const entriesOf = <T>(value: unknown): [string, T][] => (value && typeof value === "object" ? Object.entries(value as Record<string, T>) : []);

export const LANGUAGE_SETTINGS: Resource<Settings> = {
  title: "settings",
  fields: {
    browser: { schema: flag("Detect preferred browser language on front page: `true` to detect, `false` to not detect."), read: (s) => s.browser, input: "browser" },
    rewrite: { schema: flag("Remove /language/ in pretty permalinks: `true` to remove, `false` to keep."), read: (s) => s.rewrite, input: "rewrite" },
    hide_default: {
      schema: flag("Remove the language code in URL for the default language: `true` to hide, `false` to display."), read: (s) => s.hideDefault, input: "hideDefault",
    },
    force_lang: {
      schema: {
        description: "Determine how the current language is defined: 1 by the directory name in pretty permalinks, 2 by the subdomain name, 3 by different domains.",
        type: "integer", enum: FORCE_LANG_VALUES,
      },
      read: (s) => s.forceLang, input: "forceLang",
    },
    redirect_lang: {
      schema: flag("Remove the page name or page id from the URL of the front page: `true` to remove, `false` to keep."), read: (s) => s.redirectLang, input: "redirectLang",
    },
    media_support: { schema: flag("Translate media: `true` to translate, `false` otherwise."), read: (s) => s.mediaSupport, input: "mediaSupport" },
    sync: { schema: list("List of data to synchronize.", { type: "string", enum: SYNC_OPTIONS }), read: (s) => s.sync, input: "sync" },
    post_types: { schema: list("List of post types to translate."), read: (s) => s.postTypes, input: "postTypes" },
    taxonomies: { schema: list("List of taxonomies to translate."), read: (s) => s.taxonomies, input: "taxonomies" },
    domains: {
      schema: { description: "Domains used when the language is set from different domains.", type: "object", ...bySlug({ type: "string", format: "uri" }) },
      read: (s) => phpMap(s.domains.map((d) => [d.language, d.url])),
      input: ["domains", (v) => entriesOf<unknown>(v).map(([language, url]) => ({ language, url: String(url ?? "") }))],
    },
    default_lang: { schema: { description: "Slug of the default language.", type: "string", pattern: LANGUAGE_SLUG_PATTERN }, read: (s) => s.defaultLang, input: "defaultLang" },
    nav_menus: {
      schema: {
        description: "Translated navigation menus for each theme.", type: "object",
        patternProperties: {
          '[^\\/:<>\\*\\?"\\|]+': { type: "object", patternProperties: { "[\\w-]+": { type: "object", ...bySlug({ type: "integer", minimum: 0 }) } }, additionalProperties: false },
        },
        additionalProperties: false,
      },
      read: (s) => phpMap(s.navMenus.map((t) => [
        t.theme, phpMap(t.locations.map((l) => [l.location, phpMap(l.menus.map((m) => [m.language, m.menuId]))])),
      ])),
      input: ["navMenus", (v) => entriesOf<unknown>(v).map(([theme, locations]) => ({
        theme,
        locations: entriesOf<unknown>(locations).map(([location, menus]) => ({
          location, menus: entriesOf<number>(menus).map(([language, menuId]) => ({ language, menuId })),
        })),
      }))],
    },
    first_activation: { schema: { description: "Time of the first activation of Polylang.", type: "integer", readonly: true }, read: (s) => s.firstActivation },
    previous_version: { schema: { description: "Previous version of Polylang.", type: "string", readonly: true }, read: (s) => s.previousVersion },
    version: { schema: { description: "Polylang version.", type: "string", readonly: true }, read: (s) => s.version },
  },
};

/** Polylang keeps its options sorted by key (ksort on save), so they answer in that order. */
const body = (s: Settings, r: RestRequest) =>
  Object.fromEntries(Object.entries(present(LANGUAGE_SETTINGS, s, { context: "edit", urls: r.urls })).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const settingsInput = inputOf(LANGUAGE_SETTINGS);

export const languageSettingsRoutes: SiteRoute[] = [
  route("lang/v1", "/settings", [
    langEndpoint({ methods: ["GET"], args: {}, allowed: canManage }, op(ReadLanguageSettingsDocument, () => ({}), (d) => d.languageSettings!), body),
    langEndpoint({ methods: ["POST", "PUT", "PATCH"], args: schemaArgs(writeArgs(LANGUAGE_SETTINGS, "update")), allowed: canManage },
      op(UpdateLanguageSettingsDocument, (r) => ({ input: settingsInput(r) }), (d) => d.updateLanguageSettings!), body),
  ], itemSchema(LANGUAGE_SETTINGS)),
];
