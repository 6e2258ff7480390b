// lang/v1: Polylang-compatible languages and language settings, through the supergraph (and
// the extensions subgraph directly, with a signed identity, for callers the router would sign).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIdentity, IDENTITY_HEADER, type Identity } from "../../lib/identity.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let system: TestSystem;

interface GraphQLResult<T> { data?: T; errors?: { message: string; path?: string[]; extensions?: Record<string, any> }[] }

const ADMIN: Identity = { site: { userId: 1, roles: ["administrator"] } };
const EDITOR: Identity = { site: { userId: 2, roles: ["editor"] } };

/** Asks the extensions subgraph directly, as the router would on behalf of `identity`. */
async function subgraph<T = Record<string, any>>(identity: Identity | null, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResult<T>> {
  const url = system.subgraphs.find((s) => s.name === "extensions")!.url;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (identity) headers[IDENTITY_HEADER] = await signIdentity(identity, system.config.secretKey);
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  return (await response.json()) as GraphQLResult<T>;
}

const admin = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) => subgraph<T>(ADMIN, query, variables);

type GraphQLError = NonNullable<GraphQLResult<unknown>["errors"]>[number];

/** An error's HTTP status: `extensions.status` from a subgraph, also `extensions.http.status` through the router. */
const statusOf = (error: GraphQLError): unknown => error.extensions?.status ?? error.extensions?.http?.status;

function expectError(error: GraphQLError | undefined, code: string, status: number, message?: string): void {
  expect(error, code).toBeDefined();
  expect(error!.extensions?.code, message ?? code).toBe(code);
  expect(statusOf(error!), code).toBe(status);
  if (message !== undefined) expect(error!.message).toBe(message);
}

const LANGUAGE = `termId name slug locale w3c facebook isRtl termGroup flagCode flagUrl flag customFlagUrl customFlag
  isDefault active fallbacks homeUrl searchUrl host pageOnFront pageForPosts termProps { taxonomy termId termTaxonomyId count }`;
const SETTINGS = `browser defaultLang domains { language url } firstActivation forceLang hideDefault mediaSupport
  navMenus { theme locations { location menus { language menuId } } } postTypes previousVersion redirectLang rewrite sync taxonomies version`;

const CREATE = `mutation($input: CreateLanguageInput!) { createLanguage(input: $input) { ${LANGUAGE} } }`;
const UPDATE = `mutation($termId: Int!, $input: UpdateLanguageInput!) { updateLanguage(termId: $termId, input: $input) { ${LANGUAGE} } }`;
const DELETE = `mutation($termId: Int!) { deleteLanguage(termId: $termId) { deleted previous { ${LANGUAGE} } } }`;
const SETTINGS_QUERY = `{ languageSettings { ${SETTINGS} } }`;
const UPDATE_SETTINGS = `mutation($input: LanguageSettingsInput!) { updateLanguageSettings(input: $input) { ${SETTINGS} } }`;

async function create(input: Record<string, unknown>) {
  const result = await admin<{ createLanguage: Record<string, any> }>(CREATE, { input });
  expect(result.errors).toBeUndefined();
  return result.data!.createLanguage;
}

async function removeAll() {
  const list = await subgraph<{ languages: { termId: number }[] }>(null, "{ languages { termId } }");
  for (const { termId } of list.data!.languages) await admin(DELETE, { termId });
}

beforeAll(async () => { system = await startTestSystem(); });
afterAll(async () => { await system?.stop(); });

