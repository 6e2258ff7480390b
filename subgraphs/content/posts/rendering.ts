// How stored text becomes `rendered` HTML: a small, faithful subset of WordPress's content
// filters (block comment removal, wpautop, excerpt trimming, sanitize_title).

const BLOCK_COMMENT = new RegExp("<!" + "--\\s+/?wp:[^>]*?--" + ">", "g");
const BLOCK_MARKUP = new RegExp("<!" + "--\\s+wp:");

/** WordPress's wpautop, reduced to what post bodies need: paragraphs and line breaks. */
export function autop(text: string): string {
  if (text.trim() === "") return "";
  const blocks = text.replace(/\r\n?/g, "\n").split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  const blockTag = /^<\/?(p|div|h[1-6]|ul|ol|li|table|blockquote|pre|figure|hr|section|article|aside|header|footer|form|dl|address)\b/i;
  return blocks.map((b) => (blockTag.test(b) ? b : `<p>${b.replace(/\n/g, "<br />\n")}</p>`)).join("\n") + "\n";
}

/** `content.rendered`: block markup is rendered to its inner HTML; classic text gets paragraphs. */
export function renderContent(raw: string): string {
  if (BLOCK_COMMENT.test(raw)) {
    BLOCK_COMMENT.lastIndex = 0;
    return raw.replace(BLOCK_COMMENT, "").replace(/\n{2,}/g, "\n\n");
  }
  return autop(raw);
}

export const renderTitle = (raw: string): string => raw;

const stripTags = (html: string) => html.replace(/<[^>]*>/g, "");

/** `excerpt.rendered`: the stored excerpt, or the first `length` words of the content. */
export function renderExcerpt(rawExcerpt: string, rawContent: string, length = 55): string {
  if (rawExcerpt.trim() !== "") return autop(rawExcerpt);
  const text = stripTags(renderContent(rawContent)).replace(/\s+/g, " ").trim();
  if (text === "") return "";
  const words = text.split(" ");
  const trimmed = words.length > length ? `${words.slice(0, length).join(" ")} [&hellip;]` : text;
  return `<p>${trimmed}</p>\n`;
}

/** WordPress's sanitize_title for slugs: lower-case, accents removed, dashes for the rest. */
export function sanitizeTitle(text: string): string {
  return text
    .normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/&[a-z0-9#]+;/g, "")
    .replace(/[^a-z0-9 _-]/g, "")
    .trim()
    .replace(/[\s_]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Gutenberg's block_version: 1 when the content holds block markup. */
export const blockVersion = (raw: string): number => (BLOCK_MARKUP.test(raw) ? 1 : 0);
