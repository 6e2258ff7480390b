// Image work with sharp (libvips, prebuilt in its npm package): reading dimensions, WordPress's
// registered sub-sizes and its resize arithmetic (image_resize_dimensions, wp_constrain_dimensions),
// the big-image "-scaled" copy, and the rotate/crop edits of the media edit route.
import type { Sharp, SharpOptions } from "sharp";

/**
 * sharp loads libvips when imported (~20 MB resident and ~0.1 s of a cold start), so it is loaded
 * on the first image: a process that serves no upload or edit never pays for it.
 */
let sharpModule: Promise<typeof import("sharp")> | undefined;
const loadSharp = async () => (await (sharpModule ??= import("sharp"))).default;
const sharp = async (input: Buffer, options?: SharpOptions): Promise<Sharp> => (await loadSharp())(input, options);

export interface ImageSize { name: string; width: number; height: number; crop: boolean }

/** WordPress's registered sizes (add_image_size defaults, including the two added in 5.3). */
export const IMAGE_SIZES: readonly ImageSize[] = [
  { name: "thumbnail", width: 150, height: 150, crop: true },
  { name: "medium", width: 300, height: 300, crop: false },
  { name: "medium_large", width: 768, height: 0, crop: false },
  { name: "large", width: 1024, height: 1024, crop: false },
  { name: "1536x1536", width: 1536, height: 1536, crop: false },
  { name: "2048x2048", width: 2048, height: 2048, crop: false },
];

/** wp_create_image_subsizes makes these first, so the metadata lists them in this order. */
const PRIORITY = ["medium", "large", "thumbnail", "medium_large"];
export const SIZES_IN_CREATION_ORDER: readonly ImageSize[] = [...IMAGE_SIZES].sort((a, b) => {
  const rank = (s: ImageSize) => (PRIORITY.includes(s.name) ? PRIORITY.indexOf(s.name) : PRIORITY.length + IMAGE_SIZES.indexOf(s));
  return rank(a) - rank(b);
});

/** Images above this width or height get a "-scaled" copy that becomes the attachment's file (big_image_size_threshold). */
export const BIG_IMAGE_THRESHOLD = 2560;

/** Types WordPress's image editors resize and edit. */
export const EDITABLE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);

const fuzzyMatch = (a: number, b: number) => Math.abs(a - b) <= 1;

/** PHP's round(): halves away from zero (Math.round rounds -0.5 up). */
export const phpRound = (n: number): number => Math.sign(n) * Math.round(Math.abs(n));

/** wp_constrain_dimensions: fits width × height inside a box (0 = unbounded), keeping the ratio. */
export function constrainDimensions(width: number, height: number, maxWidth: number, maxHeight: number): [number, number] {
  if (!maxWidth && !maxHeight) return [width, height];
  let widthRatio = 1, heightRatio = 1, didWidth = false, didHeight = false;
  if (maxWidth > 0 && width > 0 && width > maxWidth) { widthRatio = maxWidth / width; didWidth = true; }
  if (maxHeight > 0 && height > 0 && height > maxHeight) { heightRatio = maxHeight / height; didHeight = true; }
  const smaller = Math.min(widthRatio, heightRatio);
  const larger = Math.max(widthRatio, heightRatio);
  const ratio = phpRound(width * larger) > maxWidth || phpRound(height * larger) > maxHeight ? smaller : larger;
  let w = Math.max(1, phpRound(width * ratio));
  let h = Math.max(1, phpRound(height * ratio));
  // Rounding can leave a side one pixel short of the box; WordPress bumps it up.
  if (didWidth && w === maxWidth - 1) w = maxWidth;
  if (didHeight && h === maxHeight - 1) h = maxHeight;
  return [w, h];
}

export interface ResizePlan { srcX: number; srcY: number; srcWidth: number; srcHeight: number; width: number; height: number }

/** image_resize_dimensions: the source rectangle and output size, or null when the size would not be smaller. */
export function resizeDimensions(origWidth: number, origHeight: number, destWidth: number, destHeight: number, crop: boolean): ResizePlan | null {
  if (origWidth <= 0 || origHeight <= 0 || (destWidth <= 0 && destHeight <= 0)) return null;
  let plan: ResizePlan;
  if (crop) {
    const aspect = origWidth / origHeight;
    let newWidth = Math.min(destWidth, origWidth);
    let newHeight = Math.min(destHeight, origHeight);
    if (!newWidth) newWidth = phpRound(newHeight * aspect);
    if (!newHeight) newHeight = phpRound(newWidth / aspect);
    const sizeRatio = Math.max(newWidth / origWidth, newHeight / origHeight);
    const cropWidth = phpRound(newWidth / sizeRatio);
    const cropHeight = phpRound(newHeight / sizeRatio);
    plan = {
      srcX: Math.floor((origWidth - cropWidth) / 2), srcY: Math.floor((origHeight - cropHeight) / 2),
      srcWidth: cropWidth, srcHeight: cropHeight, width: newWidth, height: newHeight,
    };
  } else {
    const [width, height] = constrainDimensions(origWidth, origHeight, destWidth, destHeight);
    plan = { srcX: 0, srcY: 0, srcWidth: origWidth, srcHeight: origHeight, width, height };
  }
  // Virtually the original's size: not worth a file.
  if (fuzzyMatch(plan.width, origWidth) && fuzzyMatch(plan.height, origHeight)) return null;
  return plan;
}