describe("languages through GraphQL", () => {
  it("creates a language from its locale alone, with Polylang's derived fields; the first one becomes the default", async () => {
    await removeAll();
    const fr = await create({ locale: "fr_FR" });
    expect(fr).toMatchObject({
      name: "Français", slug: "fr", locale: "fr_FR", w3c: "fr-FR", facebook: "fr_FR", isRtl: false, termGroup: 0,
      flagCode: "fr", flagUrl: "http://example.test/wp-content/plugins/polylang/vendor/wpsyntex/flags/fr.svg",
      customFlagUrl: "", customFlag: "", isDefault: true, active: true, fallbacks: [],
      homeUrl: "http://example.test/", searchUrl: "http://example.test/", host: "", pageOnFront: 0, pageForPosts: 0,
    });
    expect(fr.flag).toBe('<img src="/wp-content/plugins/polylang/vendor/wpsyntex/flags/fr.svg" alt="Français" width="18" height="12" style="width: 18px; height: 12px;" />');
    expect(fr.termProps).toEqual([
      { taxonomy: "language", termId: fr.termId, termTaxonomyId: fr.termId, count: 0 },
      { taxonomy: "term_language", termId: fr.termId + 1, termTaxonomyId: fr.termId + 1, count: 0 },
    ]);

    const he = await create({ locale: "he_IL", termGroup: 2 });
    expect(he).toMatchObject({ name: "עברית", slug: "he", isRtl: true, flagCode: "il", isDefault: false, homeUrl: "http://example.test/he/" });
    // Ids come from one sequence shared with the term_language twins, as in WordPress's terms table.
    expect(he.termId).toBe(fr.termId + 2);

    const settings = await admin(SETTINGS_QUERY);
    expect(settings.data!.languageSettings.defaultLang).toBe("fr");
  });

  it("takes given fields over the locale table, and needs nothing from it when they are all given", async () => {
    const custom = await create({ locale: "xx_YY", name: "Klingon", slug: "tlh", isRtl: false, flagCode: "" });
    expect(custom).toMatchObject({ name: "Klingon", slug: "tlh", locale: "xx_YY", w3c: "xx-YY", facebook: "", flagUrl: "", flag: "" });
    const british = await create({ locale: "en_GB", slug: "en-gb" });
    expect(british).toMatchObject({ name: "English", slug: "en-gb", flagCode: "gb", facebook: "en_GB" });
  });

  it("reports every validation error at once, the first one as the error", async () => {
    const result = await admin(CREATE, { input: { locale: "not a locale", slug: "Bad Slug", name: "", flagCode: "zz" } });
    expect(result.data!.createLanguage).toBeNull();
    const [error] = result.errors!;
    expect(error.message).toBe("Enter a valid WordPress locale");
    expectError(error, "pll_invalid_locale", 400);
    expect(error.extensions!.additional).toEqual([
      { code: "pll_invalid_slug", message: "The language code contains invalid characters", status: 400 },
      { code: "pll_invalid_name", message: "The language must have a name", status: 400 },
      { code: "pll_invalid_flag", message: "The flag does not exist", status: 400 },
    ]);
  });

  it("refuses an unknown locale without name and slug, a duplicate slug, and a create that names an id", async () => {
    const unknown = await admin(CREATE, { input: { locale: "xx_ZZ" } });
    expectError(unknown.errors![0], "pll_invalid_slug", 400);
    expect(unknown.errors![0].extensions!.additional).toEqual([{ code: "pll_invalid_name", message: "The language must have a name", status: 400 }]);

    const duplicate = await admin(CREATE, { input: { locale: "fr_FR" } });
    expectError(duplicate.errors![0], "pll_non_unique_slug", 400, "The language code must be unique");

    const exists = await admin(CREATE, { input: { locale: "de_DE", termId: 5 } });
    expectError(exists.errors![0], "rest_exists", 400, "Cannot create existing language.");
    const list = await subgraph<{ languages: { slug: string }[] }>(null, "{ languages { slug } }");
    expect(list.data!.languages.map((l) => l.slug)).not.toContain("de");
  });

  it("reads by id and by slug, lists in switcher order, and answers 404 for unknown ones", async () => {
    const list = await system.graphql<{ languages: { slug: string; termGroup: number }[] }>("{ languages { slug termGroup } }");
    expect(list.data!.languages.map((l) => l.slug)).toEqual(["fr", "tlh", "en-gb", "he"]);

    const fr = list.data!.languages[0];
    const bySlug = await system.graphql<{ languageBySlug: { termId: number; name: string } }>('{ languageBySlug(slug: "fr") { termId name } }');
    expect(bySlug.data!.languageBySlug.name).toBe("Français");
    const byId = await system.graphql<{ language: { slug: string } }>("query($id: Int!) { language(termId: $id) { slug } }", { id: bySlug.data!.languageBySlug.termId });
    expect(byId.data!.language.slug).toBe(fr.slug);

    const missing = await system.graphql("{ language(termId: 9999) { slug } }");
    expectError(missing.errors![0], "rest_invalid_id", 404, "Invalid language ID");
    const zero = await system.graphql("{ language(termId: 0) { slug } }");
    expect(zero.errors![0].extensions).toMatchObject({ code: "rest_invalid_id" });
    const noSlug = await system.graphql('{ languageBySlug(slug: "zz") { slug } }');
    expectError(noSlug.errors![0], "rest_invalid_slug", 404, "Invalid language slug");
  });

  it("updates only what is sent; a slug rename carries default_lang and the domains entry along", async () => {
    const fr = (await subgraph<{ languageBySlug: { termId: number } }>(null, '{ languageBySlug(slug: "fr") { termId } }')).data!.languageBySlug;
    const set = await admin(UPDATE_SETTINGS, { input: { domains: [{ language: "fr", url: "https://fr.example.test" }] } });
    expect(set.errors).toBeUndefined();

    const renamed = await admin<{ updateLanguage: Record<string, any> }>(UPDATE, { termId: fr.termId, input: { slug: "fra", termGroup: 1 } });
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data!.updateLanguage).toMatchObject({ slug: "fra", name: "Français", locale: "fr_FR", termGroup: 1, isDefault: true });

    const settings = (await admin(SETTINGS_QUERY)).data!.languageSettings;
    expect(settings.defaultLang).toBe("fra");
    expect(settings.domains).toContainEqual({ language: "fra", url: "https://fr.example.test" });
    expect(settings.domains.map((d: { language: string }) => d.language)).not.toContain("fr");

    const clash = await admin(UPDATE, { termId: fr.termId, input: { slug: "he" } });
    expect(clash.errors![0].extensions).toMatchObject({ code: "pll_non_unique_slug" });
    const same = await admin(UPDATE, { termId: fr.termId, input: { slug: "fra", name: "French" } });
    expect(same.errors).toBeUndefined();
    const unknown = await admin(UPDATE, { termId: 9999, input: { name: "x" } });
    expectError(unknown.errors![0], "rest_invalid_id", 404, "Invalid language ID");
  });

  it("deletes a language, returning it as it was; deleting the default hands the default to the first remaining language", async () => {
    const before = (await subgraph<{ languages: { termId: number; slug: string; termGroup: number }[] }>(null, "{ languages { termId slug termGroup } }")).data!.languages;
    expect(before.map((l) => l.slug)).toEqual(["tlh", "en-gb", "fra", "he"]);
    const fra = before.find((l) => l.slug === "fra")!;

    const result = await admin<{ deleteLanguage: { deleted: boolean; previous: Record<string, any> } }>(DELETE, { termId: fra.termId });
    expect(result.errors).toBeUndefined();
    expect(result.data!.deleteLanguage.deleted).toBe(true);
    expect(result.data!.deleteLanguage.previous).toMatchObject({ termId: fra.termId, slug: "fra", name: "French", isDefault: true });

    const settings = (await admin(SETTINGS_QUERY)).data!.languageSettings;
    expect(settings.defaultLang).toBe("tlh");
    expect(settings.domains.map((d: { language: string }) => d.language)).not.toContain("fra");
    const tlh = await subgraph(null, '{ languageBySlug(slug: "tlh") { isDefault homeUrl } }');
    expect(tlh.data!.languageBySlug).toEqual({ isDefault: true, homeUrl: "http://example.test/" });

    const again = await admin(DELETE, { termId: fra.termId });
    expectError(again.errors![0], "rest_invalid_id", 404, "Invalid language ID");
  });

  it("leaves no default when the last language goes, and the next language created becomes it", async () => {
    await removeAll();
    expect((await admin(SETTINGS_QUERY)).data!.languageSettings.defaultLang).toBe("");
    const de = await create({ locale: "de_DE" });
    expect(de.isDefault).toBe(true);
  });
});

