// The page an oEmbed iframe shows (WordPress's embed template, wp-includes/theme-compat/embed*.php),
// written here: a self-contained HTML document (inline style and script, nothing else loaded but
// images) with the item's title linked to its permalink, a 35-word excerpt ending in "Continue
// reading", the featured image (or the image itself; its widest-proportioned size, above the
// title when at least 1.75 : 1, else beside the excerpt), and a footer with the site's icon and title. The page runs inside
// `sandbox="allow-scripts"` on another site: links cannot navigate the top window, so its script
// (the frame side of the protocol in receiver-script.ts) posts {message, value, secret} to the host
// page, the secret read from the `#?secret=` the iframe's address carries: "height" after load,
// on resize and when the host says "ready", and "link" when a link is clicked. Whoever asks, the page
// is what a visitor sees: anything not publicly viewable is the "embed not found" page (404).
import crypto from "node:crypto";
import type { Post } from "../../../generated/prisma/client.ts";
import { mediaStorage } from "../../../lib/media/storage.ts";
import type { ContentContext } from "../context.ts";
import { attachmentLink, mediaDetails, sourceUrl } from "../media/presentation.ts";
import { postPermalink } from "../posts/permalinks.ts";
import { renderContent } from "../posts/rendering.ts";
import { escAttr, escHtml, escUrl } from "./html.ts";
import { embedHtml, embedSecret, oembedForPost, OEMBED_MAX_WIDTH, urlToPostId } from "./oembed.ts";

/** WordPress's embed excerpt length (wp_embed_excerpt_length). */
export const EMBED_EXCERPT_WORDS = 35;

/** A wide image (≥ 1.75 : 1) goes above the title, others beside the excerpt (embed_thumbnail_image_shape). */
const RECTANGULAR_RATIO = 1.75;

/** The frame side of the embed protocol. */
export const EMBED_FRAME_SCRIPT = [
  "(function(w,d){\"use strict\";var r=d.documentElement;r.className=r.className.replace(/\\bno-js\\b/,\"js\");",
  "var m=/[#&?]secret=([A-Za-z0-9]{1,64})/.exec(w.location.hash),s=m?m[1]:\"\";if(!s||w.parent===w||!w.postMessage)return;",
  "function send(k,v){w.parent.postMessage({message:k,value:v,secret:s},\"*\");}",
  "function height(){send(\"height\",Math.ceil(r.getBoundingClientRect().height));}",
  "w.addEventListener(\"message\",function(e){var x=e.data;if(e.source===w.parent&&x&&x.message===\"ready\"&&x.secret===s)height();},false);",
  "d.addEventListener(\"click\",function(e){var a=e.target&&e.target.closest?e.target.closest(\"a[href]\"):null;",
  "if(!a||e.defaultPrevented||e.button!==0||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey)return;e.preventDefault();send(\"link\",a.href);},false);",
  "d.addEventListener(\"DOMContentLoaded\",height,false);w.addEventListener(\"load\",height,false);w.addEventListener(\"resize\",height,false);",
  "})(window,document);",
].join("");

/** The value a Content-Security-Policy's script-src gives to allow the frame script. */
export const EMBED_SCRIPT_HASH = `'sha256-${crypto.createHash("sha256").update(EMBED_FRAME_SCRIPT).digest("base64")}'`;

const STYLE = [
  "html,body{margin:0;padding:0;background:transparent}",
  "body{font:14px/1.5 -apple-system,BlinkMacSystemFont,\"Segoe UI\",Roboto,Oxygen-Sans,Ubuntu,Cantarell,\"Helvetica Neue\",sans-serif;color:#8c8f94}",
  ".wp-embed{padding:25px;background:#fff;border:1px solid #dcdcde;color:#8c8f94;overflow:auto}",
  ".wp-embed a{color:#8c8f94;text-decoration:none}.wp-embed a:hover{text-decoration:underline}",
  ".wp-embed-featured-image{margin-bottom:20px}.wp-embed-featured-image img{width:100%;height:auto;border:none}",
  ".wp-embed-featured-image.square{float:left;max-width:160px;margin-right:20px}",
  ".wp-embed-heading{margin:0 0 15px;font-weight:600;font-size:22px;line-height:1.3}.wp-embed-heading a{color:#2c3338}",
  ".wp-embed-excerpt p{margin:0 0 1em}.wp-embed-more{color:#c3c4c7}",
  ".wp-embed-footer{display:table;width:100%;margin-top:30px}.wp-embed-site-title{display:table-cell}",
  ".wp-embed-meta{display:table-cell;text-align:right;vertical-align:middle}.wp-embed-share summary{cursor:pointer}",
  ".wp-embed-share label{display:block;text-align:left;margin-top:10px}.wp-embed-share input,.wp-embed-share textarea{display:block;box-sizing:border-box;width:100%;margin-top:4px;font:12px monospace;color:#2c3338}",
  ".wp-embed-site-title{font-weight:600;line-height:1.78571428}.wp-embed-site-title a{position:relative;display:inline-block;padding-left:35px}",
  ".wp-embed-site-icon{position:absolute;top:50%;left:0;transform:translateY(-50%);height:25px;width:25px;border:0}",
  ".screen-reader-text{border:0;clip:rect(1px,1px,1px,1px);clip-path:inset(50%);height:1px;margin:-1px;overflow:hidden;padding:0;position:absolute;width:1px;word-wrap:normal!important}",
].join("\n");

