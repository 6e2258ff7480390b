// First start: the database gets what a fresh WordPress site has — the administrator (with an
// application password), the "Uncategorized" category, the "Hello world!" post, a published
// "Sample Page" and a draft "Privacy Policy" page. Runs once: nothing happens if users exist.
import type { Config } from "../../lib/config.ts";
import type { Database } from "../../lib/db.ts";
import { generateAppPassword, hashAppPassword } from "./users/users.ts";
import { DEFAULT_OPTIONS } from "./site/site.ts";

const HELLO_WORLD = "<!-- wp:paragraph -->\n<p>Welcome to WordPress. This is your first post. Edit or delete it, then start writing!</p>\n<!-- /wp:paragraph -->";
const SAMPLE_PAGE = "<!-- wp:paragraph -->\n<p>This is an example page. It's different from a blog post because it will stay in one place and will show up in your site navigation (in most themes). Most people start with an About page that introduces them to potential site visitors.</p>\n<!-- /wp:paragraph -->";
const PRIVACY_POLICY = "<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">Who we are</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>Our website address is: SITE.</p>\n<!-- /wp:paragraph -->";

export async function installSite(db: Database, config: Config): Promise<void> {
  const { prisma } = db;
  if ((await prisma.user.count()) > 0) {
    // Said aloud, not silently ignored: a lost password is recovered with the admin command.
    if (config.adminAppPassword && config.logLevel !== "silent") {
      console.warn("ADMIN_APP_PASSWORD is only read on first start; for a new password run: npm run admin -- app-password create --user admin --name <name>");
    }
    return;
  }
  const password = config.adminAppPassword ?? generateAppPassword();
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const home = config.siteUrl;
  await prisma.$transaction(async (tx) => {
    await tx.option.createMany({ data: Object.entries(DEFAULT_OPTIONS).map(([name, value]) => ({ name, value })) });
    const admin = await tx.user.create({
      data: {
        login: "admin", email: "admin@example.com", name: "admin", nicename: "admin", url: home, roles: ["administrator"],
        applicationPasswords: { create: { name: "Installer", secretHash: hashAppPassword(password, config.secretKey) } },
      },
    });
    const category = await tx.term.create({ data: { taxonomy: "category", name: "Uncategorized", slug: "uncategorized" } });
    await tx.option.update({ where: { name: "default_category" }, data: { value: category.id } });
    const post = (data: { type: string; status: string; slug: string; title: string; content: string }) => tx.post.create({
      data: { ...data, authorId: admin.id, date: now, dateGmt: data.status === "publish" ? now : null, modified: now, modifiedGmt: now, meta: { footnotes: "" }, commentStatus: data.type === "page" ? "closed" : "open" },
    });
    const hello = await post({ type: "post", status: "publish", slug: "hello-world", title: "Hello world!", content: HELLO_WORLD });
    await tx.postTerm.create({ data: { postId: hello.id, termId: category.id } });
    const sample = await post({ type: "page", status: "publish", slug: "sample-page", title: "Sample Page", content: SAMPLE_PAGE });
    const privacy = await post({ type: "page", status: "draft", slug: "privacy-policy", title: "Privacy Policy", content: PRIVACY_POLICY.replace("SITE", home) });
    for (const p of [hello, sample, privacy]) {
      await tx.post.update({ where: { id: p.id }, data: { guid: `${home}/?${p.type === "page" ? "page_id" : "p"}=${p.id}` } });
    }
  });
  if (!config.adminAppPassword && config.logLevel !== "silent") {
    console.log(`Site administrator "admin" created. Application password (shown once): ${password}`);
  }
}