describe("language settings through GraphQL", () => {
  it("starts from Polylang's fresh-install defaults", async () => {
    const settings = (await admin(SETTINGS_QUERY)).data!.languageSettings;
    expect(settings).toMatchObject({
      browser: false, forceLang: 1, hideDefault: true, mediaSupport: false, navMenus: [], postTypes: [],
      previousVersion: "", redirectLang: false, rewrite: true, sync: [], taxonomies: [], version: "3.7.0",
    });
    expect(settings.firstActivation).toBeGreaterThan(1_600_000_000);
  });

  it("saves the valid keys even when default_lang names no language, and reports pll_invalid_language", async () => {
    const result = await admin(UPDATE_SETTINGS, { input: { defaultLang: "nope", rewrite: false, sync: ["taxonomies", "menu_order"] } });
    expect(result.data!.updateLanguageSettings).toBeNull();
    expectError(result.errors![0], "pll_invalid_language", 400, "The language slug 'nope' is not a valid language.");
    const settings = (await admin(SETTINGS_QUERY)).data!.languageSettings;
    expect(settings).toMatchObject({ defaultLang: "de", rewrite: false, sync: ["taxonomies", "menu_order"] });
    // Without rewrite, language URLs keep the /language/ segment.
    const es = await create({ locale: "es_ES" });
    expect(es.homeUrl).toBe("http://example.test/language/es/");
  });

  it("changes the default language, forces hide_default and browser off with one domain per language", async () => {
    const changed = await admin(UPDATE_SETTINGS, { input: { defaultLang: "es", rewrite: true } });
    expect(changed.errors).toBeUndefined();
    expect(changed.data!.updateLanguageSettings.defaultLang).toBe("es");
    const es = await subgraph(null, '{ languageBySlug(slug: "es") { isDefault } }');
    expect(es.data!.languageBySlug.isDefault).toBe(true);

    const health = system.url + "/health";
    const domains = await admin(UPDATE_SETTINGS, {
      input: { forceLang: 3, hideDefault: true, browser: true, domains: [{ language: "de", url: health }, { language: "es", url: health }] },
    });
    expect(domains.errors).toBeUndefined();
    expect(domains.data!.updateLanguageSettings).toMatchObject({ forceLang: 3, hideDefault: false, browser: false });
    const de = await subgraph(null, '{ languageBySlug(slug: "de") { homeUrl host } }');
    expect(de.data!.languageBySlug).toEqual({ homeUrl: `${health}/`, host: new URL(system.url).host });
  });

  it("stores domains it cannot reach or does not know, and warns about them", async () => {
    const result = await admin(UPDATE_SETTINGS, {
      input: { domains: [{ language: "de", url: "http://127.0.0.1:1/" }, { language: "xx", url: "https://xx.example.test" }, { language: "es", url: "" }] },
    });
    expectError(result.errors![0], "pll_unknown_domains_languages", 400);
    expect(result.errors![0].message).toBe("The language <code>xx</code> is unknown and has been discarded.");
    expect(result.errors![0].extensions!.additional.map((e: { code: string }) => e.code)).toEqual(["pll_empty_domains", "pll_invalid_domains"]);
    const settings = (await admin(SETTINGS_QUERY)).data!.languageSettings;
    expect(settings.domains).toEqual([{ language: "de", url: "http://127.0.0.1:1/" }, { language: "es", url: "" }]);
    // Back to directories for the rest of the file.
    expect((await admin(UPDATE_SETTINGS, { input: { forceLang: 1, hideDefault: true } })).errors).toBeUndefined();
  });

  it("keeps nav menus of known languages only, dropping empty menus", async () => {
    const result = await admin(UPDATE_SETTINGS, {
      input: { navMenus: [{ theme: "twentytwenty", locations: [{ location: "primary", menus: [{ language: "de", menuId: 3 }, { language: "es", menuId: 0 }, { language: "ko", menuId: 4 }] }] }] },
    });
    expect(result.errors![0].extensions).toMatchObject({ code: "pll_unknown_nav_menus_languages" });
    const settings = (await admin(SETTINGS_QUERY)).data!.languageSettings;
    expect(settings.navMenus).toEqual([{ theme: "twentytwenty", locations: [{ location: "primary", menus: [{ language: "de", menuId: 3 }] }] }]);
  });

  it("refuses values outside the option schema for that key only", async () => {
    const result = await admin(UPDATE_SETTINGS, { input: { forceLang: 7, sync: ["bogus"], mediaSupport: true, postTypes: ["post", "book"] } });
    expect(result.errors![0]).toMatchObject({ message: "force_lang is not one of 1, 2, and 3.", extensions: { code: "rest_not_in_enum" } });
    const settings = (await admin(SETTINGS_QUERY)).data!.languageSettings;
    // No custom post type is registered on this site, so none can be chosen for translation.
    expect(settings).toMatchObject({ forceLang: 1, mediaSupport: true, sync: ["taxonomies", "menu_order"], postTypes: [] });
  });
});

