// Languages across the graph: the extensions subgraph gives the content subgraph's posts, pages,
// menu items, categories and tags a `language` and `translations` (Polylang's model), and one
// GraphQL request fetches a list of posts with both, in one fetch per subgraph whatever the length.
import { parse } from "graphql";
import { QueryPlanner, type QueryPlan } from "@apollo/query-planner";
import { Supergraph, operationFromDocument } from "@apollo/federation-internals";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeSupergraph } from "../../router/compose.ts";
import { SUBGRAPH_SCHEMAS } from "../../subgraphs/schemas.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword } from "../helpers/users.ts";

let system: TestSystem;

type Errors = { message: string; extensions?: Record<string, any> }[] | undefined;

async function admin<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<{ data?: T; errors?: Errors }> {
  return system.graphql<T>(query, variables, { auth: "admin" });
}

async function ok<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await admin<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

const createPost = async (title: string): Promise<number> =>
  (await ok<{ createPost: { databaseId: number } }>(`mutation($input: PostInput!) { createPost(input: $input) { databaseId } }`, { input: { title, status: "PUBLISH" } })).createPost.databaseId;

const SET = `mutation($id: Int!, $language: String, $translations: [TranslationInput!]) {
  setPostLanguage(input: { databaseId: $id, language: $language, translations: $translations }) { databaseId title { rendered } language { slug } translations { databaseId language { slug } } }
}`;

const setPost = (id: number, language?: string, translations?: { language: string; databaseId: number }[]) =>
  admin<{ setPostLanguage: { databaseId: number; title: { rendered: string }; language: { slug: string } | null; translations: { databaseId: number; language: { slug: string } }[] } }>(
    SET, { id, language, translations });

const READ = `query($id: Int!) { posts(first: 1, where: { include: [$id] }) { nodes { databaseId language { slug } translations { databaseId language { slug } } } } }`;
type Read = { databaseId: number; language: { slug: string } | null; translations: { databaseId: number; language: { slug: string } }[] };
const read = async (id: number) => (await ok<{ posts: { nodes: Read[] } }>(READ, { id })).posts.nodes[0];
const group = async (id: number) => (await read(id)).translations.map((t) => `${t.language.slug}:${t.databaseId}`);

const LIST = `{ posts(first: 100) { nodes { databaseId language { slug } translations { databaseId language { slug } } } } }`;

let en: number;
let fr: number;

beforeAll(async () => {
  system = await startTestSystem();
  for (const locale of ["en_US", "fr_FR", "de_DE"]) await ok(`mutation($l: String!) { createLanguage(input: { locale: $l }) { termId } }`, { l: locale });
  [en, fr] = [await createPost("Hello"), await createPost("Bonjour")];
});
afterAll(async () => { await system?.stop(); });

