// Media attachments the way WordPress's attachments controller, wp_handle_upload/_sideload,
// wp_insert_attachment and wp_generate_attachment_metadata treat them: an attachment is a post
// row of type "attachment" (status inherit, parent = the post it belongs to) whose file lives in
// the media storage and whose sizes and dimensions live in its meta.
import { lockUntilCommit } from "../../../lib/db-locks.ts";
import crypto from "node:crypto";
import path from "node:path/posix";
import type { Post, Prisma } from "../../../generated/prisma/client.ts";
import exifReader from "exif-reader";
import { fail } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";
import { canDeletePost, canEditOthers, canEditPost, canReadPost, hasCap, refuse, type Viewer } from "../permissions.ts";
import type { PostWhereInput } from "../posts/post-query.ts";
import { listPosts, type ListArgs, type PostPage } from "../posts/posts.ts";
import { COMMENT_STATUSES, SETTABLE_STATUSES } from "../../../lib/wordpress/post-values.ts";
import { sanitizeTitle } from "../posts/rendering.ts";
import { parseWpDate, wholeSeconds, type SiteClock } from "../site/site.ts";
import {
  IMAGE_EXTENSIONS, isAllowedMimeType, MEDIA_TYPES, mimeTypeOf, mimeTypesOfGroup, sanitizeFileName,
} from "../../../lib/media/file-types.ts";
import {
  BIG_IMAGE_THRESHOLD, EDITABLE_TYPES, editImage, IMAGE_SIZES, ImageEditError, readImage, resizeDimensions, resizeImage,
  scaleDown, SIZES_IN_CREATION_ORDER, uprightImage, type ImageEdit, type ImageInfo, type ImageSize,
} from "./images.ts";
import {
  attachedFile, attachmentMeta, EMPTY_IMAGE_META, metadataOf, originalKey, ownedKeys, siblingKey,
  type AttachmentMeta, type AttachmentMetadata, type ImageMeta, type SizeMeta,
} from "./metadata.ts";
import { mediaStorage, type MediaStorage } from "../../../lib/media/storage.ts";

const TYPE = "attachment";

/** Creating and editing media needs upload_files (authors and up). */
export const canUploadFiles = (viewer: Viewer | null): boolean => hasCap(viewer, "upload_files");


// ---- reading ----

/**
 * WordPress's check_read_permission for attachments: an inherited status follows the parent
 * post (an unattached one counts as published); private and other statuses are checked as posts.
 */
export function canReadAttachment(viewer: Viewer | null, attachment: Post, parent: Post | null): boolean {
  if (attachment.status === "inherit") return parent && attachment.parentId > 0 ? canReadPost(viewer, parent) : true;
  return canReadPost(viewer, attachment);
}

/** The attachments among `posts` the caller may read; parents come through the loader in one batch. */
export async function readableAttachments(ctx: ContentContext, posts: Post[]): Promise<Post[]> {
  const parents = await ctx.loaders.post.loadMany(posts.map((p) => p.parentId).filter((id) => id > 0));
  const byId = new Map(parents.filter((p): p is Post => !!p && !(p instanceof Error)).map((p) => [p.id, p]));
  return posts.filter((p) => p.type === TYPE && canReadAttachment(ctx.viewer, p, byId.get(p.parentId) ?? null));
}

/** An attachment by id for a reference (federation, featured media): null when missing or unreadable. */
export async function readableAttachment(ctx: ContentContext, id: number): Promise<Post | null> {
  const post = id > 0 ? await ctx.loaders.post.load(id) : null;
  if (!post || post.type !== TYPE) return null;
  return (await readableAttachments(ctx, [post]))[0] ?? null;
}

async function requireAttachment(ctx: ContentContext, id: number): Promise<Post> {
  const post = id > 0 ? await ctx.loaders.post.load(id) : null;
  if (!post || post.type !== TYPE) return fail("rest_post_invalid_id");
  return post;
}

export async function readMedia(ctx: ContentContext, id: number): Promise<Post> {
  const post = await requireAttachment(ctx, id);
  if (!(await readableAttachments(ctx, [post])).length) refuse(ctx, "rest_forbidden", "Sorry, you are not allowed to do that.");
  return post;
}

export interface MediaWhereInput extends Omit<PostWhereInput, "taxRelation" | "categories" | "categoriesExclude" | "tags" | "tagsExclude" | "sticky" | "format" | "menuOrder" | "mimeType" | "searchFileName"> {
  mediaType?: string | null;
  mimeType?: string | null;
}

export interface MediaListArgs extends Omit<ListArgs, "where"> {
  where?: MediaWhereInput | null;
}

