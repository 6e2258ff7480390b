// `npm run seed`: a demo site and gateway data, so the explorers show something on first start.
// Everything goes through the subgraphs' domain functions as the site administrator, so it obeys
// the same rules as an API call (slugs, menus, languages, licence accounting). Idempotent: each
// thing is looked up by its slug, login, name or address first, and only what is missing is added.
import crypto from "node:crypto";
import type { Config } from "../lib/config.ts";
import type { Database } from "../lib/db.ts";
import type { Identity } from "../lib/identity.ts";
import { createContentContext, type ContentContext } from "../subgraphs/content/context.ts";
import { savePost } from "../subgraphs/content/posts/posts.ts";
import { saveTerm } from "../subgraphs/content/terms/terms.ts";
import { NAV_MENU, saveMenu } from "../subgraphs/content/menus/menus.ts";
import { saveMenuItem } from "../subgraphs/content/menus/menu-items.ts";
import { createUser } from "../subgraphs/content/users/user-accounts.ts";
import { createExtensionsContext } from "../subgraphs/extensions/context.ts";
import { createLanguage } from "../subgraphs/extensions/languages/languages.ts";
import { checkIngestBatch } from "../lib/gateway/ingest-record.ts";
import { storeMessages } from "../subgraphs/gateway/mail/ingest.ts";
import {
  AUTHORS, CATEGORIES, CATEGORY_PARAGRAPHS, FUNCTIONAL_MAILBOXES, LANGUAGES, MAIL_DOMAINS, MAIL_USERS, MENU_NAME, PAGES, POSTS, TAGS,
} from "./demo-data.ts";

/** How many of each thing this run added (all zero on a second run). */
export interface SeedReport { users: number; terms: number; posts: number; pages: number; menuItems: number; languages: number; accountedEmails: number }

const DAY_MS = 24 * 60 * 60 * 1000;
const paragraph = (text: string) => `<!-- wp:paragraph -->\n<p>${text}</p>\n<!-- /wp:paragraph -->`;
const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
/** WordPress's GMT date form, whole seconds. */
const gmt = (date: Date) => date.toISOString().slice(0, 19);

async function administrator(db: Database): Promise<Identity> {
  const admin = await db.prisma.user.findFirst({ where: { roles: { has: "administrator" } }, orderBy: { id: "asc" } });
  if (!admin) throw new Error("No site administrator: start the server once (or run prepareDatabase) before seeding");
  return { site: { userId: admin.id, roles: admin.roles } };
}

async function seedTerms(ctx: ContentContext, report: SeedReport): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const terms = [...CATEGORIES.map((c) => ({ taxonomy: "category", ...c })), ...TAGS.map((t) => ({ taxonomy: "post_tag", description: "", parent: undefined, ...t }))];
  for (const { taxonomy, slug, name, description, parent } of terms) {
    let term = await ctx.prisma.term.findFirst({ where: { taxonomy, slug } });
    if (!term) {
      term = await saveTerm(ctx, taxonomy, { name, slug, description, parent: parent ? ids.get(`category:${parent}`) : undefined });
      report.terms++;
    }
    ids.set(`${taxonomy}:${slug}`, term.id);
  }
  return ids;
}

async function seedPosts(ctx: ContentContext, authors: number[], terms: Map<string, number>, report: SeedReport): Promise<void> {
  const now = Date.now();
  for (const [i, post] of POSTS.entries()) {
    const slug = slugOf(post.title);
    if (await ctx.prisma.post.findFirst({ where: { type: "post", slug } })) continue;
    // Oldest first, two days apart, the last one yesterday.
    await savePost(ctx, "post", {
      title: post.title, slug, status: "publish", author: authors[i % authors.length],
      dateGmt: gmt(new Date(now - (POSTS.length - i) * 2 * DAY_MS)),
      excerpt: post.lede,
      content: [post.lede, ...CATEGORY_PARAGRAPHS[post.category]].map(paragraph).join("\n\n"),
      categories: [terms.get(`category:${post.category}`)!],
      tags: post.tags.map((t) => terms.get(`post_tag:${t}`)!),
    });
    report.posts++;
  }
}