describe("language and translations of posts", () => {
  it("a post gets a language, then a translation: both see the whole group in switcher order", async () => {
    expect((await read(en)).language).toBeNull();
    expect((await read(en)).translations).toEqual([]);
    const set = await setPost(en, "en");
    expect(set.errors).toBeUndefined();
    // The mutation answers the entity: its content fields come from the content subgraph.
    expect(set.data!.setPostLanguage).toMatchObject({ databaseId: en, title: { rendered: "Hello" }, language: { slug: "en" } });
    const linked = await setPost(fr, "fr", [{ language: "en", databaseId: en }]);
    expect(linked.errors).toBeUndefined();
    expect(await group(fr)).toEqual([`en:${en}`, `fr:${fr}`]);
    expect(await group(en)).toEqual([`en:${en}`, `fr:${fr}`]);
  });

  it("without a language, an object gets the default one; a known language it has is kept", async () => {
    const id = await createPost("Default");
    expect((await setPost(id)).data!.setPostLanguage.language).toEqual({ slug: "en" });
    await setPost(id, "de");
    expect((await setPost(id)).data!.setPostLanguage.language).toEqual({ slug: "de" });
  });

  it("refuses a second object of a language in a group, writing nothing", async () => {
    const other = await createPost("Autre");
    await setPost(other, "fr");
    const refused = await setPost(other, "fr", [{ language: "en", databaseId: en }]);
    expect(refused.errors?.[0].extensions?.code).toBe("pll_translation_conflict");
    expect(await group(en)).toEqual([`en:${en}`, `fr:${fr}`]);
    expect(await group(other)).toEqual([`fr:${other}`]);
    // Moving a member to a language its group already has is refused too.
    const moved = await setPost(en, "fr");
    expect(moved.errors?.[0].extensions?.code).toBe("pll_translation_conflict");
    expect((await read(en)).language).toEqual({ slug: "en" });
  });

  it("ignores translations whose object is not in the named language, as Polylang does", async () => {
    const de = await createPost("Hallo");
    await setPost(de, "de");
    const result = await setPost(de, "de", [{ language: "fr", databaseId: en }, { language: "xx", databaseId: fr }]);
    expect(result.errors).toBeUndefined();
    expect(await group(de)).toEqual([`de:${de}`]);
  });

  it("a translations map is the whole group: members left out leave it, a lone member has no group", async () => {
    const de = await createPost("Guten Tag");
    await setPost(de, "de", [{ language: "en", databaseId: en }, { language: "fr", databaseId: fr }]);
    expect(await group(en)).toEqual([`en:${en}`, `fr:${fr}`, `de:${de}`]);
    await setPost(de, "de", [{ language: "en", databaseId: en }]);
    expect(await group(fr)).toEqual([`fr:${fr}`]);
    expect(await group(en)).toEqual([`en:${en}`, `de:${de}`]);
    await setPost(de, "de", []);
    expect(await group(en)).toEqual([`en:${en}`]);
    await setPost(fr, "fr", [{ language: "en", databaseId: en }]);
  });

  it("refuses an unknown language and an anonymous writer", async () => {
    const unknown = await setPost(en, "xx");
    expect(unknown.errors?.[0].extensions?.code).toBe("pll_invalid_language");
    const anonymous = await system.graphql(SET, { id: en, language: "fr" });
    expect(anonymous.errors?.[0].extensions?.code).toBe("rest_cannot_edit");
    expect((await read(en)).language).toEqual({ slug: "en" });
  });

  it("categories and tags take languages too, each type with its own groups", async () => {
    const cat = async (name: string) => (await ok<{ createCategory: { databaseId: number } }>(`mutation($n: String!) { createCategory(input: { name: $n }) { databaseId } }`, { n: name })).createCategory.databaseId;
    const [a, b] = [await cat("News"), await cat("Nouvelles")];
    await ok(`mutation($a: Int!) { setCategoryLanguage(input: { databaseId: $a, language: "en" }) { databaseId } }`, { a });
    const linked = await ok<{ setCategoryLanguage: { translations: { databaseId: number; language: { slug: string } }[] } }>(
      `mutation($a: Int!, $b: Int!) { setCategoryLanguage(input: { databaseId: $b, language: "fr", translations: [{ language: "en", databaseId: $a }] }) { translations { databaseId language { slug } } } }`, { a, b });
    expect(linked.setCategoryLanguage.translations.map((t) => t.language.slug)).toEqual(["en", "fr"]);
    // A post with the category's id is another object: it has no language from it.
    const ids = await ok<{ objectsInLanguage: number[] }>(`{ objectsInLanguage(objectType: CATEGORY, language: "fr") }`);
    expect(ids.objectsInLanguage).toEqual([b]);
  });

  it("counts the objects of each language in term_props", async () => {
    const data = await ok<{ languageBySlug: { id: string; databaseId: number; termId: number; termProps: { taxonomy: string; count: number }[] } }>(
      `{ languageBySlug(slug: "fr") { id databaseId termId termProps { taxonomy count } } }`);
    const language = data.languageBySlug;
    expect(language.id).toBe(`language:${language.termId}`);
    expect(language.databaseId).toBe(language.termId);
    const fromDb = await system.db.prisma.languageAssignment.groupBy({ by: ["objectType"], where: { languageId: language.termId }, _count: { _all: true } });
    const posts = fromDb.filter((r) => !["CATEGORY", "POST_TAG"].includes(r.objectType)).reduce((n, r) => n + r._count._all, 0);
    expect(language.termProps).toEqual([{ taxonomy: "language", count: posts }, { taxonomy: "term_language", count: 1 }]);
    expect(posts).toBeGreaterThan(0);
  });

  it("deleting a language takes its objects out of it and out of their groups", async () => {
    const id = await createPost("Ciao");
    const it = (await ok<{ createLanguage: { termId: number } }>(`mutation { createLanguage(input: { locale: "it_IT" }) { termId } }`)).createLanguage.termId;
    await setPost(id, "it", [{ language: "en", databaseId: en }, { language: "fr", databaseId: fr }]);
    expect(await group(en)).toEqual([`en:${en}`, `fr:${fr}`, `it:${id}`]);
    await ok(`mutation($t: Int!) { deleteLanguage(termId: $t) { deleted } }`, { t: it });
    expect((await read(id)).language).toBeNull();
    expect(await group(en)).toEqual([`en:${en}`, `fr:${fr}`]);
  });
});