/** The MIME types a list keeps: a media type's group, or one exact allowed type (which wins); others are ignored, as in WordPress. */
function mimeFilter(mediaType: string | null | undefined, mimeType: string | null | undefined): string[] | undefined {
  let types: string[] | undefined;
  if (mediaType && (MEDIA_TYPES as readonly string[]).includes(mediaType)) types = mimeTypesOfGroup(mediaType);
  if (mimeType && isAllowedMimeType(mimeType)) types = [mimeType];
  return types;
}

/** Lists attachments as listPosts lists posts, with the media filters and the parent-based read rule. */
export async function listMedia(ctx: ContentContext, args: MediaListArgs): Promise<PostPage> {
  const { mediaType, mimeType, ...where } = args.where ?? {};
  return listPosts(ctx, TYPE, { ...args, where: { ...where, mimeType: mimeFilter(mediaType, mimeType), searchFileName: true } },
    (rows) => readableAttachments(ctx, rows));
}

// ---- writing ----

export interface MediaInput {
  date?: string | null;
  dateGmt?: string | null;
  slug?: string | null;
  status?: string | null;
  title?: string | null;
  author?: number | null;
  featuredMedia?: number | null;
  commentStatus?: string | null;
  pingStatus?: string | null;
  template?: string | null;
  altText?: string | null;
  caption?: string | null;
  description?: string | null;
  post?: number | null;
}

export interface MediaFileInput {
  base64: string;
  /** The client's own name for the file (form uploads, GraphQL). */
  filename?: string | null;
  /** A raw upload's Content-Disposition header, to read the name from. */
  contentDisposition?: string | null;
  contentType?: string | null;
  /** Expected MD5 (hex) of the bytes. */
  md5?: string | null;
}

function checkEnum(value: string | null | undefined, allowed: string[], param: string): void {
  if (value === undefined || value === null || allowed.includes(value)) return;
  const list = allowed.length === 2 ? `${allowed[0]} and ${allowed[1]}` : `${allowed.slice(0, -1).join(", ")}, and ${allowed.at(-1)}`;
  const message = `${param} is not one of ${list}.`;
  fail("rest_invalid_param", { message: `Invalid parameter(s): ${param}`, data: { params: { [param]: message }, details: { [param]: { code: "rest_not_in_enum", message, data: null } } } });
}

function checkInput(input: MediaInput): void {
  checkEnum(input.status, SETTABLE_STATUSES, "status");
  checkEnum(input.commentStatus, COMMENT_STATUSES, "comment_status");
  checkEnum(input.pingStatus, COMMENT_STATUSES, "ping_status");
}

/** wp_insert_post keeps attachments inherit or private; any other status becomes inherit. */
const attachmentStatus = (status: string | null | undefined, current = "inherit") =>
  status === undefined || status === null ? current : status === "private" ? "private" : "inherit";

/** WordPress's get_filename_from_disposition: the last `filename=` attribute, trimmed and unquoted. */
export function filenameFromDisposition(header: string): string | null {
  let filename: string | null = null;
  const value = header.trim();
  const semi = value.indexOf(";");
  if (semi < 0) return null;
  for (const part of value.slice(semi + 1).split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== "filename") continue;
    let name = part.slice(eq + 1).trim();
    if (name === "") continue;
    if (name.length > 1 && name.startsWith("\"") && name.endsWith("\"")) name = name.slice(1, -1);
    filename = name;
  }
  return filename;
}

interface ReceivedFile {
  bytes: Buffer;
  /** The client's name (for the title of form uploads). */
  clientName: string;
  /** Sanitized name with the extension the real type calls for. */
  name: string;
  mimeType: string;
  image: ImageInfo | null;
  /** Titles fall back to the stored name for raw uploads, to the client's for form uploads. */
  titleFromClientName: boolean;
  errorCode: "rest_upload_unknown_error" | "rest_upload_sideload_error";
}

const EMPTY_FILE = "File is empty. Please upload something more substantial. This error could also be caused by uploads being disabled in your php.ini or by post_max_size being defined as smaller than upload_max_filesize in php.ini.";
/** Image types whose real content is checked against the extension (wp_check_filetype_and_ext). */
const VERIFIED_IMAGES = new Set(Object.keys(IMAGE_EXTENSIONS));

