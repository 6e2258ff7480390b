// How an attachment row becomes what WordPress shows: its permalink, its file addresses, the
// `media_details` (sub-sizes with addresses, then `full`), and the rendered description, which
// WordPress prefixes with the attachment's medium image or a link to the file (prepend_attachment).
import path from "node:path/posix";
import type { Post } from "../../../generated/prisma/client.ts";
import { renderContent, renderExcerpt, sanitizeTitle } from "../posts/rendering.ts";
import { constrainDimensions } from "./images.ts";
import { attachedFile, attachmentMeta, metadataOf, siblingKey, sizesInOrder, type AttachmentMetadata, type SizeMeta } from "./metadata.ts";
import type { MediaStorage } from "../../../lib/media/storage.ts";

/** get_attachment_link: under the parent's pretty permalink, else /slug/, else ?attachment_id=. `leaveName` keeps %postname%. */
export function attachmentLink(post: Post, parentLink: string | null, home: string, leaveName = false): string {
  if (parentLink !== null) {
    const name = /^\d+$/.test(post.slug) ? `attachment/${post.slug}` : post.slug;
    if (!parentLink.includes("?")) return `${parentLink}${leaveName ? "%postname%" : name}/`;
  } else if (!leaveName) {
    return `${home}/${post.slug}/`;
  }
  return `${home}/?attachment_id=${post.id}`;
}

export const generatedSlug = (post: Post) => post.slug || sanitizeTitle(post.title);

export const sourceUrl = (post: Post, storage: MediaStorage): string => {
  const key = attachedFile(post);
  return key ? storage.url(key) : post.guid;
};

export interface MediaSizeView { name: string; file: string; width: number; height: number; filesize: number | null; mimeType: string; sourceUrl: string }

export interface MediaDetailsView {
  width: number | null; height: number | null; file: string | null; filesize: number | null;
  sizes: MediaSizeView[];
  imageMeta: {
    aperture: string; credit: string; camera: string; caption: string; createdTimestamp: string; copyright: string;
    focalLength: string; iso: string; shutterSpeed: string; title: string; orientation: string; keywords: string[];
  } | null;
  originalImage: string | null;
  parentImage: { attachmentId: string; file: string } | null;
}


/** The REST `media_details`, in GraphQL's terms: sizes with addresses, then `full` when there are any. */
export function mediaDetails(post: Post, storage: MediaStorage): MediaDetailsView | null {
  const meta = metadataOf(post);
  if (!meta) return null;
  const key = attachedFile(post);
  const sizes: MediaSizeView[] = sizesInOrder(meta).map(([name, s]) => ({
    name, file: s.file, width: s.width, height: s.height, filesize: s.filesize ?? null, mimeType: s["mime-type"], sourceUrl: storage.url(siblingKey(key, s.file)),
  }));
  if (sizes.length > 0 && meta.width && meta.height) {
    sizes.push({ name: "full", file: path.basename(key), width: meta.width, height: meta.height, filesize: null, mimeType: post.mimeType, sourceUrl: storage.url(key) });
  }
  return {
    width: meta.width ?? null, height: meta.height ?? null, file: meta.file ?? null, filesize: meta.filesize ?? null, sizes,
    imageMeta: meta.image_meta ? {
      aperture: String(meta.image_meta.aperture), credit: meta.image_meta.credit, camera: meta.image_meta.camera,
      caption: meta.image_meta.caption, createdTimestamp: String(meta.image_meta.created_timestamp), copyright: meta.image_meta.copyright,
      focalLength: String(meta.image_meta.focal_length), iso: String(meta.image_meta.iso), shutterSpeed: String(meta.image_meta.shutter_speed),
      title: meta.image_meta.title, orientation: String(meta.image_meta.orientation), keywords: meta.image_meta.keywords ?? [],
    } : null,
    originalImage: meta.original_image ?? null,
    parentImage: meta.parent_image ? { attachmentId: String(meta.parent_image.attachment_id), file: meta.parent_image.file } : null,
  };
}

