// Which files may be uploaded and what they are: WordPress's allowed MIME table
// (get_allowed_mime_types) keyed by extension, its file-name sanitizing (sanitize_file_name),
// and the media type groups the media list filters by. WordPress decides a file's type from
// its extension (checking images against their real content), so a table of its own is the
// faithful choice rather than a general MIME database.

/** Extension pattern → MIME type, in WordPress's order (wp_get_mime_types). */
const MIME_TABLE: [string, string][] = [
  // Images.
  ["jpg|jpeg|jpe", "image/jpeg"], ["gif", "image/gif"], ["png", "image/png"], ["bmp", "image/bmp"],
  ["tiff|tif", "image/tiff"], ["webp", "image/webp"], ["avif", "image/avif"], ["ico", "image/x-icon"], ["heic", "image/heic"],
  // Video.
  ["asf|asx", "video/x-ms-asf"], ["wmv", "video/x-ms-wmv"], ["wmx", "video/x-ms-wmx"], ["wm", "video/x-ms-wm"],
  ["avi", "video/avi"], ["divx", "video/divx"], ["flv", "video/x-flv"], ["mov|qt", "video/quicktime"],
  ["mpeg|mpg|mpe", "video/mpeg"], ["mp4|m4v", "video/mp4"], ["ogv", "video/ogg"], ["webm", "video/webm"],
  ["mkv", "video/x-matroska"], ["3gp|3gpp", "video/3gpp"], ["3g2|3gp2", "video/3gpp2"],
  // Text (htm|html is left out: see isAllowed).
  ["txt|asc|c|cc|h|srt", "text/plain"], ["csv", "text/csv"], ["tsv", "text/tab-separated-values"], ["ics", "text/calendar"],
  ["rtx", "text/richtext"], ["css", "text/css"], ["vtt", "text/vtt"], ["dfxp", "application/ttaf+xml"],
  // Audio.
  ["mp3|m4a|m4b", "audio/mpeg"], ["aac", "audio/aac"], ["ra|ram", "audio/x-realaudio"], ["wav", "audio/wav"],
  ["ogg|oga", "audio/ogg"], ["flac", "audio/flac"], ["mid|midi", "audio/midi"], ["wma", "audio/x-ms-wma"],
  ["wax", "audio/x-ms-wax"], ["mka", "audio/x-matroska"],
  // Documents and archives.
  ["rtf", "application/rtf"], ["pdf", "application/pdf"], ["class", "application/java"], ["tar", "application/x-tar"],
  ["zip", "application/zip"], ["gz|gzip", "application/x-gzip"], ["rar", "application/rar"], ["7z", "application/x-7z-compressed"],
  ["psd", "application/octet-stream"], ["xcf", "application/octet-stream"], ["doc", "application/msword"],
  ["pot|pps|ppt", "application/vnd.ms-powerpoint"], ["wri", "application/vnd.ms-write"], ["xla|xls|xlt|xlw", "application/vnd.ms-excel"],
  ["mdb", "application/vnd.ms-access"], ["mpp", "application/vnd.ms-project"],
  ["docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
  ["docm", "application/vnd.ms-word.document.macroEnabled.12"],
  ["dotx", "application/vnd.openxmlformats-officedocument.wordprocessingml.template"],
  ["dotm", "application/vnd.ms-word.template.macroEnabled.12"],
  ["xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
  ["xlsm", "application/vnd.ms-excel.sheet.macroEnabled.12"], ["xlsb", "application/vnd.ms-excel.sheet.binary.macroEnabled.12"],
  ["xltx", "application/vnd.openxmlformats-officedocument.spreadsheetml.template"],
  ["xltm", "application/vnd.ms-excel.template.macroEnabled.12"], ["xlam", "application/vnd.ms-excel.addin.macroEnabled.12"],
  ["pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
  ["pptm", "application/vnd.ms-powerpoint.presentation.macroEnabled.12"],
  ["ppsx", "application/vnd.openxmlformats-officedocument.presentationml.slideshow"],
  ["ppsm", "application/vnd.ms-powerpoint.slideshow.macroEnabled.12"],
  ["potx", "application/vnd.openxmlformats-officedocument.presentationml.template"],
  ["potm", "application/vnd.ms-powerpoint.template.macroEnabled.12"], ["ppam", "application/vnd.ms-powerpoint.addin.macroEnabled.12"],
  ["sldx", "application/vnd.openxmlformats-officedocument.presentationml.slide"],
  ["sldm", "application/vnd.ms-powerpoint.slide.macroEnabled.12"],
  ["onetoc|onetoc2|onetmp|onepkg", "application/onenote"], ["oxps", "application/oxps"], ["xps", "application/vnd.ms-xpsdocument"],
  ["odt", "application/vnd.oasis.opendocument.text"], ["odp", "application/vnd.oasis.opendocument.presentation"],
  ["ods", "application/vnd.oasis.opendocument.spreadsheet"], ["odg", "application/vnd.oasis.opendocument.graphics"],
  ["odc", "application/vnd.oasis.opendocument.chart"], ["odb", "application/vnd.oasis.opendocument.database"],
  ["odf", "application/vnd.oasis.opendocument.formula"], ["wp|wpd", "application/wordperfect"],
  ["key", "application/vnd.apple.keynote"], ["numbers", "application/vnd.apple.numbers"], ["pages", "application/vnd.apple.pages"],
];

const BY_EXTENSION = new Map<string, string>(MIME_TABLE.flatMap(([exts, mime]) => exts.split("|").map((e) => [e, mime] as [string, string])));

/** The allowed MIME type of a file name, by its (last) extension; undefined when not allowed. */
export function mimeTypeOf(filename: string): string | undefined {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? undefined : BY_EXTENSION.get(filename.slice(dot + 1).toLowerCase());
}

/** The media type filter values, in the order the index lists them (seed 000 §4.2, L-media). */
export const MEDIA_TYPES = ["image", "video", "text", "application", "audio"] as const;

/** Every allowed MIME type of a media type group (get_media_types). */
export function mimeTypesOfGroup(group: string): string[] {
  return [...new Set(MIME_TABLE.map(([, mime]) => mime).filter((mime) => mime.split("/")[0] === group))];
}

/** Whether a MIME type is one WordPress allows (the mime_type filter ignores any other). */
export const isAllowedMimeType = (mime: string): boolean => MIME_TABLE.some(([, m]) => m === mime);

/** The extension WordPress gives an image of a real type, when a file's name claims another. */
export const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/avif": "avif", "image/tiff": "tif",
};

const SPECIAL_CHARS = ["?", "[", "]", "/", "\\", "=", "<", ">", ":", ";", ",", "'", "\"", "&", "$", "#", "*", "(", ")", "|", "~", "`", "!",
  "{", "}", "%", "+", "\u2019", "\u00ab", "\u00bb", "\u201d", "\u201c", "\0"];

/** WordPress's sanitize_file_name: drops special characters, dashes for spaces, `_` after inner unknown extensions. */
export function sanitizeFileName(name: string): string {
  let filename = name.normalize("NFC");
  for (const c of SPECIAL_CHARS) filename = filename.split(c).join("");
  filename = filename.replace(/%20|\+/g, "-").replace(/\.{2,}/g, ".").replace(/[\r\n\t -]+/g, "-").replace(/^[.\-_]+|[.\-_]+$/g, "");
  const parts = filename.split(".");
  if (parts.length <= 2) return filename;
  // "photo.php.jpg" → "photo.php_.jpg": an inner extension that could run must not look like one.
  const last = parts.pop()!;
  const first = parts.shift()!;
  return [first, ...parts.map((p) => (/^[a-zA-Z]{2,5}\d?$/.test(p) && !BY_EXTENSION.has(p.toLowerCase()) ? `${p}_` : p)), last].join(".");
}

/** WordPress's "image or file" of an attachment. */
export const mediaTypeOf = (mime: string): "image" | "file" => (mime.startsWith("image/") ? "image" : "file");
