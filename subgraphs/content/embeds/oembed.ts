// oEmbed for the site's own content (WordPress core's oembed/1.0/embed): a URL of this site is
// resolved to its post or page (url_to_postid), which must be publicly viewable; the answer is
// the provider and author, the rendered title, a `rich` type sized by the clamped maxwidth, and
// the embed HTML (a blockquote fallback, a sandboxed iframe and the receiver script, all sharing
// one random secret), with the featured image as thumbnail.
import crypto from "node:crypto";
import type { Post } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { mediaStorage } from "../../../lib/media/storage.ts";
import type { ContentContext } from "../context.ts";
import { constrainDimensions } from "../media/images.ts";
import { metadataOf } from "../media/metadata.ts";
import { attachmentLink, sourceUrl } from "../media/presentation.ts";
import { postPermalink } from "../posts/permalinks.ts";
import { renderTitle } from "../posts/rendering.ts";
import { escAttr, escUrl } from "./html.ts";
import { EMBED_RECEIVER_SCRIPT } from "./receiver-script.ts";

/** WordPress's oembed_default_width and oembed_min_max_width. */
export const OEMBED_DEFAULT_WIDTH = 600;
export const OEMBED_MIN_WIDTH = 200;
export const OEMBED_MAX_WIDTH = 600;

export interface OEmbedData {
  version: string;
  providerName: string;
  providerUrl: string;
  authorName: string;
  authorUrl: string;
  title: string;
  type: string;
  width: number;
  height: number;
  html: string;
  thumbnailUrl: string | null;
  thumbnailWidth: number | null;
  thumbnailHeight: number | null;
}

/** The embed frame for a requested width: clamped to 200–600, 16:9 with a 200 px floor. */
export function embedSize(maxwidth: number): { width: number; height: number } {
  const width = Math.min(Math.max(OEMBED_MIN_WIDTH, Math.abs(Math.trunc(maxwidth)) || 0), OEMBED_MAX_WIDTH);
  return { width, height: Math.max(Math.ceil((width / 16) * 9), 200) };
}

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** wp_generate_password(10, false): the secret the embed's parts share. */
export const embedSecret = (): string => Array.from({ length: 10 }, () => ALPHANUMERIC[crypto.randomInt(ALPHANUMERIC.length)]).join("");

/** get_the_title: password-protected items are prefixed "Protected: ". */
const theTitle = (post: Post): string => (post.password ? `Protected: ${renderTitle(post.title)}` : renderTitle(post.title));

const homeHost = (home: string) => new URL(home).host.replace(/^www\./, "");

/** The stored link of an item (attachments under their parent's link). */
async function linkOf(ctx: ContentContext, post: Post): Promise<string> {
  if (post.type !== "attachment") return postPermalink(ctx, post);
  const parent = post.parentId ? await ctx.loaders.post.load(post.parentId) : null;
  return attachmentLink(post, parent ? await postPermalink(ctx, parent) : null, (await ctx.site()).home);
}

const trimSlashes = (path: string) => path.replace(/\/+$/, "");

/**
 * url_to_postid: the id of the item a URL of this site addresses (?p=, ?page_id=,
 * ?attachment_id=, or a pretty permalink, optionally ending in /embed/), or 0.
 */
export async function urlToPostId(ctx: ContentContext, raw: string): Promise<number> {
  const { home } = await ctx.site();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 0;
  }
  if (url.host.replace(/^www\./, "") !== homeHost(home)) return 0;
  for (const key of ["p", "page_id", "attachment_id"]) {
    const value = url.searchParams.get(key);
    if (value && /^\d+$/.test(value)) return Number(value) <= 2 ** 31 - 1 ? Number(value) : 0;
  }
  const homePath = trimSlashes(new URL(home).pathname);
  let path = trimSlashes(decodeURIComponent(url.pathname));
  if (homePath && path.startsWith(homePath)) path = path.slice(homePath.length);
  path = path.replace(/\/embed$/, "");
  const segments = path.split("/").filter(Boolean);
  const slug = segments.at(-1);
  if (!slug) return 0;
  const candidates = await ctx.prisma.post.findMany({
    where: { slug, type: { in: ["post", "page", "attachment"] } }, orderBy: { id: "asc" },
  });
  // Pages first, as WordPress's page rewrite rules are tried before the post rules.
  candidates.sort((a, b) => Number(b.type === "page") - Number(a.type === "page"));
  const wanted = `/${segments.join("/")}`;
  for (const candidate of candidates) {
    ctx.loaders.post.prime(candidate.id, candidate);
    const link = new URL(await linkOf(ctx, candidate));
    if (trimSlashes(decodeURIComponent(link.pathname)).slice(homePath.length) === wanted && !link.search) return candidate.id;
  }
  return 0;
}