/** The upload checks of upload_from_data / upload_from_file and the type checks of _wp_handle_upload, in their order. */
async function receiveFile(file: MediaFileInput): Promise<ReceivedFile> {
  const bytes = Buffer.from(file.base64, "base64");
  const form = file.filename !== undefined && file.filename !== null;
  const errorCode = form ? "rest_upload_unknown_error" : "rest_upload_sideload_error";
  let clientName: string;
  if (form) {
    clientName = path.basename(file.filename!.replace(/\\/g, "/"));
  } else {
    if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x30)) fail("rest_upload_no_data");
    if (!file.contentType) fail("rest_upload_no_content_type");
    if (!file.contentDisposition) fail("rest_upload_no_content_disposition");
    const name = filenameFromDisposition(file.contentDisposition!);
    if (!name) {
      fail("rest_upload_invalid_disposition");
    }
    clientName = name!;
  }
  if (file.md5 && crypto.createHash("md5").update(bytes).digest("hex") !== file.md5) {
    fail("rest_upload_hash_mismatch");
  }
  if (form && bytes.length === 0) fail(errorCode, { message: EMPTY_FILE });

  let name = sanitizeFileName(clientName);
  let mimeType = mimeTypeOf(name);
  let image: ImageInfo | null = null;
  if (mimeType?.startsWith("image/")) {
    image = await readImage(bytes);
    if (VERIFIED_IMAGES.has(mimeType)) {
      // An image whose content is not what its name says gets the right extension; a non-image is refused.
      if (!image || !VERIFIED_IMAGES.has(image.mimeType)) mimeType = undefined;
      else if (image.mimeType !== mimeType) {
        name = `${name.slice(0, name.lastIndexOf("."))}.${IMAGE_EXTENSIONS[image.mimeType]}`;
        mimeType = image.mimeType;
      }
    }
  }
  if (!mimeType || name.startsWith(".")) fail(errorCode, { message: "Sorry, you are not allowed to upload this file type." });
  return { bytes, clientName, name, mimeType: mimeType!, image, titleFromClientName: form, errorCode };
}

/** `YYYY/MM` of the uploads folder for a site-local time. */
const monthFolder = (local: Date) => `${local.toISOString().slice(0, 4)}/${local.toISOString().slice(5, 7)}`;

/** Claims a free file name in a folder (wp_unique_filename): name.ext, name-1.ext, name-2.ext… */
async function storeUnique(storage: MediaStorage, folder: string, name: string, bytes: Buffer): Promise<string> {
  const dot = name.lastIndexOf(".");
  const base = name.slice(0, dot), ext = name.slice(dot);
  for (let n = 0; ; n++) {
    const key = `${folder}/${n === 0 ? base : `${base}-${n}`}${ext}`;
    if (await storage.put(key, bytes, { exclusive: true })) return key;
  }
}

const withoutExtension = (name: string) => (name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : name);

/** PHP's (string) of a float: 14 significant digits. */
const phpFloat = (n: number) => String(Number(n.toPrecision(14)));

/** EXIF UserComment: an 8-byte character-code header, then the text. */
function userComment(value: unknown, bigEndian: boolean): string {
  if (!Buffer.isBuffer(value) || value.length <= 8) return "";
  const code = value.subarray(0, 8).toString("latin1").replace(/\0+$/, "");
  const text = Buffer.from(value.subarray(8));
  const decoded = code === "UNICODE" ? (bigEndian && text.length % 2 === 0 ? text.swap16() : text).toString("utf16le") : text.toString("utf8");
  return decoded.replace(/\0+$/, "").trim();
}

/**
 * wp_read_image_metadata from EXIF, which WordPress 6.1 reads for JPEG and TIFF (read with
 * exif-reader from the bytes sharp extracts). IPTC fields are not read.
 */
function imageMetaOf(info: ImageInfo | null): ImageMeta {
  const meta: ImageMeta = { ...EMPTY_IMAGE_META, orientation: info?.orientation ? String(info.orientation) : "0" };
  if (!info?.exif || !["image/jpeg", "image/tiff"].includes(info.mimeType)) return meta;
  let exif: ReturnType<typeof exifReader>;
  try { exif = exifReader(info.exif); } catch { return meta; }
  const image = exif.Image ?? {}, photo = exif.Photo ?? {};
  const text = (v: unknown) => (typeof v === "string" ? v.replace(/\0+$/, "").trim() : "");
  const description = text(image.ImageDescription);
  if (description) {
    // A short description is taken as the title; the caption prefers the user comment.
    if (Buffer.byteLength(description) < 80) meta.title = description;
    meta.caption = userComment(photo.UserComment, exif.bigEndian) || description;
  }
  if (typeof photo.FNumber === "number") meta.aperture = phpFloat(Math.round(photo.FNumber * 100) / 100);
  if (text(image.Artist)) meta.credit = text(image.Artist);
  if (text(image.Model)) meta.camera = text(image.Model);
  if (photo.DateTimeDigitized instanceof Date) meta.created_timestamp = String(Math.floor(photo.DateTimeDigitized.getTime() / 1000));
  if (text(image.Copyright)) meta.copyright = text(image.Copyright);
  if (typeof photo.FocalLength === "number") meta.focal_length = phpFloat(photo.FocalLength);
  const iso = photo.ISOSpeedRatings as unknown;
  if (iso !== undefined) meta.iso = String(Array.isArray(iso) ? iso[0] : iso).trim();
  if (typeof photo.ExposureTime === "number") meta.shutter_speed = phpFloat(photo.ExposureTime);
  return meta;
}