const stripTags = (html: string) => html.replace(/<[^>]*>/g, "");
/** Code shown as text: every & < > " encoded, entities included, so what is copied is the code itself. */
const encodeAll = (code: string) => code.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** Plain text as safe HTML: tags removed, the rest escaped (entities kept). */
const text = (html: string) => escHtml(stripTags(html).trim());

interface SiteView { name: string; home: string; icon: string | null; lang: string }

async function siteView(ctx: ContentContext): Promise<SiteView> {
  const { options, home } = await ctx.site();
  const iconPost = options.site_icon ? await ctx.loaders.post.load(options.site_icon) : null;
  const icon = iconPost && iconPost.type === "attachment" && iconPost.mimeType.startsWith("image/") ? sourceUrl(iconPost, mediaStorage(ctx.config)) : null;
  return { name: options.blogname, home, icon: icon || null, lang: (options.WPLANG || "en_US").replace("_", "-") };
}

/** the_embed_site_title: the site's icon and title, linking home. */
const siteTitle = (site: SiteView) =>
  `<div class="wp-embed-site-title"><a href="${escUrl(site.home)}" target="_top">`
  + (site.icon ? `<img src="${escUrl(site.icon)}" width="32" height="32" alt="" class="wp-embed-site-icon"/>` : "")
  + `<span>${text(site.name)}</span></a></div>`;

function page(args: { site: SiteView; title: string; canonical: string | null; body: string }): string {
  const { site, title, canonical, body } = args;
  return `<!DOCTYPE html>\n<html lang="${escAttr(site.lang)}" class="no-js">\n<head>\n<meta charset="UTF-8">\n`
    + `<title>${title} &#8211; ${text(site.name)}</title>\n`
    + `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="robots" content="noindex, follow">\n`
    + (canonical ? `<link rel="canonical" href="${escUrl(canonical)}">\n` : "")
    + `<style>\n${STYLE}\n</style>\n<script>${EMBED_FRAME_SCRIPT}</script>\n</head>\n`
    + `<body class="wp-embed-responsive">\n${body}\n</body>\n</html>\n`;
}

/** the_excerpt_embed: the manual excerpt, or the content's first 35 words and "… Continue reading". */
function excerpt(post: Post, permalink: string, title: string): string {
  if (post.password) return "<p>There is no excerpt because this is a protected post.</p>";
  const manual = post.excerpt.trim() !== "";
  const words = stripTags(manual ? post.excerpt : renderContent(post.content)).replace(/\s+/g, " ").trim().split(" ").filter(Boolean);
  if (words.length === 0) return "";
  if (manual || words.length <= EMBED_EXCERPT_WORDS) return `<p>${escHtml(words.join(" "))}</p>`;
  return `<p>${escHtml(words.slice(0, EMBED_EXCERPT_WORDS).join(" "))} &hellip; <a href="${escUrl(permalink)}" class="wp-embed-more" target="_top">`
    + `Continue reading <span class="screen-reader-text">${title}</span></a></p>`;
}

/** The permalink of a post, page or attachment (attachments under their parent's link). */
async function permalinkOf(ctx: ContentContext, post: Post): Promise<string> {
  if (post.type !== "attachment") return postPermalink(ctx, post);
  const parent = post.parentId ? await ctx.loaders.post.load(post.parentId) : null;
  return attachmentLink(post, parent ? await postPermalink(ctx, parent) : null, (await ctx.site()).home);
}

const altOf = (attachment: Post | null): string => {
  const alt = (attachment?.meta as Record<string, unknown> | null)?._wp_attachment_image_alt;
  return typeof alt === "string" ? alt : "";
};

/**
 * The template's image: of the attachment's sizes the widest in proportion (wider than square),
 * else the full image; wide (≥ 1.75 : 1) is "rectangular", shown above the title, else "square".
 * As in WordPress, an image without sub-sizes counts as square.
 */
