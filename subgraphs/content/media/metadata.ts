// An attachment's file facts as WordPress keeps them in post meta: `_wp_attached_file` (the
// storage key), `_wp_attachment_metadata` (sizes, dimensions, EXIF) and `_wp_attachment_image_alt`.
import path from "node:path/posix";
import type { Post } from "../../../generated/prisma/client.ts";
import { SIZES_IN_CREATION_ORDER } from "./images.ts";

/** One generated sub-size, keys in WordPress's order. */
export type SizeMeta = { file: string; width: number; height: number; "mime-type": string; filesize?: number };

/** wp_read_image_metadata's fields (strings, as WordPress stores them). */
export type ImageMeta = {
  aperture: string; credit: string; camera: string; caption: string; created_timestamp: string; copyright: string;
  focal_length: string; iso: string; shutter_speed: string; title: string; orientation: string; keywords: string[];
};

// Type aliases (not interfaces), so they are JSON values for Prisma.
export type AttachmentMetadata = {
  width?: number;
  height?: number;
  /** Storage key of the file the attachment shows (the "-scaled" copy of a big image). */
  file?: string;
  filesize?: number;
  sizes?: Record<string, SizeMeta>;
  image_meta?: ImageMeta;
  /** File name (same folder) of the uploaded original when a big image was scaled. */
  original_image?: string;
  /** The image an edited copy was made from. */
  parent_image?: { attachment_id: string; file: string };
};

export type AttachmentMeta = {
  _wp_attached_file?: string;
  _wp_attachment_metadata?: AttachmentMetadata;
  _wp_attachment_image_alt?: string;
};

export const attachmentMeta = (post: Post): AttachmentMeta => (post.meta ?? {}) as AttachmentMeta;

/** Storage key of the attachment's file ("2024/05/photo.jpg"). */
export const attachedFile = (post: Post): string => attachmentMeta(post)._wp_attached_file ?? "";

/** The metadata, or null when none was generated. */
export function metadataOf(post: Post): AttachmentMetadata | null {
  const meta = attachmentMeta(post)._wp_attachment_metadata;
  return meta && typeof meta === "object" && Object.keys(meta).length > 0 ? meta : null;
}

const CREATION_ORDER = SIZES_IN_CREATION_ORDER.map((s) => s.name);
const rank = (name: string) => (CREATION_ORDER.includes(name) ? CREATION_ORDER.indexOf(name) : CREATION_ORDER.length);

/**
 * The sub-sizes in the order WordPress makes them (wp_create_image_subsizes' priority, then the
 * registered order). The database's JSON does not keep key order, so it is restored here.
 */
export const sizesInOrder = (meta: AttachmentMetadata): [string, SizeMeta][] =>
  Object.entries(meta.sizes ?? {}).sort(([a], [b]) => rank(a) - rank(b));

/** Storage key of a sibling file (a sub-size or the original) of the attachment's file. */
export const siblingKey = (key: string, file: string): string => {
  const dir = path.dirname(key);
  return dir === "." ? file : `${dir}/${file}`;
};

/** Storage key of the uploaded original (wp_get_original_image_path): the unscaled file when there is one. */
export function originalKey(post: Post): string {
  const key = attachedFile(post);
  const original = metadataOf(post)?.original_image;
  return original ? siblingKey(key, original) : key;
}

/** Every storage key the attachment owns: its file, its original and its sub-sizes. */
export function ownedKeys(post: Post): string[] {
  const key = attachedFile(post);
  if (!key) return [];
  const meta = metadataOf(post);
  const keys = [key, originalKey(post), ...Object.values(meta?.sizes ?? {}).map((s) => siblingKey(key, s.file))];
  return [...new Set(keys)];
}

/** wp_read_image_metadata's defaults (strings: WordPress passes the array through wp_kses_post_deep). */
export const EMPTY_IMAGE_META: ImageMeta = {
  aperture: "0", credit: "", camera: "", caption: "", created_timestamp: "0", copyright: "",
  focal_length: "0", iso: "0", shutter_speed: "0", title: "", orientation: "0", keywords: [],
};