describe("menus per language (nav_menus)", () => {
  it("a location's menu in each language resolves to the content subgraph's menu in one request", async () => {
    const menu = async (name: string) => (await ok<{ createMenu: { databaseId: number } }>(`mutation($n: String!) { createMenu(input: { name: $n }) { databaseId } }`, { n: name })).createMenu.databaseId;
    const [main, principal] = [await menu("Main"), await menu("Principal")];
    const nav = [{ theme: "twentytwentyfour", locations: [{ location: "primary", menus: [{ language: "en", menuId: main }, { language: "fr", menuId: principal }] }] }];
    await ok(`mutation($nav: [NavMenuThemeInput!]) { updateLanguageSettings(input: { navMenus: $nav }) { defaultLang } }`, { nav });
    const data = await ok<{ languageSettings: { navMenus: { locations: { menus: { language: string; menu: { databaseId: number; name: string } | null }[] }[] }[] } }>(
      `{ languageSettings { navMenus { theme locations { location menus { language menuId menu { databaseId name } } } } } }`);
    expect(data.languageSettings.navMenus[0].locations[0].menus.map((m) => [m.language, m.menu?.name ?? null]))
      .toEqual([["en", "Main"], ["fr", "Principal"]]);
  });
});

describe("one request for a list of posts with their language and translations", () => {
  /** The subgraphs a plan fetches from, one entry per fetch, walking every kind of node. */
  const fetchesOf = (node: unknown, out: string[] = []): string[] => {
    if (!node || typeof node !== "object") return out;
    const n = node as { kind?: string; serviceName?: string } & Record<string, unknown>;
    if (n.kind === "Fetch" && n.serviceName) out.push(n.serviceName);
    for (const value of Object.values(n)) {
      if (Array.isArray(value)) value.forEach((v) => fetchesOf(v, out));
      else if (value && typeof value === "object" && "kind" in value) fetchesOf(value, out);
      else if (value && typeof value === "object" && "node" in value) fetchesOf((value as { node: unknown }).node, out);
    }
    return out;
  };

  it("the query plan has exactly one fetch to content and one to extensions", () => {
    const sdl = composeSupergraph(SUBGRAPH_SCHEMAS.map((g) => ({ ...g, url: `http://${g.name}.invalid/` })));
    const supergraph = Supergraph.build(sdl);
    const planner = new QueryPlanner(supergraph);
    const plan: QueryPlan = planner.buildQueryPlan(operationFromDocument(supergraph.schema, parse(LIST)));
    expect(fetchesOf(plan.node).sort()).toEqual(["content", "extensions"]);
  });

  it("answers every post with its language and group, in SQL statements and fetches that do not grow with the list", async () => {
    const measure = async () => {
      await ok(LIST); // the first read after writes reads the kept options and languages again
      const before = { sql: system.db.statements(), ...(await system.subgraphFetches()) };
      const data = await ok<{ posts: { nodes: { databaseId: number; language: { slug: string } | null; translations: { databaseId: number; language: { slug: string } }[] }[] } }>(LIST);
      const after = { sql: system.db.statements(), ...(await system.subgraphFetches()) };
      return { nodes: data.posts.nodes, sql: after.sql - before.sql, content: after.content - before.content, extensions: after.extensions - before.extensions };
    };
    const small = await measure();
    const byId = new Map(small.nodes.map((n) => [n.databaseId, n]));
    expect(byId.get(fr)).toEqual({ databaseId: fr, language: { slug: "fr" }, translations: [{ databaseId: en, language: { slug: "en" } }, { databaseId: fr, language: { slug: "fr" } }] });

    // 30 more posts, each in a language and half of them in groups.
    for (let i = 0; i < 15; i++) {
      const a = await createPost(`en ${i}`);
      const b = await createPost(`fr ${i}`);
      await setPost(a, "en");
      await setPost(b, "fr", [{ language: "en", databaseId: a }]);
    }
    const large = await measure();
    expect(large.nodes.length).toBe(small.nodes.length + 30);
    expect(large.nodes.filter((n) => n.translations.length === 2).length).toBeGreaterThanOrEqual(30);
    expect(large.sql).toBe(small.sql);
    expect(large.content).toBe(small.content);
    expect(large.extensions).toBe(small.extensions);
    expect(large.extensions).toBeLessThanOrEqual(1);
    console.log(`posts with language and translations: ${small.nodes.length} posts → ${small.sql} SQL statements; ${large.nodes.length} posts → ${large.sql}`);
  });
});