/** is_post_publicly_viewable for the embeddable types: published, or an attachment of a published (or no) parent. */
async function publiclyViewable(ctx: ContentContext, post: Post): Promise<boolean> {
  if (post.type === "post" || post.type === "page") return post.status === "publish";
  if (post.type !== "attachment") return false;
  if (post.status !== "inherit") return post.status === "publish";
  if (!post.parentId) return true;
  const parent = await ctx.loaders.post.load(post.parentId);
  return !!parent && parent.status === "publish";
}

/** wp_get_attachment_image_src(id, [width, 99999]): the image's address and size fitted to the width. */
function thumbnailOf(ctx: ContentContext, attachment: Post, width: number): { url: string; width: number; height: number } | null {
  if (!attachment.mimeType.startsWith("image/")) return null;
  const meta = metadataOf(attachment);
  const url = sourceUrl(attachment, mediaStorage(ctx.config));
  if (!url) return null;
  if (!meta?.width || !meta.height) return { url, width: 0, height: 0 };
  const [w, h] = constrainDimensions(meta.width, meta.height, width, 99999);
  return { url, width: w, height: h };
}

/** get_post_embed_url: the permalink's /embed/ (or &embed=true for plain links). */
const embedUrl = (permalink: string) => (permalink.includes("?") ? `${permalink}&embed=true` : `${permalink.replace(/\/?$/, "/")}embed/`);

/** get_post_embed_html: blockquote fallback, sandboxed iframe and the receiver script. */
export function embedHtml(args: { permalink: string; title: string; siteName: string; width: number; height: number; secret: string }): string {
  const { permalink, title, siteName, width, height, secret } = args;
  const src = `${embedUrl(permalink)}#?secret=${secret}`;
  return `<blockquote class="wp-embedded-content" data-secret="${escAttr(secret)}"><a href="${escUrl(permalink)}">${title}</a></blockquote>`
    + `<iframe sandbox="allow-scripts" security="restricted" src="${escUrl(src)}" width="${width}" height="${height}" `
    + `title="${escAttr(`&#8220;${title}&#8221; &#8212; ${siteName}`)}" data-secret="${escAttr(secret)}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`
    + `<script>\n${EMBED_RECEIVER_SCRIPT}\n</script>\n`;
}

/** get_oembed_response_data: the embed of one item, or null when it may not be embedded. */
export async function oembedForPost(ctx: ContentContext, post: Post, maxwidth: number, secret = embedSecret()): Promise<OEmbedData | null> {
  if (!(await publiclyViewable(ctx, post))) return null;
  const { options, home } = await ctx.site();
  const { width, height } = embedSize(maxwidth);
  const author = post.authorId ? await ctx.loaders.user.load(post.authorId) : null;
  const title = theTitle(post);
  const permalink = await linkOf(ctx, post);
  let type = "rich";
  let thumbnailId = post.featuredMedia;
  if (post.type === "attachment") {
    if (post.mimeType.startsWith("image/")) thumbnailId = post.id;
    else if (post.mimeType.startsWith("video/")) type = "video";
  }
  const attachment = thumbnailId ? (thumbnailId === post.id ? post : await ctx.loaders.post.load(thumbnailId)) : null;
  const thumbnail = attachment && attachment.type === "attachment" ? thumbnailOf(ctx, attachment, width) : null;
  return {
    version: "1.0",
    providerName: options.blogname,
    providerUrl: home,
    authorName: author ? author.name : options.blogname,
    authorUrl: author ? `${home}/author/${author.nicename}/` : home,
    title,
    type,
    width,
    height,
    html: embedHtml({ permalink, title, siteName: options.blogname, width, height, secret }),
    thumbnailUrl: thumbnail?.url ?? null,
    thumbnailWidth: thumbnail ? thumbnail.width : null,
    thumbnailHeight: thumbnail ? thumbnail.height : null,
  };
}

/** get_oembed_response_data_for_url: the embed of an item of this site by its URL, or null. */
export async function oembedForUrl(ctx: ContentContext, url: string, maxwidth: number): Promise<OEmbedData | null> {
  const id = await urlToPostId(ctx, url);
  if (!id) return null;
  const post = await ctx.loaders.post.load(id);
  return post ? oembedForPost(ctx, post, maxwidth) : null;
}

/** oembed/1.0/embed: the embed of an item of this site, or oembed_invalid_url (404 Not Found). */
export async function ownOEmbed(ctx: ContentContext, url: string, maxwidth: number): Promise<OEmbedData> {
  return (await oembedForUrl(ctx, url, maxwidth)) ?? fail("oembed_invalid_url");
}