function embedImage(ctx: ContentContext, attachment: Post): { url: string; width: number; height: number; size: string; shape: "rectangular" | "square" } | null {
  if (attachment.type !== "attachment" || !attachment.mimeType.startsWith("image/")) return null;
  const storage = mediaStorage(ctx.config);
  const details = mediaDetails(attachment, storage);
  let ratio = 1;
  let chosen: { url: string; width: number; height: number; size: string } | null = null;
  for (const s of details?.sizes ?? []) {
    if (s.name === "full" || s.height <= 0 || s.width / s.height <= ratio) continue;
    ratio = s.width / s.height;
    chosen = { url: s.sourceUrl, width: s.width, height: s.height, size: s.name };
  }
  const url = chosen?.url ?? sourceUrl(attachment, storage);
  if (!url) return null;
  const image = chosen ?? { url, width: details?.width ?? 0, height: details?.height ?? 0, size: "full" };
  return { ...image, shape: ratio >= RECTANGULAR_RATIO ? "rectangular" : "square" };
}

/**
 * The sharing box (print_embed_sharing_button / print_embed_sharing_dialog), without a script: a
 * <details> holding the address to paste into a WordPress site and the embed HTML (600 × 400,
 * its own secret) to paste anywhere else.
 */
const shareBox = (permalink: string, title: string, siteName: string) =>
  `<div class="wp-embed-meta"><details class="wp-embed-share"><summary>Share</summary>`
  + `<label>Copy and paste this URL into your WordPress site to embed<input type="text" readonly value="${escAttr(permalink)}"></label>`
  + `<label>Copy and paste this code into your site to embed<textarea readonly rows="5">`
  + `${encodeAll(embedHtml({ permalink, title, siteName, width: 600, height: 400, secret: embedSecret() }))}</textarea></label></details></div>`;

/** embed-404.php: what the frame shows when the address names nothing that may be embedded. */
function notFoundPage(site: SiteView): string {
  return page({
    site, title: "Page not found", canonical: null,
    body: `<div class="wp-embed">\n<p class="wp-embed-heading">Oops! That embed can&#8217;t be found.</p>\n`
      + `<div class="wp-embed-excerpt"><p>It looks like nothing was found at this location. Maybe try visiting `
      + `<a href="${escUrl(site.home)}" target="_top">${text(site.name)}</a> directly?</p></div>\n`
      + `<div class="wp-embed-footer">${siteTitle(site)}</div>\n</div>`,
  });
}

export interface EmbedPageView { status: number; html: string; scriptHashes: string[] }

/** The embed page of the item `url` addresses (its permalink + embed/, or ?p=N&embed=true). */
export async function embedPage(ctx: ContentContext, url: string): Promise<EmbedPageView> {
  const site = await siteView(ctx);
  // An address whose path is not valid percent-encoding names nothing (decodeURIComponent throws).
  const id = await urlToPostId(ctx, url).catch((error: unknown) => { if (error instanceof URIError) return 0; throw error; });
  const post = id ? await ctx.loaders.post.load(id) : null;
  // The oEmbed answer decides, as for the iframe's host: publicly viewable, its title and thumbnail.
  const data = post ? await oembedForPost(ctx, post, OEMBED_MAX_WIDTH, "") : null;
  if (!post || !data) return { status: 404, html: notFoundPage(site), scriptHashes: [EMBED_SCRIPT_HASH] };
  const permalink = await permalinkOf(ctx, post);
  const title = text(data.title);
  const thumbnailId = post.type === "attachment" && post.mimeType.startsWith("image/") ? post.id : post.featuredMedia;
  const attachment = thumbnailId ? (thumbnailId === post.id ? post : await ctx.loaders.post.load(thumbnailId)) : null;
  const image = attachment ? embedImage(ctx, attachment) : null;
  let rectangular = "";
  let square = "";
  if (image) {
    const size = image.width && image.height ? ` width="${image.width}" height="${image.height}"` : "";
    const figure = `<div class="wp-embed-featured-image ${image.shape}"><a href="${escUrl(permalink)}" target="_top">`
      + `<img src="${escUrl(image.url)}"${size} class="attachment-${escAttr(image.size)} size-${escAttr(image.size)}" alt="${escAttr(altOf(attachment))}" loading="lazy" decoding="async"/></a></div>\n`;
    if (image.shape === "rectangular") rectangular = figure;
    else square = figure;
  }
  const body = `<div class="wp-embed post-${post.id} type-${escAttr(post.type)}">\n${rectangular}`
    + `<p class="wp-embed-heading"><a href="${escUrl(permalink)}" target="_top">${title}</a></p>\n${square}`
    + `<div class="wp-embed-excerpt">${excerpt(post, permalink, title)}</div>\n`
    + `<div class="wp-embed-footer">${siteTitle(site)}${shareBox(permalink, data.title, site.name)}</div>\n</div>`;
  return { status: 200, html: page({ site, title, canonical: permalink, body }), scriptHashes: [EMBED_SCRIPT_HASH] };
}