const escAttr = (s: string) => s.replace(/&(?![a-zA-Z][a-zA-Z0-9]*;|#\d+;|#x[0-9a-fA-F]+;)/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#039;");
const stripTags = (s: string) => s.replace(/<[^>]*>/g, "");
const fuzzy = (a: number, b: number) => Math.abs(a - b) <= 1;

/** Images WordPress displays inline (wp_attachment_is_image). */
const DISPLAYED = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);

/** wp_image_matches_ratio: the larger size fitted to the smaller's width lands within a pixel of it. */
function matchesRatio(w1: number, h1: number, w2: number, h2: number): boolean {
  const [constrained, expected] = w1 > w2 ? [constrainDimensions(w1, h1, w2, 0), [w2, h2]] : [constrainDimensions(w2, h2, w1, 0), [w1, h1]];
  return fuzzy(constrained[0], expected[0]) && fuzzy(constrained[1], expected[1]);
}

/** wp_calculate_image_srcset: same-ratio files up to 2048px wide, the shown one first; only with two or more. */
function srcset(meta: AttachmentMetadata, key: string, shown: { file: string; width: number; height: number }, storage: MediaStorage): string | undefined {
  const candidates: Pick<SizeMeta, "file" | "width" | "height">[] = sizesInOrder(meta).map(([, size]) => size);
  if (meta.sizes?.thumbnail?.["mime-type"] !== "image/gif") candidates.push({ file: path.basename(key), width: meta.width ?? 0, height: meta.height ?? 0 });
  const sources = new Map<number, string>();
  let first: [number, string] | undefined;
  for (const c of candidates) {
    const isSrc = !first && c.file === shown.file;
    if (c.width > 2048 && !isSrc) continue;
    if (!matchesRatio(shown.width, shown.height, c.width, c.height)) continue;
    const entry = `${storage.url(siblingKey(key, c.file))} ${c.width}w`;
    if (isSrc) { first = [c.width, entry]; sources.delete(c.width); } else if (first?.[0] !== c.width) sources.set(c.width, entry);
  }
  if (!first) return undefined;
  const all = [first[1], ...sources.values()];
  return all.length >= 2 ? all.join(", ") : undefined;
}

/** wp_get_attachment_image(id, "medium"): the medium file, or the full file fitted into 300×300. */
function mediumImage(post: Post, storage: MediaStorage): string {
  const meta = metadataOf(post);
  const key = attachedFile(post);
  if (!meta || !key || !DISPLAYED.has(post.mimeType) || !meta.width || !meta.height) return "";
  const medium = meta.sizes?.medium;
  const shown = medium
    ? { file: medium.file, width: medium.width, height: medium.height }
    : (() => { const [w, h] = constrainDimensions(meta.width!, meta.height!, 300, 300); return { file: path.basename(key), width: w, height: h }; })();
  const alt = stripTags(attachmentMeta(post)._wp_attachment_image_alt ?? "").trim();
  const set = srcset(meta, key, shown, storage);
  const attrs: [string, string][] = [
    ["src", storage.url(siblingKey(key, shown.file))], ["class", "attachment-medium size-medium"], ["alt", alt],
    ["decoding", "async"], ["loading", "lazy"],
    ...(set ? [["srcset", set], ["sizes", `(max-width: ${shown.width}px) 100vw, ${shown.width}px`]] as [string, string][] : []),
  ];
  return `<img width="${shown.width}" height="${shown.height}" ${attrs.map(([k, v]) => `${k}="${escAttr(v)}"`).join(" ")} />`;
}

/** prepend_attachment: a paragraph linking the file, showing its medium image (or its title). */
function attachmentParagraph(post: Post, storage: MediaStorage): string {
  const image = mediumImage(post, storage);
  const text = image.trim() || post.title.trim() || path.basename(attachedFile(post), path.extname(attachedFile(post)));
  return `<p class="attachment"><a href='${escAttr(sourceUrl(post, storage))}'>${text}</a></p>\n`;
}

/** `description.rendered`: the attachment paragraph, then the description's own HTML. */
export const renderDescription = (post: Post, storage: MediaStorage): string =>
  attachmentParagraph(post, storage) + (post.content.trim() === "" ? "" : renderContent(post.content));

/** `caption.rendered`: the caption, or (as get_the_excerpt does) words of the rendered description. */
export const renderCaption = (post: Post, storage: MediaStorage): string =>
  renderExcerpt(post.excerpt, `${attachmentParagraph(post, storage)}\n${post.content}`);
