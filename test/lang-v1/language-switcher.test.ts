// Polylang's language switcher menu items: a menu item whose `_lang_menu_item` options are set
// answers `languageSwitcher` with one link per language (PLL_Frontend_Nav_Menu's split), an
// ordinary item answers null.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let system: TestSystem;
const SITE = "http://example.test";

type Errors = { message: string; extensions?: Record<string, any> }[] | undefined;
async function ok<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await system.graphql<T>(query, variables, { auth: "admin" }) as { data?: T; errors?: Errors };
  expect(result.errors).toBeUndefined();
  return result.data!;
}

type Link = { name: string | null; slug: string; locale: string; flagUrl: string | null; flag: string | null; url: string; current: boolean; noTranslation: boolean; classes: string[]; language: { slug: string } };
const LINK = `name slug locale flagUrl flag url current noTranslation classes language { slug }`;

const createPost = async (title: string, language: string): Promise<number> => {
  const id = (await ok<{ createPost: { databaseId: number } }>(`mutation($input: PostInput!) { createPost(input: $input) { databaseId } }`, { input: { title, status: "PUBLISH" } })).createPost.databaseId;
  await ok(`mutation($id: Int!, $l: String) { setPostLanguage(input: { databaseId: $id, language: $l }) { databaseId } }`, { id, l: language });
  return id;
};

const createItem = async (flags: Record<string, boolean> | null): Promise<number> =>
  (await ok<{ createMenuItem: { databaseId: number } }>(`mutation($input: MenuItemInput!) { createMenuItem(input: $input) { databaseId } }`, {
    input: { title: flags ? "Languages" : "Home", url: flags ? "#pll_switcher" : `${SITE}/`, status: "PUBLISH",
      ...(flags ? { meta: { langMenuItem: Object.entries(flags).map(([name, value]) => ({ name, value })) } } : {}) },
  })).createMenuItem.databaseId;

const switcher = async (id: number, currentUrl?: string): Promise<Link[] | null> =>
  (await ok<{ menuItem: { languageSwitcher: Link[] | null } }>(
    `query($id: ID!, $u: String) { menuItem(id: $id, idType: DATABASE_ID) { languageSwitcher(currentUrl: $u) { ${LINK} } } }`, { id: String(id), u: currentUrl })).menuItem.languageSwitcher;

let enPost: number;
let frPost: number;
let namesAndFlags: number;

beforeAll(async () => {
  system = await startTestSystem();
  for (const locale of ["en_US", "fr_FR", "de_DE", "es_ES"]) await ok(`mutation($l: String!) { createLanguage(input: { locale: $l }) { termId } }`, { l: locale });
  enPost = await createPost("Hello", "en");
  frPost = await createPost("Bonjour", "fr");
  await createPost("Hallo", "de");
  // es has no content: hide_if_empty (always on for menu switchers) leaves it out.
  namesAndFlags = await createItem({ hide_if_no_translation: false, hide_current: false, force_home: false, show_flags: true, show_names: true, dropdown: false });
}, 120_000);
afterAll(async () => { await system?.stop(); });