describe("language permissions", () => {
  it("lets anyone read languages in the view context, and only managers in the edit context", async () => {
    expect((await system.graphql("{ languages { slug } }")).errors).toBeUndefined();
    const anonymous = await system.graphql("{ languages(context: EDIT) { slug } }");
    expectError(anonymous.errors![0], "rest_forbidden_context", 401, "Sorry, you are not allowed to edit languages.");
    const editor = await subgraph(EDITOR, '{ languageBySlug(slug: "de", context: EDIT) { slug } }');
    expectError(editor.errors![0], "rest_forbidden_context", 403);
    expect((await admin('{ languageBySlug(slug: "de", context: EDIT) { slug } }')).errors).toBeUndefined();
  });

  it("answers 401 to anonymous writers and settings readers, 403 to signed-in users without manage_options", async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      [CREATE, { input: { locale: "it_IT" } }, "rest_cannot_create", "Sorry, you are not allowed to create a language."],
      [UPDATE, { termId: 1, input: { name: "x" } }, "rest_cannot_update", "Sorry, you are not allowed to edit this language."],
      [DELETE, { termId: 1 }, "rest_cannot_delete", "Sorry, you are not allowed to delete this language."],
      [SETTINGS_QUERY, {}, "rest_forbidden_context", "Sorry, you are not allowed to edit options."],
      [UPDATE_SETTINGS, { input: { rewrite: true } }, "rest_forbidden_context", "Sorry, you are not allowed to edit options."],
    ];
    for (const [query, variables, code, message] of cases) {
      const anonymous = await system.graphql(query, variables);
      expectError(anonymous.errors![0], code, 401, message);
      const editor = await subgraph(EDITOR, query, variables);
      expectError(editor.errors![0], code, 403, message);
    }
    const list = await system.graphql<{ languages: { slug: string }[] }>("{ languages { slug } }");
    expect(list.data!.languages.map((l) => l.slug)).not.toContain("it");
  });

  it("runs several mutations in one document, one failing without nulling the others", async () => {
    const result = await admin(`mutation {
      a: createLanguage(input: { locale: "it_IT" }) { slug }
      b: createLanguage(input: { locale: "it_IT" }) { slug }
      c: createLanguage(input: { locale: "nl_NL" }) { slug }
    }`);
    expect(result.data).toEqual({ a: { slug: "it" }, b: null, c: { slug: "nl" } });
    expect(result.errors!.map((e) => [e.path, e.extensions!.code])).toEqual([[["b"], "pll_non_unique_slug"]]);
  });
});

