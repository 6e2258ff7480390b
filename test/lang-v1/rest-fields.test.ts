// Polylang's REST fields on core/v2: `lang` and `translations` on posts, pages, categories and
// tags (read in the same request, written with the object as one logical write) and the `lang`
// filter on their lists, with WordPress's totals and paging headers.
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerRestField } from "../../router/rest/site/kit/rest-fields.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let system: TestSystem;

const rest = (method: string, path: string, body?: unknown) => system.request(method, `/wp-json${path}`, { auth: "admin", body });

async function createPost(body: Record<string, unknown>, base = "/core/v2/posts") {
  const response = await rest("POST", base, { status: "publish", ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: number; lang?: string; translations?: Record<string, number> };
}

const total = async (path: string) => Number((await rest("GET", path)).headers.get("x-wp-total"));

let en: number;
let fr: number;

beforeAll(async () => {
  system = await startTestSystem();
  // Before the site has languages (Polylang not set up), objects show neither field.
  const before = await rest("POST", "/core/v2/posts", { title: "Before languages", status: "draft" });
  expect(before.status).toBe(201);
  expect(Object.keys(before.body)).not.toContain("lang");
  expect(Object.keys(before.body)).not.toContain("translations");
  for (const locale of ["en_US", "fr_FR", "de_DE"]) expect((await rest("POST", "/lang/v1/languages", { locale })).status).toBe(200);
});
afterAll(async () => { await system?.stop(); });

describe("lang and translations on posts", () => {
  it("a new post without lang gets the default language; with lang, that one", async () => {
    const a = await createPost({ title: "Hello" });
    expect(a.lang).toBe("en");
    expect(a.translations).toEqual({ en: a.id });
    const b = await createPost({ title: "Bonjour", lang: "fr", translations: { en: a.id } });
    expect(b.lang).toBe("fr");
    expect(b.translations).toEqual({ en: a.id, fr: b.id });
    [en, fr] = [a.id, b.id];
    // Reads carry both fields, from the extensions subgraph, in every context.
    const read = await rest("GET", `/core/v2/posts/${en}`);
    expect(read.body).toMatchObject({ id: en, lang: "en", translations: { en, fr } });
    const embed = await rest("GET", `/core/v2/posts/${fr}?context=embed`);
    expect(embed.body).toMatchObject({ lang: "fr", translations: { en, fr } });
  });

  it("an update changes the language and the group", async () => {
    const de = await createPost({ title: "Hallo", lang: "de" });
    const linked = await rest("POST", `/core/v2/posts/${de.id}`, { translations: { en, fr } });
    expect(linked.status).toBe(200);
    expect(linked.body.translations).toEqual({ en, fr, de: de.id });
    const unlinked = await rest("PATCH", `/core/v2/posts/${de.id}`, { title: "Hallo!", translations: {} });
    expect(unlinked.body).toMatchObject({ title: { raw: "Hallo!" }, lang: "de", translations: { de: de.id } });
    // As in Polylang, the map is the whole group: the members it leaves out are unlinked too.
    expect((await rest("GET", `/core/v2/posts/${en}`)).body.translations).toEqual({ en });
    const relinked = await rest("PATCH", `/core/v2/posts/${fr}`, { translations: { en } });
    expect(relinked.body.translations).toEqual({ en, fr });
  });

  it("a refused language writes nothing: no post is created", async () => {
    const before = await total("/core/v2/posts?status=any&per_page=1");
    const unknown = await rest("POST", "/core/v2/posts", { title: "Nope", status: "publish", lang: "xx" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("pll_invalid_language");
    // A second French post in the group of en/fr.
    const clash = await rest("POST", "/core/v2/posts", { title: "Encore", status: "publish", lang: "fr", translations: { en } });
    expect(clash.status).toBe(400);
    expect(clash.body.code).toBe("pll_translation_conflict");
    const badPattern = await rest("POST", "/core/v2/posts", { title: "Nope", lang: "FR!" });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body.code).toBe("rest_invalid_param");
    expect(await total("/core/v2/posts?status=any&per_page=1")).toBe(before);
    // An update refused the same way leaves the post as it was.
    const refused = await rest("POST", `/core/v2/posts/${en}`, { title: "Changed", lang: "fr" });
    expect(refused.body.code).toBe("pll_translation_conflict");
    expect((await rest("GET", `/core/v2/posts/${en}?context=edit`)).body).toMatchObject({ title: { raw: "Hello" }, lang: "en" });
  });

  it("the schema and the create arguments show the fields", async () => {
    const options = await rest("OPTIONS", "/core/v2/posts");
    expect(options.body.schema.properties.lang).toMatchObject({ type: "string" });
    expect(options.body.schema.properties.translations).toMatchObject({ type: "object" });
    const create = options.body.endpoints.find((e: { methods: string[] }) => e.methods.includes("POST"));
    expect(Object.keys(create.args)).toEqual(expect.arrayContaining(["lang", "translations"]));
    const list = options.body.endpoints.find((e: { methods: string[] }) => e.methods.includes("GET"));
    expect(list.args.lang).toMatchObject({ type: "string" });
  });
});

describe("the lang filter on lists", () => {
  it("lists the posts of one language, with totals, pages and links of the filtered list", async () => {
    for (let i = 0; i < 3; i++) await createPost({ title: `Français ${i}`, lang: "fr" });
    const all = await rest("GET", "/core/v2/posts?lang=fr&per_page=100");
    expect(all.status).toBe(200);
    expect(all.body.length).toBe(4);
    expect(all.body.every((p: { lang: string }) => p.lang === "fr")).toBe(true);
    expect(all.headers.get("x-wp-total")).toBe("4");
    const page = await rest("GET", "/core/v2/posts?lang=fr&per_page=3&page=1");
    expect(page.body.length).toBe(3);
    expect(page.headers.get("x-wp-totalpages")).toBe("2");
    expect(page.headers.get("link")).toContain("lang=fr");
    const english = await rest("GET", "/core/v2/posts?lang=en");
    expect(english.body.map((p: { id: number }) => p.id)).toEqual([en]);
    // Another filter narrows further; a language with nothing lists nothing.
    const none = await rest("GET", `/core/v2/posts?lang=fr&include=${en}`);
    expect(none.body).toEqual([]);
    expect(none.headers.get("x-wp-total")).toBe("0");
    expect((await rest("GET", "/core/v2/posts?lang=de")).body.map((p: { lang: string }) => p.lang)).toEqual(["de"]);
    const unknown = await rest("GET", "/core/v2/posts?lang=xx");
    expect(unknown.status).toBe(400);
  });
});

describe("the default category (no_default_cat)", () => {
  it("each new language gets a translation of the default category, unless no_default_cat", async () => {
    const settings = await rest("GET", "/core/v2/settings");
    const defaultId = settings.body.default_category as number;
    const uncategorized = await rest("GET", `/core/v2/categories/${defaultId}`);
    // The first language (en) gave the default category its language; fr and de made translations.
    expect(uncategorized.body.lang).toBe("en");
    const group = uncategorized.body.translations as Record<string, number>;
    expect(Object.keys(group)).toEqual(["en", "fr", "de"]);
    const french = await rest("GET", `/core/v2/categories/${group.fr}`);
    expect(french.body).toMatchObject({ lang: "fr", slug: `${uncategorized.body.slug}-fr`, name: `${uncategorized.body.name} (Français)` });
    const languages = await rest("GET", "/lang/v1/languages");
    const fr = languages.body.find((l: { slug: string }) => l.slug === "fr");
    expect(fr.term_props.term_language.count).toBeGreaterThanOrEqual(1);

    const italian = await rest("POST", "/lang/v1/languages", { locale: "it_IT", no_default_cat: true });
    expect(italian.status).toBe(200);
    expect(italian.body.term_props.term_language.count).toBe(0);
    expect((await rest("GET", "/core/v2/categories?lang=it")).body).toEqual([]);
    const spanish = await rest("POST", "/lang/v1/languages", { locale: "es_ES" });
    expect(spanish.body.term_props.term_language.count).toBe(1);
    expect(Object.keys((await rest("GET", `/core/v2/categories/${defaultId}`)).body.translations)).toEqual(["en", "fr", "de", "es"]);
    for (const l of [italian, spanish]) expect((await rest("DELETE", `/lang/v1/languages/${l.body.term_id}`)).status).toBe(200);
  });
});

describe("pages, categories and tags", () => {
  it("categories and tags take lang and translations, and filter by lang", async () => {
    const news = await rest("POST", "/core/v2/categories", { name: "News" });
    expect(news.body.lang).toBe("en");
    const nouvelles = await rest("POST", "/core/v2/categories", { name: "Nouvelles", lang: "fr", translations: { en: news.body.id } });
    expect(nouvelles.status).toBe(201);
    expect(nouvelles.body.translations).toEqual({ en: news.body.id, fr: nouvelles.body.id });
    const list = await rest("GET", "/core/v2/categories?lang=fr&orderby=id");
    expect(list.body.map((c: { id: number }) => c.id)).toContain(nouvelles.body.id);
    expect(list.body.every((c: { lang: string }) => c.lang === "fr")).toBe(true);
    const tag = await rest("POST", "/core/v2/tags", { name: "étiquette", lang: "fr" });
    expect(tag.body.lang).toBe("fr");
    // Types keep their own groups: linking a post leaves the categories' group as it is.
    await createPost({ title: "Mixed", lang: "de", translations: { fr: nouvelles.body.id } });
    expect((await rest("GET", `/core/v2/categories/${news.body.id}`)).body.translations).toEqual({ en: news.body.id, fr: nouvelles.body.id });
  });

  it("batch creates run in order, each with its language", async () => {
    const batch = await rest("POST", "/batch/v1", {
      requests: [
        { path: "/core/v2/pages", body: { title: "One", status: "publish", lang: "en" } },
        { path: "/core/v2/pages", body: { title: "Deux", status: "publish", lang: "fr" } },
      ],
    });
    expect(batch.status).toBe(207);
    expect(batch.body.responses.map((r: { status: number }) => r.status)).toEqual([201, 201]);
    const [one, two] = batch.body.responses.map((r: { body: { id: number; lang: string } }) => r.body);
    expect([one.lang, two.lang]).toEqual(["en", "fr"]);
    expect(two.id).toBeGreaterThan(one.id);
  });

  it("a batch of 20 creates with languages costs the same few requests to each subgraph as a batch of 2", async () => {
    const run = async (n: number) => {
      const requests = Array.from({ length: n }, (_, i) => ({ path: "/core/v2/posts", body: { title: `Batch ${i}`, status: "publish", lang: i % 2 ? "fr" : "en" } }));
      const before = await system.subgraphFetches();
      const batch = await rest("POST", "/batch/v1", { requests });
      const after = await system.subgraphFetches();
      expect(batch.body.responses.map((r: { body: { lang: string } }) => r.body.lang)).toEqual(requests.map((r) => r.body.lang));
      const ids = batch.body.responses.map((r: { body: { id: number } }) => r.body.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      return { content: after.content - before.content, extensions: after.extensions - before.extensions };
    };
    const two = await run(2);
    const twenty = await run(20);
    expect(twenty).toEqual(two);
    // The checks, the creates (with their fields read from extensions), the language writes; plus the Allow probes.
    expect(twenty.extensions).toBeLessThanOrEqual(4);
  });

  it("a field write that fails after the object was created undoes the create", async () => {
    // A field whose check passes but whose write is refused (as a write racing another would be).
    const existing = await rest("POST", "/core/v2/pages", { title: "Existing", status: "publish" });
    expect(existing.status).toBe(201);
    registerRestField("page", "test_failing_field", {
      schema: { description: "Test field.", type: "string", context: ["edit"] },
      update: () => ({ document: parse(`mutation { setPageLanguage(input: { databaseId: ${existing.body.id}, language: "xx" }) { language { slug } } }`), variables: {} }),
    });
    const before = await total("/core/v2/pages?status=any&per_page=1");
    const response = await rest("POST", "/core/v2/pages", { title: "Half", status: "publish", test_failing_field: "x" });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("pll_invalid_language");
    expect(await total("/core/v2/pages?status=any&per_page=1")).toBe(before);
    const trashed = await rest("GET", "/core/v2/pages?status=trash");
    expect(trashed.body).toEqual([]);
  });
});
