// block-editor/v1/export. WordPress's site editor exports the active block theme with the
// templates and template parts edited in the editor, as a zip. This site has no theme and no
// templates: what its block editor edits is the block markup of its posts and pages. So the
// export is that, as a zip: `posts/<slug>.html` and `pages/<parent>/<slug>.html` (the stored block
// markup of every post and page that is not trashed), and `site.json` (the site's name,
// description and address, and when the export was made). Those who may edit the site's
// appearance (edit_theme_options: administrators) may export, as in WordPress.
import { strToU8, zipSync, type Zippable } from "fflate";
import type { Post } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";
import { hasCap } from "../permissions.ts";
import { sanitizeTitle } from "../posts/rendering.ts";

export interface SiteExport { filename: string; contentType: string; data: Buffer; files: string[] }

const EXPORTED_STATUSES = ["publish", "future", "draft", "pending", "private"];

export const canExportSite = (ctx: ContentContext): boolean => hasCap(ctx.viewer, "edit_theme_options");

/** A file name for an item: its slug, else its id. */
const nameOf = (post: Post) => post.slug || String(post.id);

export async function exportSite(ctx: ContentContext, now: Date = new Date()): Promise<SiteExport> {
  if (!canExportSite(ctx)) fail("rest_cannot_export_templates", { signedIn: !!ctx.viewer });
  const { options, home } = await ctx.site();
  const items = await ctx.prisma.post.findMany({
    where: { type: { in: ["post", "page"] }, status: { in: EXPORTED_STATUSES } }, orderBy: { id: "asc" },
  });
  const pages = new Map(items.filter((p) => p.type === "page").map((p) => [p.id, p]));
  const pagePath = (page: Post): string => {
    const parts = [nameOf(page)];
    const seen = new Set([page.id]);
    for (let parent = pages.get(page.parentId); parent && !seen.has(parent.id); parent = pages.get(parent.parentId)) {
      seen.add(parent.id);
      parts.unshift(nameOf(parent));
    }
    return parts.join("/");
  };
  const files: Zippable = {};
  const taken = new Set<string>();
  const add = (path: string, content: string) => {
    let name = path;
    for (let i = 2; taken.has(name); i++) name = path.replace(/\.html$/, `-${i}.html`);
    taken.add(name);
    files[name] = strToU8(content);
  };
  add("site.json", `${JSON.stringify({ name: options.blogname, description: options.blogdescription, url: home, exported_gmt: now.toISOString().slice(0, 19) }, null, "\t")}\n`);
  for (const item of items) add(item.type === "page" ? `pages/${pagePath(item)}.html` : `posts/${nameOf(item)}.html`, item.content);
  // A fixed time for every entry keeps the archive the same for the same content.
  const data = Buffer.from(zipSync(files, { level: 6, mtime: now }));
  return { filename: `${sanitizeTitle(options.blogname) || "site"}.zip`, contentType: "application/zip", data, files: [...taken] };
}