describe("concurrent language writes", () => {
  it("lets only one of several simultaneous creates take a slug, the others answering pll_non_unique_slug", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => admin(CREATE, { input: { locale: "fi" } })));
    expect(results.filter((r) => r.data?.createLanguage)).toHaveLength(1);
    for (const r of results.filter((r) => !r.data?.createLanguage)) expectError(r.errors![0], "pll_non_unique_slug", 400);
  });

  it("makes exactly one of two simultaneous first languages the default", async () => {
    await removeAll();
    const [a, b] = await Promise.all([admin(CREATE, { input: { locale: "da_DK" } }), admin(CREATE, { input: { locale: "cs_CZ" } })]);
    expect(a.errors ?? b.errors).toBeUndefined();
    const list = (await subgraph<{ languages: { slug: string; isDefault: boolean }[] }>(null, "{ languages { slug isDefault } }")).data!.languages;
    expect(list.filter((l) => l.isDefault)).toHaveLength(1);
    expect((await admin(SETTINGS_QUERY)).data!.languageSettings.defaultLang).toBe(list.find((l) => l.isDefault)!.slug);
  });
});

describe("language loading", () => {
  it("resolves any number of Language entities with the same number of statements", async () => {
    for (const locale of ["pl_PL", "sv_SE", "ja", "ru_RU", "pt_BR", "zh_CN", "ar", "ko_KR", "tr_TR", "hu_HU"]) await create({ locale });
    const ids = (await subgraph<{ languages: { termId: number }[] }>(null, "{ languages { termId } }")).data!.languages.map((l) => l.termId);
    expect(ids.length).toBeGreaterThanOrEqual(10);

    const entities = async (count: number) => {
      const representations = ids.slice(0, count).map((termId) => ({ __typename: "Language", termId }));
      const before = system.db.statements();
      const result = await subgraph<{ _entities: { slug: string; isDefault: boolean; homeUrl: string }[] }>(null,
        "query($r: [_Any!]!) { _entities(representations: $r) { ... on Language { slug isDefault homeUrl } } }", { r: representations });
      expect(result.errors).toBeUndefined();
      expect(result.data!._entities).toHaveLength(count);
      return system.db.statements() - before;
    };
    const two = await entities(2);
    const all = await entities(ids.length);
    expect(all).toBe(two);
    expect(two).toBeLessThanOrEqual(2);

    // Aliased reads through the supergraph coalesce the same way.
    const aliased = async (count: number) => {
      const fields = ids.slice(0, count).map((id, i) => `l${i}: language(termId: ${id}) { slug homeUrl }`).join("\n");
      const before = system.db.statements();
      const result = await system.graphql(`{ ${fields} }`);
      expect(result.errors).toBeUndefined();
      return system.db.statements() - before;
    };
    expect(await aliased(ids.length)).toBe(await aliased(2));
  });
});

