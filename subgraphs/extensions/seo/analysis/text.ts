// The text model the assessments share (yoastseo's "researches"): HTML reduced to paragraphs,
// sections under subheadings, sentences and words, plus the links, images and headings of the
// markup. Shortcodes, scripts, styles and comments are removed first, as yoastseo does.
import { decodeHTML } from "entities";

export interface Link { href: string; anchor: string; nofollow: boolean }
export interface Image { src: string; alt: string }
export interface Heading { level: number; text: string }

export interface TextModel {
  /** Plain text, block boundaries as blank lines. */
  text: string;
  paragraphs: string[];
  /** Text before the first subheading, then the text under each subheading (H2–H6). */
  sections: string[];
  sentences: string[];
  words: string[];
  headings: Heading[];
  links: Link[];
  images: Image[];
}

const BLOCK = /<\/?(?:p|div|h[1-6]|li|ul|ol|blockquote|pre|table|tr|td|th|section|article|header|footer|figure|figcaption|br)\b[^>]*>/gi;

/** Markup and shortcodes removed (`[caption]…[/caption]` keeps its text), entities decoded. */
export function cleanHtml(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1>/gi, "")
    .replace(/\[\/?[a-zA-Z][\w-]*(?:\s[^\]]*)?\]/g, "");
}

/** Plain text of a fragment: tags dropped, entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  return decodeHTML(cleanHtml(html).replace(BLOCK, " ").replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim();
}

const attr = (tag: string, name: string): string | undefined => {
  const m = tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i"));
  return m ? decodeHTML(m[1] ?? m[2] ?? m[3] ?? "") : undefined;
};

/** Words: runs of letters and digits, with inner apostrophes and hyphens. */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}'’-]*/gu)?.map((w) => w.replace(/['’-]+$/, "")) ?? [];
}

const ABBREVIATIONS = new Set(["mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "inc", "ltd", "co", "no", "fig", "approx", "dept", "est", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]);

/** Sentences of one block of plain text: split after . ! ? … when the next sentence starts, abbreviations kept whole. */
export function sentencesOf(block: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /[.!?…]+["'”’)\]]*(?=\s+|$)/g;
  for (let m = re.exec(block); m; m = re.exec(block)) {
    const end = m.index + m[0].length;
    const before = block.slice(start, m.index);
    const lastWord = before.match(/([\p{L}.]+)$/u)?.[1]?.toLowerCase() ?? "";
    const isAbbreviation = m[0] === "." && (ABBREVIATIONS.has(lastWord) || /^\p{L}$/u.test(lastWord) || /^(?:\p{L}\.)+\p{L}$/u.test(lastWord));
    if (!isAbbreviation) {
      const s = block.slice(start, end).trim();
      if (s) out.push(s);
      start = end;
    }
  }
  const rest = block.slice(start).trim();
  if (rest) out.push(rest);
  return out.filter((s) => wordsOf(s).length > 0);
}

/** The blocks of a body: paragraphs (<p> or blank-line separated text), headings and list items each end a sentence. */
function blocksOf(html: string): { paragraphs: string[]; blocks: string[]; sections: string[] } {
  const cleaned = cleanHtml(html);
  const paragraphs: string[] = [];
  const blocks: string[] = [];
  const sections: string[] = [""];
  // Split the markup at subheadings (H2–H6) into sections, and each section into blocks.
  const parts = cleaned.split(/(<h[2-6]\b[^>]*>[\s\S]*?<\/h[2-6]>)/i);
  for (const part of parts) {
    if (/^<h[2-6]\b/i.test(part)) {
      const heading = plainText(part);
      if (heading) blocks.push(heading);
      sections.push("");
      continue;
    }
    const hasP = /<p\b/i.test(part);
    const pieces = hasP
      ? [...part.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/gi)].map((m) => m[1]).concat(part.replace(/<p\b[^>]*>[\s\S]*?<\/p>/gi, "\n\n").split(/\n\s*\n/))
      : part.split(/\n\s*\n/);
    for (const piece of pieces) {
      for (const block of piece.split(BLOCK)) {
        const text = plainText(block);
        if (!text) continue;
        blocks.push(text);
        sections[sections.length - 1] += ` ${text}`;
      }
      const para = plainText(piece);
      if (para) paragraphs.push(para);
    }
  }
  return { paragraphs, blocks, sections: sections.map((s) => s.trim()).filter((s, i) => i > 0 || s) };
}

export function textModel(html: string): TextModel {
  const { paragraphs, blocks, sections } = blocksOf(html);
  const sentences = blocks.flatMap(sentencesOf);
  const text = paragraphs.join("\n\n");
  const cleaned = cleanHtml(html);
  const headings = [...cleaned.matchAll(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/gi)].map((m) => ({ level: Number(m[1]), text: plainText(m[2]) }));
  const links = [...cleaned.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)].flatMap((m) => {
    const href = attr(m[1], "href");
    return href === undefined ? [] : [{ href, anchor: plainText(m[2]), nofollow: /\bnofollow\b/i.test(attr(m[1], "rel") ?? "") }];
  });
  const images = [...cleaned.matchAll(/<img\b[^>]*>/gi)].map((m) => ({ src: attr(m[0], "src") ?? "", alt: attr(m[0], "alt") ?? "" }));
  return { text, paragraphs, sections, sentences, words: wordsOf(text), headings, links, images };
}

/** English syllables: vowel groups, a silent final e, -es/-ed endings and -le kept, at least one. */
export function syllables(word: string): number {
  let w = word.toLowerCase().replace(/[^a-z]/g, "");
  if (!w) return 0;
  if (w.length <= 3) return 1;
  w = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, (m) => m[0]).replace(/^y/, "");
  const groups = w.match(/[aeiouy]+/g)?.length ?? 0;
  return Math.max(1, groups);
}

/** How a link relates to the site: internal (same host or relative), external (http(s) elsewhere) or other. */
export function linkKind(href: string, siteHost: string): "internal" | "external" | "other" {
  const h = href.trim();
  if (/^(?:mailto|tel|javascript|data|ftp):/i.test(h) || h.startsWith("#") || h === "") return "other";
  if (/^https?:\/\//i.test(h) || h.startsWith("//")) {
    try {
      return new URL(h.startsWith("//") ? `http:${h}` : h).host.toLowerCase() === siteHost.toLowerCase() ? "internal" : "external";
    } catch {
      return "other";
    }
  }
  return /^[a-z][a-z0-9+.-]*:/i.test(h) ? "other" : "internal";
}