/**
 * Makes the missing sub-sizes of an image from its original (_wp_make_subsizes), writing each
 * file; sizes that would not be smaller than the original are skipped. Returns the keys written.
 */
async function makeSubsizes(
  storage: MediaStorage, meta: AttachmentMetadata, original: { key: string; bytes: Buffer; width: number; height: number }, mimeType: string, wanted: readonly ImageSize[],
): Promise<string[]> {
  const written: string[] = [];
  meta.sizes ??= {};
  if (!EDITABLE_TYPES.has(mimeType)) return written;
  const base = withoutExtension(path.basename(original.key));
  const ext = path.extname(original.key);
  const made = new Map<string, SizeMeta>();
  for (const size of SIZES_IN_CREATION_ORDER) {
    if (!wanted.some((w) => w.name === size.name) || meta.sizes[size.name]) continue;
    const plan = resizeDimensions(original.width, original.height, size.width, size.height, size.crop);
    if (!plan) continue;
    const file = `${base}-${plan.width}x${plan.height}${ext}`;
    let entry = made.get(file);
    if (!entry) {
      const bytes = await resizeImage(original.bytes, mimeType, plan);
      const key = siblingKey(original.key, file);
      await storage.put(key, bytes);
      written.push(key);
      entry = { file, width: plan.width, height: plan.height, "mime-type": mimeType, filesize: bytes.length };
      made.set(file, entry);
    }
    meta.sizes[size.name] = { ...entry };
  }
  return written;
}

/** wp_generate_attachment_metadata for a stored file: dimensions, the "-scaled" copy of a big image, sub-sizes. */
async function generateMetadata(storage: MediaStorage, key: string, bytes: Buffer, mimeType: string, image: ImageInfo | null): Promise<{ meta: AttachmentMetadata; written: string[] }> {
  if (!image || !mimeType.startsWith("image/")) return { meta: { filesize: bytes.length }, written: [] };
  const meta: AttachmentMetadata = { width: image.width, height: image.height, file: key, filesize: bytes.length, sizes: {}, image_meta: imageMetaOf(image) };
  const written: string[] = [];
  if (!EDITABLE_TYPES.has(mimeType)) return { meta, written };
  // A photo taken sideways (EXIF orientation other than 1; PNGs excepted, as in WordPress) is shown and sized upright.
  let upright = { bytes, width: image.width, height: image.height };
  const rotated = mimeType !== "image/png" && (image.orientation ?? 1) > 1;
  if (rotated) upright = await uprightImage(bytes, mimeType);
  // The attachment then shows a "-scaled" copy of a big image, or the "-rotated" one; `original_image` names the upload.
  const replacement = upright.width > BIG_IMAGE_THRESHOLD || upright.height > BIG_IMAGE_THRESHOLD
    ? { suffix: "scaled", ...await scaleDown(upright.bytes, mimeType, upright.width, upright.height) }
    : rotated ? { suffix: "rotated", ...upright } : null;
  if (replacement) {
    const replacementKey = siblingKey(key, `${withoutExtension(path.basename(key))}-${replacement.suffix}${path.extname(key)}`);
    await storage.put(replacementKey, replacement.bytes);
    written.push(replacementKey);
    Object.assign(meta, { width: replacement.width, height: replacement.height, file: replacementKey, filesize: replacement.bytes.length, original_image: path.basename(key) });
  }
  written.push(...await makeSubsizes(storage, meta, { key, ...upright }, mimeType, IMAGE_SIZES));
  return { meta, written };
}