// The same behaviour through the WordPress-style REST routes, on a fresh site.
describe("lang/v1 REST routes", () => {
  let site: TestSystem;
  const LANG = "/wp-json/lang/v1";
  const asAdmin = { auth: "admin" as const };

  beforeAll(async () => { site = await startTestSystem(); });
  afterAll(async () => { await site?.stop(); });

  it("creates a language with 200 and Polylang's JSON shape, key order included", async () => {
    const response = await site.request("POST", `${LANG}/languages`, { ...asAdmin, body: { locale: "fr_FR" } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual([
      "term_id", "name", "slug", "locale", "w3c", "facebook", "is_rtl", "term_group", "flag_code", "flag_url", "flag",
      "custom_flag_url", "custom_flag", "is_default", "active", "fallbacks", "home_url", "search_url", "host",
      "page_on_front", "page_for_posts", "term_props",
    ]);
    const id = response.body.term_id;
    expect(response.body).toMatchObject({
      name: "Français", slug: "fr", locale: "fr_FR", w3c: "fr-FR", facebook: "fr_FR", is_rtl: false, term_group: 0, flag_code: "fr",
      is_default: true, active: true, fallbacks: [], home_url: "http://example.test/", search_url: "http://example.test/", host: "",
      page_on_front: 0, page_for_posts: 0,
      // The first language gives the default category its language: one term in it (no_default_cat not set).
      term_props: { language: { term_id: id, term_taxonomy_id: id, count: 0 }, term_language: { term_id: id + 1, term_taxonomy_id: id + 1, count: 1 } },
    });
  });

  it("answers WordPress error bodies: schema errors first, then Polylang's, with additional_errors", async () => {
    const missing = await site.request("POST", `${LANG}/languages`, { ...asAdmin, body: { name: "X" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: "rest_missing_callback_param", message: "Missing parameter(s): locale", data: { status: 400, params: ["locale"] } });

    const empty = await site.request("POST", `${LANG}/languages`, { ...asAdmin, body: { locale: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("rest_invalid_param");
    expect(Object.keys(empty.body.data.params)).toEqual(["locale"]);

    const duplicate = await site.request("POST", `${LANG}/languages`, { ...asAdmin, body: { locale: "fr_FR" } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ code: "pll_non_unique_slug", message: "The language code must be unique", data: { status: 400 } });

    const several = await site.request("POST", `${LANG}/languages`, { ...asAdmin, body: { locale: "xx_YY", flag_code: "zz" } });
    expect(several.status).toBe(400);
    expect(several.body.code).toBe("pll_invalid_slug");
    expect(several.body.message).toBe("The language code contains invalid characters");
    expect(several.body.additional_errors.map((e: { code: string }) => e.code)).toEqual(["pll_invalid_name", "pll_invalid_flag"]);

    const existing = await site.request("POST", `${LANG}/languages`, { ...asAdmin, body: { locale: "de_DE", term_id: 3 } });
    expect(existing.status).toBe(400);
    expect(existing.body).toEqual({ code: "rest_exists", message: "Cannot create existing language.", data: { status: 400 } });

    const anonymous = await site.request("POST", `${LANG}/languages`, { body: { locale: "de_DE" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: "rest_cannot_create", message: "Sorry, you are not allowed to create a language.", data: { status: 401 } });
  });

  it("reads by id and by slug, 404 for unknown ones, and guards the edit context", async () => {
    const list = await site.request("GET", `${LANG}/languages`);
    expect(list.status).toBe(200);
    expect(list.body.map((l: { slug: string }) => l.slug)).toEqual(["fr"]);
    const id = list.body[0].term_id;

    expect((await site.request("GET", `${LANG}/languages/${id}`)).body.slug).toBe("fr");
    expect((await site.request("GET", `${LANG}/languages/fr`)).body.term_id).toBe(id);
    const edit = await site.request("GET", `${LANG}/languages/fr?context=edit`, asAdmin);
    expect(edit.status).toBe(200);

    const unknownId = await site.request("GET", `${LANG}/languages/9999`);
    expect(unknownId.status).toBe(404);
    expect(unknownId.body).toEqual({ code: "rest_invalid_id", message: "Invalid language ID", data: { status: 404 } });
    const unknownSlug = await site.request("GET", `${LANG}/languages/zz`);
    expect(unknownSlug.status).toBe(404);
    expect(unknownSlug.body).toEqual({ code: "rest_invalid_slug", message: "Invalid language slug", data: { status: 404 } });

    const forbidden = await site.request("GET", `${LANG}/languages?context=edit`);
    expect(forbidden.status).toBe(401);
    expect(forbidden.body).toEqual({ code: "rest_forbidden_context", message: "Sorry, you are not allowed to edit languages.", data: { status: 401 } });
    const badContext = await site.request("GET", `${LANG}/languages/${id}?context=embed`);
    expect(badContext.status).toBe(400);
    expect(badContext.body.code).toBe("rest_invalid_param");

    const noRoute = await site.request("DELETE", `${LANG}/languages`, asAdmin);
    expect(noRoute.status).toBe(404);
    expect(noRoute.body.code).toBe("rest_no_route");
  });

  it("creates two languages in one batch request", async () => {
    const response = await site.request("POST", "/wp-json/batch/v1", {
      ...asAdmin,
      body: { requests: [
        { path: "/lang/v1/languages", body: { locale: "de_DE" } },
        { method: "POST", path: "/lang/v1/languages", body: { locale: "es_ES", term_group: 1 } },
      ] },
    });
    expect(response.status).toBe(207);
    const [de, es] = response.body.responses;
    expect(de.status).toBe(200);
    expect(de.body).toMatchObject({ slug: "de", name: "Deutsch", is_default: false });
    expect(es.status).toBe(200);
    expect(es.body).toMatchObject({ slug: "es", name: "Español", term_group: 1 });

    const mixed = await site.request("POST", "/wp-json/batch/v1", {
      ...asAdmin,
      body: { requests: [
        { path: "/lang/v1/languages", body: { locale: "de_DE" } },
        { path: "/lang/v1/languages", body: { locale: "it_IT" } },
      ] },
    });
    expect(mixed.status).toBe(207);
    expect(mixed.body.responses[0]).toMatchObject({ status: 400, body: { code: "pll_non_unique_slug", data: { status: 400 } } });
    expect(mixed.body.responses[1]).toMatchObject({ status: 200, body: { slug: "it" } });
  });

  it("updates a language; renaming the default's slug moves default_lang", async () => {
    const fr = (await site.request("GET", `${LANG}/languages/fr`)).body;
    const renamed = await site.request("PUT", `${LANG}/languages/${fr.term_id}`, { ...asAdmin, body: { slug: "fra", name: "French" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ term_id: fr.term_id, slug: "fra", name: "French", locale: "fr_FR", is_default: true });
    expect((await site.request("GET", `${LANG}/settings`, asAdmin)).body.default_lang).toBe("fra");

    const anonymous = await site.request("PATCH", `${LANG}/languages/${fr.term_id}`, { body: { name: "x" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("rest_cannot_update");
    const unknown = await site.request("PATCH", `${LANG}/languages/9999`, { ...asAdmin, body: { name: "x" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("rest_invalid_id");
  });

  it("deletes a language with {deleted, previous} and hands the default on", async () => {
    const fra = (await site.request("GET", `${LANG}/languages/fra`)).body;
    const response = await site.request("DELETE", `${LANG}/languages/${fra.term_id}`, asAdmin);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["deleted", "previous"]);
    expect(response.body.deleted).toBe(true);
    expect(response.body.previous).toMatchObject({ term_id: fra.term_id, slug: "fra", is_default: true });
    // First remaining in switcher order: de (term_group 0) before es (term_group 1).
    expect((await site.request("GET", `${LANG}/settings`, asAdmin)).body.default_lang).toBe("de");
    const again = await site.request("DELETE", `${LANG}/languages/${fra.term_id}`, asAdmin);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("rest_invalid_id");
  });

  it("reads and updates the settings, saving valid keys when default_lang is refused", async () => {
    const anonymous = await site.request("GET", `${LANG}/settings`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: "rest_forbidden_context", message: "Sorry, you are not allowed to edit options.", data: { status: 401 } });

    const settings = await site.request("GET", `${LANG}/settings`, asAdmin);
    expect(settings.status).toBe(200);
    expect(Object.keys(settings.body)).toEqual([
      "browser", "default_lang", "domains", "first_activation", "force_lang", "hide_default", "media_support", "nav_menus",
      "post_types", "previous_version", "redirect_lang", "rewrite", "sync", "taxonomies", "version",
    ]);
    expect(settings.body).toMatchObject({ browser: false, domains: [], force_lang: 1, hide_default: true, nav_menus: [], rewrite: true, version: "3.7.0" });

    const refused = await site.request("POST", `${LANG}/settings`, { ...asAdmin, body: { default_lang: "nope", rewrite: false, nav_menus: { theme: { primary: { de: 4 } } } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: "pll_invalid_language", message: "The language slug 'nope' is not a valid language.", data: { status: 400 } });
    const saved = (await site.request("GET", `${LANG}/settings`, asAdmin)).body;
    expect(saved).toMatchObject({ default_lang: "de", rewrite: false, nav_menus: { theme: { primary: { de: 4 } } } });

    const invalid = await site.request("PATCH", `${LANG}/settings`, { ...asAdmin, body: { force_lang: "test", rewrite: true } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("rest_invalid_param");
    expect((await site.request("GET", `${LANG}/settings`, asAdmin)).body.rewrite).toBe(false);

    const updated = await site.request("PUT", `${LANG}/settings`, { ...asAdmin, body: { default_lang: "es", rewrite: true, sync: ["taxonomies"] } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ default_lang: "es", rewrite: true, sync: ["taxonomies"] });
    expect((await site.request("GET", `${LANG}/languages/es`)).body.is_default).toBe(true);
  });

  it("lists lang/v1 in the index with allow_batch on every endpoint", async () => {
    const index = await site.request("GET", "/wp-json/lang/v1");
    expect(index.status).toBe(200);
    const routes = index.body.routes as Record<string, { methods: string[]; endpoints: { allow_batch?: unknown }[] }>;
    expect(Object.keys(routes)).toEqual([
      "/lang/v1", "/lang/v1/languages", "/lang/v1/languages/(?P<term_id>[\\d]+)", "/lang/v1/languages/(?P<slug>[a-z][a-z0-9_-]*)", "/lang/v1/settings",
    ]);
    for (const [pattern, entry] of Object.entries(routes)) {
      if (pattern === "/lang/v1") continue;
      for (const endpoint of entry.endpoints) expect(endpoint.allow_batch, pattern).toEqual({ v1: true });
    }
    expect(routes["/lang/v1/languages"].endpoints[1]).toMatchObject({ methods: ["POST"], args: { locale: { required: true }, no_default_cat: { default: false } } });
  });
});