async function seedPages(ctx: ContentContext, report: SeedReport): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [i, page] of PAGES.entries()) {
    let row = await ctx.prisma.post.findFirst({ where: { type: "page", slug: page.slug } });
    if (!row) {
      row = await savePost(ctx, "page", {
        title: page.title, slug: page.slug, status: "publish", content: paragraph(page.content), menuOrder: i,
        parent: page.parent ? ids.get(page.parent) : undefined,
      });
      report.pages++;
    }
    ids.set(page.slug, row.id);
  }
  return ids;
}

/** The main menu in the primary location; its items are added with it (the menu is the unit). */
async function seedMenu(ctx: ContentContext, pages: Map<string, number>, terms: Map<string, number>, report: SeedReport): Promise<void> {
  if (await ctx.prisma.term.findFirst({ where: { taxonomy: NAV_MENU, name: MENU_NAME } })) return;
  const menu = await saveMenu(ctx, { name: MENU_NAME, locations: ["primary"] });
  const item = async (menuOrder: number, input: Parameters<typeof saveMenuItem>[1]) => {
    report.menuItems++;
    return (await saveMenuItem(ctx, { status: "publish", menus: menu.id, menuOrder, ...input })).id;
  };
  await item(1, { type: "custom", title: "Home", url: `${ctx.config.siteUrl}/` });
  const about = await item(2, { type: "post_type", object: "page", objectId: pages.get("about") });
  await item(3, { type: "post_type", object: "page", objectId: pages.get("team"), parent: about });
  await item(4, { type: "taxonomy", object: "category", objectId: terms.get("category:guides") });
  await item(5, { type: "post_type", object: "page", objectId: pages.get("contact") });
}

/**
 * Gateway mail, through the one ingest path (seed 001 has no MTA here): deliveries to every demo
 * address over recent weeks, some spam and a phishing message held in quarantine (one with an
 * attachment), and an outbound spam run that restricts its sender. Messages, quarantine, licence
 * accounting and restricted senders all derive from it. The shared mailboxes are functional users
 * as a directory group import leaves them (they are accounted, never a licence). Ids are fixed, so
 * a second run stores nothing.
 */