describe("who may set an object's language (the content subgraph decides, per object)", () => {
  it("a contributor cannot set the language of an admin's post, nor link it, but can set their own draft's", async () => {
    const contributor = await createUserWithPassword(system, "lang-contributor", ["contributor"]);
    const as = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) => system.graphql<T>(query, variables, { auth: contributor.auth });
    const before = { en: await read(en), fr: await read(fr) };
    expect(before.en.language).toEqual({ slug: "en" });

    const refused = await as(SET, { id: en, language: "de" });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: "rest_cannot_edit", status: 403 });
    expect(refused.errors?.[0].message).toBe("Sorry, you are not allowed to edit this post.");
    const dryRun = await as(`query($id: Int!) { checkLanguageWrite(objectType: POST, databaseId: $id, language: "de") }`, { id: en });
    expect(dryRun.errors?.[0].extensions?.code).toBe("rest_cannot_edit");

    const own = (await as<{ createPost: { databaseId: number; status: string } }>(
      `mutation { createPost(input: { title: "Mein Entwurf", status: DRAFT }) { databaseId status } }`)).data!.createPost;
    expect(own.status).toBe("DRAFT");
    // Linking the admin's post into the contributor's group would change the admin's post: refused.
    const linking = await as(SET, { id: own.databaseId, language: "de", translations: [{ language: "en", databaseId: en }] });
    expect(linking.errors?.[0].extensions).toMatchObject({ code: "rest_cannot_edit", status: 403 });
    const assignmentOf = (objectId: number) => system.db.prisma.languageAssignment.findUnique({ where: { objectType_objectId: { objectType: "POST", objectId } } });
    expect(await assignmentOf(own.databaseId)).toBeNull();
    expect(await read(en)).toEqual(before.en);
    expect(await read(fr)).toEqual(before.fr);

    const allowed = await as<{ setPostLanguage: { databaseId: number; language: { slug: string } } }>(SET, { id: own.databaseId, language: "de" });
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data!.setPostLanguage).toMatchObject({ databaseId: own.databaseId, language: { slug: "de" } });
    expect((await assignmentOf(own.databaseId))?.languageId).toBe((await system.db.prisma.language.findFirst({ where: { slug: "de" } }))!.termId);
  });
});