describe("languageSwitcher on menu items", () => {
  it("a switcher returns one link per language with content, in order, the default language current", async () => {
    const links = (await switcher(namesAndFlags))!;
    expect(links.map((l) => l.slug)).toEqual(["en", "fr", "de"]);
    expect(links[0]).toMatchObject({
      name: "English", locale: "en_US", language: { slug: "en" }, current: true, noTranslation: false,
      // Default settings: directory URLs, the default language's home is the bare address (hide_default).
      url: `${SITE}/`, classes: expect.arrayContaining(["lang-item", "lang-item-en", "current-lang"]),
    });
    expect(links[0].flagUrl).toMatch(/^http:\/\/example\.test\/wp-content\/plugins\/polylang\/.*\/us\.svg$/);
    expect(links[0].flag).toContain("<img");
    expect(links[1]).toMatchObject({ name: "Français", url: `${SITE}/fr/`, current: false, noTranslation: false });
    expect(links[1].classes).not.toContain("current-lang");
  });

  it("an ordinary menu item answers null", async () => {
    expect(await switcher(await createItem(null))).toBeNull();
  });

  it("hide_current drops the current language, which the current URL decides", async () => {
    const item = await createItem({ hide_current: true, show_names: true });
    expect((await switcher(item))!.map((l) => l.slug)).toEqual(["fr", "de"]);
    expect((await switcher(item, `${SITE}/fr/some-page/`))!.map((l) => l.slug)).toEqual(["en", "de"]);
    expect((await switcher(item, `${SITE}/de/`))!.map((l) => l.slug)).toEqual(["en", "fr"]);
  });

  it("show_names off with flags leaves the names out; names are shown when neither is asked", async () => {
    const flagsOnly = (await switcher(await createItem({ show_flags: true, show_names: false })))!;
    expect(flagsOnly.map((l) => l.name)).toEqual([null, null, null]);
    expect(flagsOnly.every((l) => l.flagUrl !== null)).toBe(true);
    const neither = (await switcher(await createItem({ show_flags: false, show_names: false })))!;
    expect(neither.map((l) => [l.name, l.flagUrl, l.flag])).toEqual([["English", null, null], ["Français", null, null], ["Deutsch", null, null]]);
  });

  it("on a post, the links lead to its translations; hide_if_no_translation drops the languages it lacks", async () => {
    await ok(`mutation($id: Int!, $t: [TranslationInput!]) { setPostLanguage(input: { databaseId: $id, language: "en", translations: $t }) { databaseId } }`,
      { id: enPost, t: [{ language: "en", databaseId: enPost }, { language: "fr", databaseId: frPost }] });
    const link = async (id: number) => (await ok<{ post: { link: string } }>(`query($id: ID!) { post(id: $id, idType: DATABASE_ID) { link } }`, { id: String(id) })).post.link;
    const [enLink, frLink] = [await link(enPost), await link(frPost)];
    const onPost = (await switcher(namesAndFlags, `${SITE}/?p=${frPost}`))!;
    expect(onPost.map((l) => [l.slug, l.url, l.current, l.noTranslation])).toEqual([
      ["en", enLink, false, false],
      ["fr", frLink, true, false],
      ["de", `${SITE}/de/`, false, true],
    ]);
    // The post's pretty permalink names it as well as ?p= does (the content subgraph's nodeByUri).
    expect(frLink).not.toContain("?p=");
    expect((await switcher(namesAndFlags, frLink))!.map((l) => [l.slug, l.url, l.current])).toEqual([
      ["en", enLink, false], ["fr", frLink, true], ["de", `${SITE}/de/`, false],
    ]);
    expect(onPost[2].classes).toContain("no-translation");
    const hiding = await createItem({ hide_if_no_translation: true, show_names: true });
    expect((await switcher(hiding, `${SITE}/?p=${frPost}`))!.map((l) => l.slug)).toEqual(["en", "fr"]);
    const home = await createItem({ force_home: true, show_names: true });
    expect((await switcher(home, `${SITE}/?p=${frPost}`))!.map((l) => l.url)).toEqual([`${SITE}/`, `${SITE}/fr/`, `${SITE}/de/`]);
  });

  it("the home URLs follow the URL settings (hide_default, rewrite)", async () => {
    await ok(`mutation { updateLanguageSettings(input: { hideDefault: false, rewrite: false }) { hideDefault } }`);
    expect((await switcher(namesAndFlags))!.map((l) => l.url)).toEqual([`${SITE}/language/en/`, `${SITE}/language/fr/`, `${SITE}/language/de/`]);
    await ok(`mutation { updateLanguageSettings(input: { hideDefault: true, rewrite: true }) { hideDefault } }`);
  });

  it("a list of items is answered in SQL statements and subgraph fetches that do not grow with the list", async () => {
    const measure = async () => {
      const before = { sql: system.db.statements(), ...(await system.subgraphFetches()) };
      const data = await ok<{ menuItems: { nodes: { databaseId: number; languageSwitcher: { slug: string }[] | null }[] } }>(
        `{ menuItems(first: 100) { nodes { databaseId languageSwitcher(currentUrl: "${SITE}/fr/") { slug } } } }`);
      const after = { sql: system.db.statements(), ...(await system.subgraphFetches()) };
      return { nodes: data.menuItems.nodes, sql: after.sql - before.sql, content: after.content - before.content, extensions: after.extensions - before.extensions };
    };
    await measure(); // the first read after the settings writes above reads the kept languages again
    const small = await measure();
    expect(small.nodes.find((n) => n.databaseId === namesAndFlags)!.languageSwitcher!.map((l) => l.slug)).toEqual(["en", "fr", "de"]);
    for (let i = 0; i < 10; i++) await createItem(i % 2 ? null : { hide_current: true, show_names: true });
    const large = await measure();
    expect(large.nodes.length).toBe(small.nodes.length + 10);
    const switchers = large.nodes.filter((n) => n.languageSwitcher !== null);
    expect(switchers.length).toBe(small.nodes.filter((n) => n.languageSwitcher !== null).length + 5);
    expect(switchers.filter((n) => n.languageSwitcher!.map((l) => l.slug).join() === "en,de").length).toBeGreaterThanOrEqual(5);
    expect(large.sql).toBe(small.sql);
    expect(large.content).toBe(small.content);
    expect(large.extensions).toBe(small.extensions);
    console.log(`menu items with languageSwitcher: ${small.nodes.length} items → ${small.sql} SQL statements; ${large.nodes.length} items → ${large.sql}`);
  });
});