async function seedGatewayMail(db: Database, report: SeedReport): Promise<void> {
  for (const domain of MAIL_DOMAINS) {
    for (const box of FUNCTIONAL_MAILBOXES) {
      await db.prisma.gatewayFunctionalUser.upsert({
        where: { email: `${box}@${domain}` }, update: {},
        create: { email: `${box}@${domain}`, groupName: `${box}-group`, connector: "ldap" },
      });
    }
  }
  const addresses = MAIL_DOMAINS.flatMap((domain) => [...MAIL_USERS, ...FUNCTIONAL_MAILBOXES].map((user) => `${user}@${domain}`));
  const now = Date.now();
  const nodes = [{ hostname: "esg1.example.com", nodeId: "3f1c2a4e-node-primary" }, { hostname: "esg2.example.com", nodeId: "9b7d5e21-node-worker" }];
  const records: Record<string, unknown>[] = [];
  const base = (id: string, at: number, n: number) => ({
    id, messageId: `<${id.toLowerCase()}@mail.example.net>`, receivedOn: new Date(at).toISOString(), sentOn: new Date(at - 40_000).toISOString(),
    senderIp: `198.51.100.${(n % 200) + 1}`, ...nodes[n % 2], size: 2_000 + (n * 7919) % 90_000, score: 0.1 + (n % 30) / 10,
    uris: [`https://news${n % 4}.example.net/article/${n}`],
    analysis: [{ engine: "antispam", result: "clean", detail: null }, { engine: "antivirus", result: "clean", detail: null }],
  });
  for (const [i, address] of addresses.entries()) {
    for (let d = 0; d <= i % 5; d++) {
      const n = i * 10 + d;
      records.push({
        ...base(`DEMO${String(i).padStart(2, "0")}D${d}`, now - (i % 20 + d * 3) * DAY_MS, n),
        sender: `newsletter${n % 4}@news.example.net`, headerFrom: `"Newsletter ${n % 4}" <newsletter${n % 4}@news.example.net>`,
        recipients: [address], direction: "inbound", subject: `Weekly digest #${n}`, result: "clean", deliveryResult: "delivered",
      });
    }
  }
  const held = (id: string, n: number, extra: Record<string, unknown>) => ({
    ...base(id, now - (n + 1) * 3_600_000, n), direction: "inbound", deliveryResult: "pending", quarantined: true, ...extra,
  });
  records.push(
    held("DEMOQ1", 1, { sender: "billing@invoices.example.org", headerFrom: "Billing <billing@invoices.example.org>", recipients: ["alice@example.com"], subject: "Your invoice", result: "phishing", score: 9.8, uris: ["http://login.invoices.example.org/verify"], analysis: [{ engine: "urlsand", result: "phishing", detail: "credential form" }], attachments: [{ name: "invoice.html", contentType: "text/html", content: Buffer.from("<form action=\"http://login.invoices.example.org\">").toString("base64") }] }),
    held("DEMOQ2", 2, { sender: "deals@cheap.example.org", headerFrom: "Deals <deals@cheap.example.org>", recipients: ["bob@corp.example"], subject: "You won!", result: "spam", score: 7.2, analysis: [{ engine: "antispam", result: "spam", detail: "bayes 0.99" }] }),
    held("DEMOQ3", 3, { sender: "", headerFrom: "Mail Delivery System <mailer-daemon@relay.example.org>", recipients: ["carol@partner.example"], subject: "Undelivered Mail Returned to Sender", result: "spam", score: 5.1 }),
  );
  for (let k = 0; k < 3; k++) {
    records.push({
      ...base(`DEMOOUT${k}`, now - (k + 1) * 1_800_000, 500 + k), direction: "outbound", sender: "frank@corp.example", headerFrom: "Frank <frank@corp.example>",
      recipients: [`lead${k}@prospects.example.org`], subject: "Cheap watches", result: "spam", score: 8.5, deliveryResult: "discarded",
    });
  }
  const before = await db.prisma.accountedEmail.count();
  const { records: good, rejected } = checkIngestBatch(records);
  if (rejected.length) throw new Error(`Demo mail refused: ${JSON.stringify(rejected[0].violations)}`);
  for (let i = 0; i < good.length; i += 200) await storeMessages({ db }, good.slice(i, i + 200));
  report.accountedEmails += (await db.prisma.accountedEmail.count()) - before;
}

/** Seeds the demo data into a prepared (migrated, installed) database. */
export async function seedDemo(db: Database, config: Config): Promise<SeedReport> {
  const report: SeedReport = { users: 0, terms: 0, posts: 0, pages: 0, menuItems: 0, languages: 0, accountedEmails: 0 };
  const identity = await administrator(db);
  const content = createContentContext(db, identity, config);

  const authors: number[] = [];
  for (const author of AUTHORS) {
    let user = await db.prisma.user.findUnique({ where: { login: author.username } });
    if (!user) {
      // Demo authors sign in only once someone gives them an application password.
      user = await createUser(content, { ...author, password: crypto.randomBytes(18).toString("base64url") });
      report.users++;
    }
    authors.push(user.id);
  }
  const terms = await seedTerms(content, report);
  await seedPosts(content, authors, terms, report);
  const pages = await seedPages(content, report);
  await seedMenu(content, pages, terms, report);

  const extensions = createExtensionsContext(db, identity, config);
  for (const language of LANGUAGES) {
    if (await db.prisma.language.findFirst({ where: { slug: language.slug } })) continue;
    await createLanguage(extensions, language);
    report.languages++;
  }
  await seedGatewayMail(db, report);
  return report;
}