export interface ImageInfo { width: number; height: number; mimeType: string; orientation: number | undefined; exif?: Buffer }

const FORMAT_MIME: Record<string, string> = {
  jpeg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp", heif: "image/avif", tiff: "image/tiff",
};

/** Dimensions and real type of image bytes; null when they are not an image sharp can read. */
export async function readImage(bytes: Buffer): Promise<ImageInfo | null> {
  const create = await loadSharp(); // outside the try: a broken install is not "not an image"
  try {
    const meta = await create(bytes).metadata();
    if (!meta.width || !meta.height || !meta.format) return null;
    const mimeType = meta.format === "heif" ? (meta.compression === "av1" ? "image/avif" : "image/heic") : FORMAT_MIME[meta.format];
    if (!mimeType) return null;
    return { width: meta.width, height: meta.height, mimeType, orientation: meta.orientation, exif: meta.exif };
  } catch {
    return null;
  }
}

/** Encodes in the attachment's own format, with WordPress's default qualities. */
function encode(image: Sharp, mimeType: string): Sharp {
  switch (mimeType) {
    case "image/jpeg": return image.jpeg({ quality: 82 });
    case "image/png": return image.png({ compressionLevel: 9, adaptiveFiltering: true });
    case "image/gif": return image.gif();
    case "image/webp": return image.webp({ quality: 86 });
    case "image/avif": return image.avif({ quality: 50 });
    default: throw new Error(`Cannot encode ${mimeType}`);
  }
}

/** One resized copy, following a plan from resizeDimensions. */
export async function resizeImage(bytes: Buffer, mimeType: string, plan: ResizePlan): Promise<Buffer> {
  const image = (await sharp(bytes))
    .extract({ left: plan.srcX, top: plan.srcY, width: plan.srcWidth, height: plan.srcHeight })
    .resize(plan.width, plan.height, { fit: "fill" });
  return encode(image, mimeType).toBuffer();
}

/** The image turned upright by its EXIF orientation (which the copy then drops). */
export async function uprightImage(bytes: Buffer, mimeType: string): Promise<{ bytes: Buffer; width: number; height: number }> {
  const { data, info } = await encode((await sharp(bytes)).rotate(), mimeType).toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

/** The "-scaled" copy of a big image: fitted into the threshold box. */
export async function scaleDown(bytes: Buffer, mimeType: string, width: number, height: number): Promise<{ bytes: Buffer; width: number; height: number }> {
  const [w, h] = constrainDimensions(width, height, BIG_IMAGE_THRESHOLD, BIG_IMAGE_THRESHOLD);
  return { bytes: await encode((await sharp(bytes)).resize(w, h, { fit: "fill" }), mimeType).toBuffer(), width: w, height: h };
}

export type ImageEdit = { type: "rotate"; angle: number } | { type: "crop"; left: number; top: number; width: number; height: number };

export class ImageEditError extends Error {
  constructor(readonly code: "rest_image_rotation_failed" | "rest_image_crop_failed", message: string) { super(message); }
}

interface RawImage { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 }

const raw = async (image: Sharp): Promise<RawImage> => {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
};
const load = (r: RawImage) => sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels } });

/**
 * Applies edits in order, each on the result of the one before (as WordPress's editor does), and
 * encodes the result in the original's format. Crop values are percentages of the current size.
 */
export async function editImage(bytes: Buffer, mimeType: string, edits: ImageEdit[]): Promise<{ bytes: Buffer; width: number; height: number }> {
  // Edits start from the upright image: WordPress resets the copy's EXIF orientation to 1.
  let current = await raw((await sharp(bytes)).rotate().ensureAlpha());
  for (const edit of edits) {
    if (edit.type === "rotate") {
      if (edit.angle === 0) continue;
      try {
        // Clockwise, on a transparent background for angles that are not right angles.
        current = await raw((await load(current)).rotate(edit.angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } }));
      } catch {
        throw new ImageEditError("rest_image_rotation_failed", "Unable to rotate this image.");
      }
    } else {
      const left = phpRound((current.width * edit.left) / 100);
      const top = phpRound((current.height * edit.top) / 100);
      // Parts of the rectangle outside the image are dropped (Imagick's behaviour).
      const width = Math.min(phpRound((current.width * edit.width) / 100), current.width - left);
      const height = Math.min(phpRound((current.height * edit.height) / 100), current.height - top);
      if (left < 0 || top < 0 || width < 1 || height < 1) throw new ImageEditError("rest_image_crop_failed", "Unable to crop this image.");
      current = await raw((await load(current)).extract({ left, top, width, height }));
    }
  }
  const out = await encode(await load(current), mimeType).toBuffer();
  return { bytes: out, width: current.width, height: current.height };
}