/** Attachment slugs are unique across every post type (wp_unique_post_slug). */
async function uniqueSlug(tx: Prisma.TransactionClient, wanted: string, exceptId: number): Promise<string> {
  const base = sanitizeTitle(wanted);
  if (base === "") return "";
  await lockUntilCommit(tx, `slug:${base}`);
  const taken = new Set((await tx.post.findMany({ where: { slug: { startsWith: base }, id: { not: exceptId } }, select: { slug: true } })).map((p) => p.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

async function resolveDates(input: MediaInput, clock: SiteClock): Promise<{ local: Date; gmt: Date } | null> {
  let result: { local: Date; gmt: Date } | null = null;
  for (const [value, isGmt] of [[input.date, false], [input.dateGmt, true]] as const) {
    if (value === undefined || value === null) continue;
    const parsed = parseWpDate(value, clock, isGmt);
    if (!parsed) fail("rest_invalid_date");
    result = parsed!;
  }
  return result;
}

/** A featured image must be an image attachment (set_post_thumbnail). */
async function isFeaturableImage(ctx: ContentContext, id: number): Promise<boolean> {
  const media = await ctx.loaders.post.load(id);
  return media?.type === TYPE && media.mimeType.startsWith("image/");
}

async function checkParentType(ctx: ContentContext, post: number | null | undefined): Promise<void> {
  if (!post) return;
  const parent = await ctx.loaders.post.load(post);
  if (parent && (parent.type === "revision" || parent.type === TYPE)) fail("rest_invalid_param", { message: "Invalid parent type." });
}

async function checkAuthor(ctx: ContentContext, author: number | null | undefined, current?: number): Promise<void> {
  if (author === undefined || author === null || author === current) return;
  if (!(await ctx.loaders.user.load(author))) fail("rest_invalid_author");
}

interface NewAttachment {
  /** Storage key of the uploaded file (the guid's address; a big image's -scaled copy becomes the attached file). */
  key: string; mimeType: string; meta: AttachmentMeta; title: string; content: string; excerpt: string;
  parentId: number; authorId: number; input: MediaInput;
}

/** Inserts the attachment row (one transaction: the row and its slug). */
async function insertAttachment(ctx: ContentContext, storage: MediaStorage, a: NewAttachment): Promise<Post> {
  const { clock, options } = await ctx.site();
  const now = wholeSeconds(new Date());
  const dates = (await resolveDates(a.input, clock)) ?? { local: clock.toLocal(now), gmt: now };
  const post = await ctx.prisma.$transaction(async (tx) => {
    const slug = await uniqueSlug(tx, a.input.slug ?? a.title, 0);
    let row = await tx.post.create({
      data: {
        type: TYPE, status: attachmentStatus(a.input.status), slug, title: a.title, content: a.content, excerpt: a.excerpt,
        authorId: a.authorId, date: dates.local, dateGmt: dates.gmt, modified: clock.toLocal(now), modifiedGmt: now,
        parentId: a.parentId, commentStatus: a.input.commentStatus ?? options.default_comment_status,
        // Attachments do not support trackbacks, so pings start closed (get_default_comment_status).
        pingStatus: a.input.pingStatus ?? "closed", template: a.input.template ?? "",
        featuredMedia: a.input.featuredMedia ?? 0, mimeType: a.mimeType, guid: storage.url(a.key),
        meta: a.meta,
      },
    });
    // A title with nothing sluggable gets the id as its slug, as wp_insert_post does.
    if (slug === "") row = await tx.post.update({ where: { id: row.id }, data: { slug: await uniqueSlug(tx, String(row.id), row.id) } });
    return row;
  });
  ctx.loaders.post.prime(post.id, post);
  return post;
}

const deleteKeys = (storage: MediaStorage, keys: string[]) => Promise.all(keys.map((k) => storage.delete(k).catch(() => undefined)));

/** Uploads a file and creates its attachment (POST /media): permissions, upload checks, file, sizes, row. */
export async function createMedia(ctx: ContentContext, file: MediaFileInput, input: MediaInput): Promise<Post> {
  const viewer = ctx.viewer;
  // create_item_permissions_check, in WordPress's order.
  if (input.author !== undefined && input.author !== null && input.author !== viewer?.id && !canEditOthers(viewer, TYPE)) {
    refuse(ctx, "rest_cannot_edit_others", "Sorry, you are not allowed to create posts as this user.");
  }
  if (!canUploadFiles(viewer)) refuse(ctx, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.");
  if (input.post) {
    const parent = await ctx.loaders.post.load(input.post);
    if (!parent || !canEditPost(viewer, parent)) refuse(ctx, "rest_cannot_edit", "Sorry, you are not allowed to upload media to this post.");
  }
  checkInput(input);
  await checkParentType(ctx, input.post);
  const received = await receiveFile(file);
  await checkAuthor(ctx, input.author, viewer!.id);
  const { clock } = await ctx.site();
  await resolveDates(input, clock);
  // Checked before anything is written, so a refused create leaves no file or row behind.
  if (input.featuredMedia && !(await isFeaturableImage(ctx, input.featuredMedia))) fail("rest_invalid_featured_media");

  // The current month's folder, even when attached to an older post (WordPress 6.1's REST upload, recording seed 12).
  const storage = mediaStorage(ctx.config);
  const key = await storeUnique(storage, monthFolder(clock.toLocal(new Date())), received.name, received.bytes);
  const written = [key];
  try {
    const generated = await generateMetadata(storage, key, received.bytes, received.mimeType, received.image);
    written.push(...generated.written);
    // Title: the request's, else the EXIF one (unless it would make a numeric slug), else the file name without its extension.
    const exifTitle = generated.meta.image_meta?.title.trim() ?? "";
    const title = input.title || (exifTitle && !/^\d+$/.test(sanitizeTitle(exifTitle)) ? exifTitle : "")
      || withoutExtension(received.titleFromClientName ? received.clientName : path.basename(key));
    return await insertAttachment(ctx, storage, {
      key, mimeType: received.mimeType, title, content: input.description ?? "", excerpt: input.caption || generated.meta.image_meta?.caption.trim() || "",
      parentId: input.post ?? 0, authorId: input.author ?? viewer!.id, input,
      meta: {
        _wp_attached_file: generated.meta.file ?? key, _wp_attachment_metadata: generated.meta,
        ...(input.altText !== undefined && input.altText !== null ? { _wp_attachment_image_alt: input.altText } : {}),
      },
    });
  } catch (error) {
    await deleteKeys(storage, written);
    throw error;
  }
}

/** Updates an attachment's fields (POST/PUT/PATCH /media/{id}); the file stays as it is. */
export async function updateMedia(ctx: ContentContext, id: number, input: MediaInput): Promise<Post> {
  const existing = await requireAttachment(ctx, id);
  const viewer = ctx.viewer;
  if (!canEditPost(viewer, existing)) refuse(ctx, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.");
  if (input.author !== undefined && input.author !== null && input.author !== viewer?.id && !canEditOthers(viewer, TYPE)) {
    refuse(ctx, "rest_cannot_edit_others", "Sorry, you are not allowed to update posts as this user.");
  }
  checkInput(input);
  await checkParentType(ctx, input.post);
  await checkAuthor(ctx, input.author, existing.authorId);
  const { clock } = await ctx.site();
  const dates = await resolveDates(input, clock);
  // An invalid featured image is ignored on update, as WordPress does.
  const featuredMedia = input.featuredMedia === undefined || input.featuredMedia === null ? existing.featuredMedia
    : input.featuredMedia === 0 || await isFeaturableImage(ctx, input.featuredMedia) ? input.featuredMedia : existing.featuredMedia;
  const now = wholeSeconds(new Date());
  const meta: AttachmentMeta = { ...attachmentMeta(existing) };
  if (input.altText !== undefined && input.altText !== null) meta._wp_attachment_image_alt = input.altText;
  const saved = await ctx.prisma.$transaction(async (tx) => {
    const slug = input.slug !== undefined && input.slug !== null ? (await uniqueSlug(tx, input.slug, id)) || existing.slug : existing.slug;
    return tx.post.update({
      where: { id },
      data: {
        slug, status: attachmentStatus(input.status, existing.status), title: input.title ?? existing.title,
        content: input.description ?? existing.content, excerpt: input.caption ?? existing.excerpt,
        authorId: input.author ?? existing.authorId, parentId: input.post ?? existing.parentId,
        ...(dates ? { date: dates.local, dateGmt: dates.gmt } : {}),
        modified: clock.toLocal(now), modifiedGmt: now,
        commentStatus: input.commentStatus ?? existing.commentStatus, pingStatus: input.pingStatus ?? existing.pingStatus,
        template: input.template ?? existing.template, featuredMedia, meta: meta,
      },
    });
  });
  ctx.loaders.post.clear(id).prime(id, saved);
  return saved;
}

export interface MediaDeleteOutcome { deleted: boolean; previous: Post }

/** Deletes an attachment and its files. There is no media trash (MEDIA_TRASH is off), so `force` is required. */
export async function deleteMedia(ctx: ContentContext, id: number, force: boolean): Promise<MediaDeleteOutcome> {
  const post = await requireAttachment(ctx, id);
  if (!canDeletePost(ctx.viewer, post)) refuse(ctx, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.");
  if (!force) fail("rest_trash_not_supported");
  await ctx.prisma.$transaction([
    // wp_delete_attachment also drops the attachment as anyone's featured image.
    ctx.prisma.post.updateMany({ where: { featuredMedia: id }, data: { featuredMedia: 0 } }),
    ctx.prisma.post.delete({ where: { id } }),
  ]);
  ctx.loaders.post.clear(id);
  await deleteKeys(mediaStorage(ctx.config), ownedKeys(post));
  return { deleted: true, previous: post };
}

/** POST /media/{id}/post-process, action create-image-subsizes: makes the sub-sizes that are missing (wp_update_image_subsizes). */
export async function processMedia(ctx: ContentContext, id: number, action: "CREATE_IMAGE_SUBSIZES"): Promise<Post> {
  const post = await requireAttachment(ctx, id);
  if (!canEditPost(ctx.viewer, post)) refuse(ctx, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.");
  void action; // the only action there is
  if (!post.mimeType.startsWith("image/")) return post;
  const storage = mediaStorage(ctx.config);
  const key = attachedFile(post);
  const originalBytes = key ? await storage.get(originalKey(post)) : null;
  // WordPress ignores a failure here (the file is gone, or not an image) and answers with the attachment.
  if (!originalBytes) return post;
  const image = await readImage(originalBytes);
  if (!image) return post;
  let meta = metadataOf(post);
  if (!meta) {
    meta = (await generateMetadata(storage, key, originalBytes, post.mimeType, image)).meta;
  } else {
    const missing = missingImageSizes(post).map((name) => IMAGE_SIZES.find((s) => s.name === name)!);
    if (missing.length === 0) return post;
    meta = structuredClone(meta);
    const sideways = post.mimeType !== "image/png" && EDITABLE_TYPES.has(post.mimeType) && (image.orientation ?? 1) > 1;
    const source = sideways ? await uprightImage(originalBytes, post.mimeType) : { bytes: originalBytes, width: image.width, height: image.height };
    await makeSubsizes(storage, meta, { key: originalKey(post), ...source }, post.mimeType, missing);
  }
  const saved = await ctx.prisma.post.update({
    where: { id }, data: { meta: { ...attachmentMeta(post), _wp_attached_file: meta.file ?? key, _wp_attachment_metadata: meta } },
  });
  ctx.loaders.post.clear(id).prime(id, saved);
  return saved;
}

/** Registered sizes the image is big enough for but has no file of (wp_get_missing_image_subsizes). */
export function missingImageSizes(post: Post): string[] {
  if (!post.mimeType.startsWith("image/")) return [];
  const meta = metadataOf(post);
  if (!meta) return IMAGE_SIZES.map((s) => s.name);
  const width = meta.width ?? 0, height = meta.height ?? 0;
  return IMAGE_SIZES
    .filter((s) => resizeDimensions(width, height, s.width, s.height, s.crop) !== null)
    .filter((s) => !meta.sizes?.[s.name])
    .map((s) => s.name);
}

// ---- editing ----

export interface MediaModifierInput {
  type: "ROTATE" | "CROP";
  angle?: number | null;
  left?: number | null;
  top?: number | null;
  width?: number | null;
  height?: number | null;
}

export interface MediaEditInput {
  src: string;
  modifiers?: MediaModifierInput[] | null;
  rotation?: number | null;
  x?: number | null;
  y?: number | null;
  width?: number | null;
  height?: number | null;
}

/** Types the media edit route edits. */
const EDIT_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);

/** wp_image_file_matches_image_meta: the src names the attachment's file, its original or one of its sizes. */
function srcMatches(src: string, post: Post, meta: AttachmentMetadata): boolean {
  let pathname: string;
  try { pathname = decodeURIComponent(new URL(src, "http://x").pathname); } catch { return false; }
  const name = path.basename(pathname);
  const names = [path.basename(attachedFile(post)), meta.original_image, ...Object.values(meta.sizes ?? {}).map((s) => s.file)];
  return names.includes(name);
}

function modifiersOf(input: MediaEditInput): ImageEdit[] {
  const missing = (i: number, arg: string, title: string) => {
    const message = `modifiers[${i}] is not a valid ${title}. Reason: ${arg} is a required property of modifiers[${i}][args].`;
    return fail("rest_invalid_param", { message: "Invalid parameter(s): modifiers", data: { params: { modifiers: message }, details: { modifiers: { code: "rest_no_matching_schema", message, data: { position: i } } } } });
  };
  if (input.modifiers !== undefined && input.modifiers !== null) {
    // The REST layer validates these already; GraphQL callers get the same answers.
    if (input.modifiers.length === 0) {
      const message = "modifiers must contain at least 1 item.";
      fail("rest_invalid_param", { message: "Invalid parameter(s): modifiers", data: { params: { modifiers: message }, details: { modifiers: { code: "rest_too_few_items", message, data: null } } } });
    }
    return input.modifiers.map((m, i): ImageEdit => {
      if (m.type === "ROTATE") return { type: "rotate", angle: m.angle ?? missing(i, "angle", "Rotation") };
      for (const arg of ["left", "top", "width", "height"] as const) if (m[arg] === undefined || m[arg] === null) missing(i, arg, "Crop");
      return { type: "crop", left: m.left!, top: m.top!, width: m.width!, height: m.height! };
    });
  }
  const edits: ImageEdit[] = [];
  if (input.rotation) edits.push({ type: "rotate", angle: input.rotation });
  if ([input.x, input.y, input.width, input.height].every((v) => v !== undefined && v !== null)) {
    edits.push({ type: "crop", left: input.x!, top: input.y!, width: input.width!, height: input.height! });
  }
  if (edits.length === 0) fail("rest_image_not_edited");
  return edits;
}

/** The edited copy's name: "{name}-edited.{ext}", an earlier "-edited(-N)" suffix normalised. */
function editedName(originalFile: string): string {
  const ext = path.extname(originalFile);
  const base = withoutExtension(path.basename(originalFile));
  return `${/-edited(-\d+)?$/.test(base) ? base.replace(/-edited(-\d+)?$/, "-edited") : `${base}-edited`}${ext}`;
}

/** POST /media/{id}/edit: rotates/crops the original image and saves the result as a new attachment. */
export async function editMedia(ctx: ContentContext, id: number, input: MediaEditInput): Promise<Post> {
  const viewer = ctx.viewer;
  if (!canUploadFiles(viewer)) refuse(ctx, "rest_cannot_edit_image", "Sorry, you are not allowed to upload media on this site.");
  const post = await requireAttachment(ctx, id);
  if (!canEditPost(viewer, post)) refuse(ctx, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.");

  const meta = metadataOf(post);
  if (!meta || !attachedFile(post) || !srcMatches(input.src, post, meta)) fail("rest_unknown_attachment");
  if (!EDIT_TYPES.has(post.mimeType)) fail("rest_cannot_edit_file_type");
  const edits = modifiersOf(input);

  const storage = mediaStorage(ctx.config);
  const sourceKey = originalKey(post);
  const source = await storage.get(sourceKey);
  if (!source || !(await readImage(source))) fail("rest_unknown_image_file_type");
  let edited: { bytes: Buffer; width: number; height: number };
  try {
    edited = await editImage(source!, post.mimeType, edits);
  } catch (error) {
    if (error instanceof ImageEditError) fail(error.code, { message: error.message });
    throw error;
  }

  const { clock } = await ctx.site();
  const key = await storeUnique(storage, monthFolder(clock.toLocal(new Date())), editedName(sourceKey), edited.bytes);
  const written = [key];
  try {
    const image = await readImage(edited.bytes);
    const generated = await generateMetadata(storage, key, edited.bytes, post.mimeType, image);
    written.push(...generated.written);
    const newMeta = generated.meta;
    // EXIF fields the edit lost are taken from the original; the orientation is now upright.
    if (newMeta.image_meta && meta!.image_meta) {
      const empty = (v: unknown) => v === "" || v === "0" || (Array.isArray(v) && v.length === 0) || v === undefined;
      const merged: Record<string, unknown> = { ...newMeta.image_meta };
      for (const [field, value] of Object.entries(meta!.image_meta)) if (empty(merged[field]) && !empty(value)) merged[field] = value;
      newMeta.image_meta = merged as ImageMeta;
      if (newMeta.image_meta.orientation !== "0" && newMeta.image_meta.orientation !== "") newMeta.image_meta.orientation = "1";
    }
    newMeta.parent_image = { attachment_id: String(id), file: sourceKey };
    const alt = attachmentMeta(post)._wp_attachment_image_alt;
    return await insertAttachment(ctx, storage, {
      key, mimeType: post.mimeType, title: post.title, content: post.content, excerpt: post.excerpt, parentId: 0, authorId: viewer!.id,
      input: {},
      meta: { _wp_attached_file: newMeta.file ?? key, _wp_attachment_metadata: newMeta, ...(alt ? { _wp_attachment_image_alt: alt } : {}) },
    });
  } catch (error) {
    await deleteKeys(storage, written);
    throw error;
  }
}
