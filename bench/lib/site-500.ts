// The site the bench loads: 500 published posts by 5 authors, 10 categories and 30 tags, 25 images
// as featured media (so _embed has authors, terms and media to embed), as in the side-by-side
// run. Written once through the content subgraph's own domain functions (savePost, saveTerm,
// createUser, createMedia: the rules of an API call) into a PGlite data directory kept under
// node_modules/.cache; every run works on a fresh copy, so its writes never leak into the next run.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { loadConfig } from "../../lib/config.ts";
import { prepareDatabase } from "../../router/system.ts";
import { createContentContext } from "../../subgraphs/content/context.ts";
import { createMedia } from "../../subgraphs/content/media/attachments.ts";
import { savePost } from "../../subgraphs/content/posts/posts.ts";
import { saveTerm } from "../../subgraphs/content/terms/terms.ts";
import { createUser } from "../../subgraphs/content/users/user-accounts.ts";
import { root } from "./stack-process.ts";

/** Bump when what is seeded changes, so an old cache (ours and WordPress's) is not reused. */
export const SITE_VERSION = 2;
export const SITE = { posts: 500, authors: 5, categories: 10, tags: 30, images: 25 };
export const ADMIN_PASSWORD = "bench bench bench bench bench bench";
const CACHE = path.join(root, "node_modules/.cache/esg-bench", `site-500-v${SITE_VERSION}`);

const WORDS = ("mail gateway filter sender domain policy quarantine report message header scanner spam phishing " +
  "attachment release licence address signature key record relay server cluster node queue delivery bounce " +
  "archive rule verdict score engine update version network customer partner team support guide setup").split(" ");

/** Deterministic text, so every cache build holds the same site. */
function words(random: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
}

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);
const paragraph = (text: string) => `<!-- wp:paragraph -->\n<p>${text}</p>\n<!-- /wp:paragraph -->`;

/** A photo-sized JPEG (big enough for every intermediate size WordPress generates). */
async function image(n: number): Promise<Buffer> {
  const hue = (n * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000"><defs><linearGradient id="g"><stop offset="0" stop-color="hsl(${hue},60%,40%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},60%,70%)"/></linearGradient></defs><rect width="1600" height="1000" fill="url(#g)"/><circle cx="${400 + n * 30}" cy="500" r="260" fill="hsl(${(hue + 180) % 360},50%,50%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** The site as plain data, so our seed and WordPress's (bench/lib/wordpress-seed.php) write the same posts. */
export interface SiteData {
  authors: { login: string; name: string; email: string; role: string; description: string }[];
  categories: { name: string; description: string }[];
  tags: { name: string }[];
  images: { filename: string; title: string; alt: string; caption: string }[];
  /** author, category, tags and image are indexes into the lists above. */
  posts: { title: string; content: string; excerpt: string; dateGmt: string; author: number; category: number; tags: number[]; image: number }[];
}

export function siteData(): SiteData {
  const random = mulberry32(500);
  const authors = Array.from({ length: SITE.authors }, (_, i) => ({
    login: `author${i + 1}`, name: `Author ${i + 1}`, email: `author${i + 1}@example.com`, role: i === 0 ? "editor" : "author", description: capital(words(random, 12)),
  }));
  const categories = Array.from({ length: SITE.categories }, (_, i) => ({ name: `Category ${i + 1} ${capital(words(random, 1))}`, description: capital(words(random, 10)) }));
  const tags = Array.from({ length: SITE.tags }, (_, i) => ({ name: `tag-${i + 1}-${words(random, 1)}` }));
  const images = Array.from({ length: SITE.images }, (_, i) => ({ filename: `photo-${i + 1}.jpg`, title: `Photo ${i + 1}`, alt: capital(words(random, 5)), caption: capital(words(random, 8)) }));
  // Newest last, an hour apart, ending at a fixed instant so every build holds the same dates.
  const end = Date.UTC(2026, 10, 1);
  const posts = Array.from({ length: SITE.posts }, (_, i) => ({
    title: `${capital(words(random, 5))} ${i + 1}`,
    content: Array.from({ length: 5 }, () => paragraph(`${capital(words(random, 60))}.`)).join("\n\n"),
    excerpt: `${capital(words(random, 25))}.`,
    dateGmt: new Date(end - (SITE.posts - i) * 3_600_000).toISOString().slice(0, 19),
    author: i % SITE.authors, category: i % SITE.categories, tags: [0, 1, 2].map((k) => (i * 3 + k) % SITE.tags), image: i % SITE.images,
  }));
  return { authors, categories, tags, images, posts };
}

/** The images' bytes, in siteData().images' order. */
export const imageBytes = (n: number) => image(n + 1);

async function seed(dataDir: string): Promise<void> {
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_APP_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: "silent" });
  const db = await prepareDatabase(config);
  try {
    const admin = await db.prisma.user.findFirstOrThrow({ where: { login: "admin" } });
    const ctx = createContentContext(db, { site: { userId: admin.id, roles: admin.roles } }, config);
    const site = siteData();
    const authors: number[] = [];
    for (const a of site.authors) {
      const user = await createUser(ctx, { username: a.login, name: a.name, email: a.email, roles: [a.role], description: a.description, password: crypto.randomBytes(18).toString("base64url") });
      authors.push(user.id);
    }
    const categories: number[] = [];
    for (const c of site.categories) categories.push((await saveTerm(ctx, "category", c)).id);
    const tags: number[] = [];
    for (const t of site.tags) tags.push((await saveTerm(ctx, "post_tag", t)).id);
    const images: number[] = [];
    for (const [i, m] of site.images.entries()) {
      const file = { base64: (await imageBytes(i)).toString("base64"), filename: m.filename, contentType: "image/jpeg" };
      images.push((await createMedia(ctx, file, { title: m.title, altText: m.alt, caption: m.caption })).id);
    }
    for (const p of site.posts) {
      await savePost(ctx, "post", {
        title: p.title, status: "publish", author: authors[p.author], dateGmt: p.dateGmt, content: p.content, excerpt: p.excerpt,
        categories: [categories[p.category]], tags: p.tags.map((t) => tags[t]), featuredMedia: images[p.image],
      });
    }
  } finally {
    await db.close();
  }
}

/**
 * A fresh data directory holding the seeded site (seeding once into the cache on the first run).
 * The caller removes it. PGlite belongs to one process: nothing may have the cache open.
 */
export async function freshSite(log: (line: string) => void): Promise<string> {
  if (!fs.existsSync(CACHE)) {
    const began = performance.now();
    log(`Seeding the bench site (${SITE.posts} posts, ${SITE.images} images) into ${path.relative(root, CACHE)} (first run only)…`);
    const building = `${CACHE}.building-${process.pid}`;
    fs.rmSync(building, { recursive: true, force: true });
    await seed(building);
    fs.mkdirSync(path.dirname(CACHE), { recursive: true });
    fs.renameSync(building, CACHE);
    log(`  seeded in ${((performance.now() - began) / 1000).toFixed(0)} s`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-site-"));
  fs.cpSync(CACHE, dir, { recursive: true });
  return dir;
}
