// `npm run seed` on an in-memory database: the demo site and gateway data arrive through the
// domain functions, and a second run adds nothing.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../lib/config.ts";
import type { Database } from "../lib/db.ts";
import { prepareDatabase } from "../router/system.ts";
import { seedDemo, type SeedReport } from "../seed/seed.ts";
import { createContentContext } from "../subgraphs/content/context.ts";
import { menuLocations } from "../subgraphs/content/menus/menus.ts";
import { ANONYMOUS } from "../lib/identity.ts";

const config = loadConfig({ LOG_LEVEL: "silent" }, { databaseUrl: "memory:", secretKey: crypto.randomBytes(32), siteUrl: "http://example.test" });
let db: Database;
let first: SeedReport;

async function counts() {
  const { prisma } = db;
  return {
    users: await prisma.user.count(),
    posts: await prisma.post.count({ where: { type: "post", status: "publish" } }),
    pages: await prisma.post.count({ where: { type: "page" } }),
    menuItems: await prisma.post.count({ where: { type: "nav_menu_item" } }),
    terms: await prisma.term.count(),
    languages: await prisma.language.count(),
    accountedEmails: await prisma.accountedEmail.count(),
  };
}

beforeAll(async () => {
  db = await prepareDatabase(config);
  first = await seedDemo(db, config);
});

afterAll(async () => { await db?.close(); });

describe("seedDemo", () => {
  it("adds authors, about twenty posts with content, pages, a menu, two languages and accounted emails", () => {
    expect(first).toEqual({ users: 3, terms: 12, posts: 20, pages: 3, menuItems: 5, languages: 2, accountedEmails: 33 });
  });

  it("writes posts with authors, a category, tags and Gutenberg content", async () => {
    const post = await db.prisma.post.findFirstOrThrow({ where: { type: "post", slug: "dmarc-in-monitoring-mode-first" }, include: { author: true, terms: { include: { term: true } } } });
    expect(post.status).toBe("publish");
    expect(post.content).toContain("<!-- wp:paragraph -->");
    expect(post.author?.login).toBe("tom");
    expect(post.terms.map((t) => t.term.slug).sort()).toEqual(["dkim", "dmarc", "guides", "spf"]);
    const authors = await db.prisma.post.groupBy({ by: ["authorId"], where: { type: "post", slug: { not: "hello-world" } } });
    expect(authors).toHaveLength(3);
  });

  it("nests the team page under about and the phishing category under security", async () => {
    const about = await db.prisma.post.findFirstOrThrow({ where: { type: "page", slug: "about" } });
    const team = await db.prisma.post.findFirstOrThrow({ where: { type: "page", slug: "team" } });
    expect(team.parentId).toBe(about.id);
    const security = await db.prisma.term.findFirstOrThrow({ where: { taxonomy: "category", slug: "security" } });
    expect((await db.prisma.term.findFirstOrThrow({ where: { taxonomy: "category", slug: "phishing" } })).parentId).toBe(security.id);
  });

  it("assigns the main menu, with its items, to the primary location", async () => {
    const menu = await db.prisma.term.findFirstOrThrow({ where: { taxonomy: "nav_menu", name: "Main menu" } });
    expect(await menuLocations(createContentContext(db, ANONYMOUS, config), menu.id)).toEqual(["primary"]);
    const items = await db.prisma.post.findMany({ where: { type: "nav_menu_item", terms: { some: { termId: menu.id } } } });
    expect(items.map((i) => i.menuOrder).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("adds English (the default) and French, and accounts functional mailboxes apart", async () => {
    expect((await db.prisma.language.findMany({ orderBy: { termId: "asc" } })).map((l) => l.locale)).toEqual(["en_US", "fr_FR"]);
    expect((await db.prisma.languageSettings.findFirstOrThrow()).defaultLang).toBe("en");
    const info = await db.prisma.accountedEmail.findUniqueOrThrow({ where: { address: "info@example.com" } });
    expect(info).toMatchObject({ type: "functional", accounted: false });
    expect(await db.prisma.accountedEmail.count({ where: { type: "functional", accounted: true } })).toBe(0);
    expect(await db.prisma.accountedEmail.count({ where: { accounted: true } })).toBeGreaterThan(0);
    expect(await db.prisma.accountedEmail.count({ where: { deliveryCount: { gt: 1 } } })).toBeGreaterThan(0);
  });

  it("adds nothing when run again", async () => {
    const before = await counts();
    const again = await seedDemo(db, config);
    expect(Object.values(again).every((n) => n === 0)).toBe(true);
    expect(await counts()).toEqual(before);
  });
});
