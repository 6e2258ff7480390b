// SEO assessments (yoastseo's free SEO assessor, keyphrase-based) and the overall SEO score.
// "Content words" are the keyphrase's words without function words; quoting the keyphrase asks
// for an exact match. A word matches its simple English inflections (-s, -es, -ed, -ing).
import type { AssessmentResult } from "./readability.ts";
import { FUNCTION_WORDS } from "./english.ts";
import { linkKind, sentencesOf, wordsOf, type TextModel } from "./text.ts";

export interface SeoInput {
  keyphrase: string;
  /** The SEO title as shown in search results (post title when no SEO title is set). */
  title: string;
  metaDescription: string;
  slug: string;
  cornerstone: boolean;
  siteHost: string;
  /** How many other posts already use this keyphrase. */
  previouslyUsed: number;
  /** Pixel width of the title in the search snippet. */
  titleWidth: number;
}

const stem = (w: string) => w.toLowerCase().replace(/['’]s$/, "").replace(/(?:ies)$/, "y").replace(/(?:es|s|ed|ing)$/, "");
const sameWord = (a: string, b: string) => a.toLowerCase() === b.toLowerCase() || (a.length > 3 && b.length > 3 && stem(a) === stem(b));

export interface Keyphrase { raw: string; exact: boolean; words: string[]; content: string[] }

export function parseKeyphrase(raw: string): Keyphrase {
  const trimmed = raw.trim();
  const exact = /^["“].*["”]$/.test(trimmed) && trimmed.length > 2;
  const words = wordsOf(exact ? trimmed.slice(1, -1) : trimmed).map((w) => w.toLowerCase());
  const content = words.filter((w) => !FUNCTION_WORDS.has(w));
  return { raw: trimmed, exact, words, content: content.length ? content : words };
}

/** Whether all content words of the keyphrase occur in a piece of text (or, exact, the phrase itself). */
export function containsKeyphrase(text: string, k: Keyphrase): boolean {
  if (k.words.length === 0) return false;
  const words = wordsOf(text);
  if (k.exact) return ` ${words.map((w) => w.toLowerCase()).join(" ")} `.includes(` ${k.words.join(" ")} `);
  return k.content.every((kw) => words.some((w) => sameWord(w, kw)));
}

const exactPosition = (text: string, k: Keyphrase): number => {
  const words = wordsOf(text).map((w) => w.toLowerCase());
  for (let i = 0; i + k.words.length <= words.length; i++) {
    if (k.words.every((kw, j) => sameWord(words[i + j], kw))) return i;
  }
  return -1;
};

export function keyphraseLength(k: Keyphrase): AssessmentResult {
  const n = k.content.length;
  if (k.words.length === 0) return { id: "keyphraseLength", score: -999, text: "Keyphrase length: No focus keyphrase was set for this page. Set a keyphrase in order to calculate your SEO score." };
  if (n > 8) return { id: "keyphraseLength", score: 3, text: "Keyphrase length: The keyphrase is over the recommended maximum of 4 content words. Make it shorter!" };
  if (n > 4) return { id: "keyphraseLength", score: 6, text: "Keyphrase length: The keyphrase contains more than the recommended maximum of 4 content words. Make it shorter!" };
  return { id: "keyphraseLength", score: 9, text: "Keyphrase length: Good job!" };
}

export function introductionKeyword(model: TextModel, k: Keyphrase): AssessmentResult {
  const first = model.paragraphs[0] ?? "";
  if (sentencesOf(first).some((s) => containsKeyphrase(s, k))) return { id: "introductionKeyword", score: 9, text: "Keyphrase in introduction: Well done!" };
  if (containsKeyphrase(first, k)) return { id: "introductionKeyword", score: 6, text: "Keyphrase in introduction: Your keyphrase or its synonyms appear in the first paragraph of the copy, but not within one sentence. Fix that!" };
  return { id: "introductionKeyword", score: 3, text: "Keyphrase in introduction: Your keyphrase or its synonyms do not appear in the first paragraph. Make sure the topic is clear immediately." };
}

export function keyphraseDensity(model: TextModel, k: Keyphrase): AssessmentResult {
  const words = model.words.length;
  const matches = model.sentences.filter((s) => containsKeyphrase(s, k)).length;
  if (words === 0 || k.words.length === 0) return { id: "keyphraseDensity", score: -50, text: "Keyphrase density: Please add both a keyphrase and some text containing the keyphrase." };
  const density = (matches / words) * 100;
  const text = (what: string) => `Keyphrase density: The keyphrase was found ${matches} time${matches === 1 ? "" : "s"}. ${what}`;
  if (words < 100) {
    const max = words <= 50 ? 1 : 2;
    if (matches === 0) return { id: "keyphraseDensity", score: 4, text: text("That's less than the recommended minimum. Focus on your keyphrase!") };
    if (matches <= max) return { id: "keyphraseDensity", score: 9, text: text("This is great!") };
    return { id: "keyphraseDensity", score: matches === max + 1 ? -10 : -50, text: text("That's more than the recommended maximum. Don't overoptimize!") };
  }
  if (density > 4) return { id: "keyphraseDensity", score: -50, text: text("That's way more than the recommended maximum. Don't overoptimize!") };
  if (density > 3) return { id: "keyphraseDensity", score: -10, text: text("That's more than the recommended maximum. Don't overoptimize!") };
  if (matches === 0 || density < 0.5) return { id: "keyphraseDensity", score: 4, text: text("That's less than the recommended minimum. Focus on your keyphrase!") };
  return { id: "keyphraseDensity", score: 9, text: text("This is great!") };
}

export function metaDescriptionKeyword(input: SeoInput, k: Keyphrase): AssessmentResult {
  const matches = sentencesOf(input.metaDescription).filter((s) => containsKeyphrase(s, k)).length;
  if (!input.metaDescription || k.words.length === 0 || matches === 0) return { id: "metaDescriptionKeyword", score: 3, text: "Keyphrase in meta description: The meta description has been specified, but it does not contain the keyphrase. Fix that!" };
  if (matches > 2) return { id: "metaDescriptionKeyword", score: 3, text: `Keyphrase in meta description: The meta description contains the keyphrase ${matches} times, which is over the advised maximum of 2 times. Limit that!` };
  return { id: "metaDescriptionKeyword", score: 9, text: "Keyphrase in meta description: Keyphrase or synonym appear in the meta description. Well done!" };
}

export function metaDescriptionLength(input: SeoInput): AssessmentResult {
  const n = input.metaDescription.length;
  const weak = input.cornerstone ? 3 : 6;
  if (n === 0) return { id: "metaDescriptionLength", score: 1, text: "Meta description length: No meta description has been specified. Search engines will display copy from the page instead. Make sure to write one!" };
  if (n <= 120) return { id: "metaDescriptionLength", score: weak, text: "Meta description length: The meta description is too short (under 120 characters). Up to 156 characters are available. Use the space!" };
  if (n >= 157) return { id: "metaDescriptionLength", score: weak, text: "Meta description length: The meta description is over 156 characters. To ensure the entire description will be visible, you should reduce the length!" };
  return { id: "metaDescriptionLength", score: 9, text: "Meta description length: Well done!" };
}

export function titleKeyword(input: SeoInput, k: Keyphrase): AssessmentResult {
  if (!input.title || k.words.length === 0) return { id: "keyphraseInSEOTitle", score: 2, text: "Keyphrase in SEO title: Please create an SEO title." };
  const position = exactPosition(input.title, k);
  const leading = wordsOf(input.title).slice(0, Math.max(position, 0)).every((w) => FUNCTION_WORDS.has(w.toLowerCase()));
  if (position >= 0 && leading) return { id: "keyphraseInSEOTitle", score: 9, text: "Keyphrase in SEO title: The exact match of the focus keyphrase appears at the beginning of the SEO title. Good job!" };
  if (position >= 0) return { id: "keyphraseInSEOTitle", score: 6, text: "Keyphrase in SEO title: The exact match of the focus keyphrase appears in the SEO title, but not at the beginning. Move it to the beginning for the best results." };
  if (!k.exact && containsKeyphrase(input.title, k)) return { id: "keyphraseInSEOTitle", score: 6, text: "Keyphrase in SEO title: Does not contain the exact match. Try to write the exact match of your keyphrase in the SEO title and put it at the beginning of the title." };
  return { id: "keyphraseInSEOTitle", score: 2, text: `Keyphrase in SEO title: Not all the words from your keyphrase "${k.raw}" appear in the SEO title. For the best SEO results write the exact match of your keyphrase in the SEO title, and put the keyphrase at the beginning of the title.` };
}

export function titleWidth(input: SeoInput): AssessmentResult {
  if (!input.title) return { id: "titleWidth", score: 1, text: "SEO title width: Please create an SEO title." };
  if (input.titleWidth > 600) return { id: "titleWidth", score: 3, text: "SEO title width: The SEO title is wider than the viewable limit. Try to make it shorter." };
  return { id: "titleWidth", score: 9, text: "SEO title width: Good job!" };
}

export function slugKeyword(input: SeoInput, k: Keyphrase): AssessmentResult {
  const slugWords = input.slug.toLowerCase().split(/[-_\s]+/).filter(Boolean);
  const found = k.content.filter((kw) => slugWords.some((w) => sameWord(w, kw))).length;
  const enough = k.content.length <= 2 ? found === k.content.length : found > k.content.length / 2;
  if (found > 0 && enough) return { id: "slugKeyword", score: 9, text: "Keyphrase in slug: Great work!" };
  if (found > 0) return { id: "slugKeyword", score: input.cornerstone ? 3 : 6, text: "Keyphrase in slug: (Part of) your keyphrase does not appear in the slug. Change that!" };
  return { id: "slugKeyword", score: 3, text: "Keyphrase in slug: (Part of) your keyphrase does not appear in the slug. Change that!" };
}

export function subheadingsKeyword(model: TextModel, k: Keyphrase): AssessmentResult | null {
  const subheadings = model.headings.filter((h) => h.level === 2 || h.level === 3);
  if (subheadings.length === 0) {
    return model.words.length > 300 ? { id: "subheadingsKeyword", score: 2, text: "Keyphrase in subheading: Use more keyphrases or synonyms in your higher-level subheadings!" } : null;
  }
  const share = (subheadings.filter((h) => containsKeyphrase(h.text, k)).length / subheadings.length) * 100;
  if (share >= 30 && share <= 75) return { id: "subheadingsKeyword", score: 9, text: "Keyphrase in subheading: Your higher-level subheadings reflect the topic of your copy. Good job!" };
  return { id: "subheadingsKeyword", score: 3, text: share > 75 ? "Keyphrase in subheading: More than 75% of your higher-level subheadings reflect the topic of your copy. That's too much. Don't over-optimize!" : "Keyphrase in subheading: Use more keyphrases or synonyms in your higher-level subheadings!" };
}

export function competingLinks(model: TextModel, k: Keyphrase): AssessmentResult | null {
  if (model.words.length < 100 || k.words.length === 0) return null;
  const competing = model.links.filter((l) => l.anchor && wordsOf(l.anchor).length === k.words.length && exactPosition(l.anchor, k) === 0);
  return competing.length > 0
    ? { id: "textCompetingLinks", score: 2, text: "Link keyphrase: You're linking to another page with the words you want this page to rank for. Don't do that!" }
    : { id: "textCompetingLinks", score: 8, text: "Link keyphrase: Good job!" };
}

export function imageKeyphrase(model: TextModel, k: Keyphrase, cornerstone: boolean): AssessmentResult {
  const images = model.images.length;
  if (images === 0 || k.words.length === 0) return { id: "imageKeyphrase", score: 3, text: "Image Keyphrase: Images on this page do not have alt attributes that reflect the topic of your text. Add your keyphrase or synonyms to the alt tags of relevant images!" };
  const goodAlt = model.images.filter((img) => {
    const alt = wordsOf(img.alt);
    return k.content.filter((kw) => alt.some((w) => sameWord(w, kw))).length >= k.content.length / 2;
  }).length;
  const none = { id: "imageKeyphrase", score: cornerstone ? 3 : 6, text: "Image Keyphrase: Images on this page do not have alt attributes with at least half of the words from your keyphrase. Fix that!" };
  if (goodAlt === 0) return none;
  if (images >= 5) {
    const share = (goodAlt / images) * 100;
    if (share < 30 || share > 75) return { id: "imageKeyphrase", score: 6, text: `Image Keyphrase: Out of ${images} images on this page, ${goodAlt} have alt attributes that reflect the topic of your text. ${share > 75 ? "That's a bit much. Only include the keyphrase or its synonyms when it really fits the image." : "Add your keyphrase or synonyms to the alt tags of more relevant images!"}` };
  }
  return { id: "imageKeyphrase", score: 9, text: "Image Keyphrase: Good job!" };
}

export function imageCount(model: TextModel): AssessmentResult {
  return model.images.length === 0
    ? { id: "images", score: 3, text: "Images: No images appear on this page. Add some!" }
    : { id: "images", score: 9, text: "Images: Good job!" };
}

export function textLength(model: TextModel, cornerstone: boolean): AssessmentResult {
  const n = model.words.length;
  const text = (advice: string) => `Text length: The text contains ${n} word${n === 1 ? "" : "s"}. ${advice}`;
  if (cornerstone) {
    if (n >= 900) return { id: "textLength", score: 9, text: text("Good job!") };
    if (n >= 400) return { id: "textLength", score: 6, text: text("This is below the recommended minimum of 900 words. Add more content.") };
    return { id: "textLength", score: -20, text: text("This is far below the recommended minimum of 900 words. Add more content.") };
  }
  if (n >= 300) return { id: "textLength", score: 9, text: text("Good job!") };
  if (n >= 250) return { id: "textLength", score: 6, text: text("This is slightly below the recommended minimum of 300 words. Add a bit more copy.") };
  if (n >= 200) return { id: "textLength", score: 3, text: text("This is below the recommended minimum of 300 words. Add more content.") };
  if (n >= 100) return { id: "textLength", score: -10, text: text("This is below the recommended minimum of 300 words. Add more content.") };
  return { id: "textLength", score: -20, text: text("This is far below the recommended minimum of 300 words. Add more content.") };
}

function linkScore(id: string, label: string, links: { nofollow: boolean }[], advice: string): AssessmentResult {
  if (links.length === 0) return { id, score: 3, text: `${label}: No ${label.toLowerCase()} appear in this page. ${advice}` };
  const followed = links.filter((l) => !l.nofollow).length;
  if (followed === 0) return { id, score: 7, text: `${label}: All ${label.toLowerCase()} on this page are nofollowed. Add some good ${label.toLowerCase()}.` };
  if (followed < links.length) return { id, score: 8, text: `${label}: There are both nofollowed and normal ${label.toLowerCase()} on this page. Good job!` };
  return { id, score: 9, text: `${label}: You have enough ${label.toLowerCase()}. Good job!` };
}

export function outboundLinks(model: TextModel, siteHost: string): AssessmentResult {
  return linkScore("externalLinks", "Outbound links", model.links.filter((l) => linkKind(l.href, siteHost) === "external"), "Add some!");
}

export function internalLinks(model: TextModel, siteHost: string): AssessmentResult {
  return linkScore("internalLinks", "Internal links", model.links.filter((l) => linkKind(l.href, siteHost) === "internal"), "Make sure to add some!");
}

export function singleH1(model: TextModel): AssessmentResult | null {
  const h1 = model.headings.filter((h) => h.level === 1).length;
  if (h1 === 0) return null;
  return h1 >= 2
    ? { id: "singleH1", score: 1, text: "Single title: H1s should only be used as your main title. Find all H1s in your text that aren't your main title and change them to a lower heading level!" }
    : { id: "singleH1", score: 8, text: "Single title: Good job!" };
}

export function previouslyUsedKeyphrase(input: SeoInput): AssessmentResult {
  if (input.previouslyUsed > 1) return { id: "keyphraseUsedBefore", score: 1, text: `Previously used keyphrase: You've used this keyphrase ${input.previouslyUsed} times before. Do not use your keyphrase more than once.` };
  if (input.previouslyUsed === 1) return { id: "keyphraseUsedBefore", score: 6, text: "Previously used keyphrase: You've used this keyphrase once before. Do not use your keyphrase more than once." };
  return { id: "keyphraseUsedBefore", score: 9, text: "Previously used keyphrase: You've not used this focus keyphrase before, very good." };
}

export function seoResults(model: TextModel, input: SeoInput): AssessmentResult[] {
  const k = parseKeyphrase(input.keyphrase);
  return [
    introductionKeyword(model, k), keyphraseLength(k), keyphraseDensity(model, k), metaDescriptionKeyword(input, k),
    metaDescriptionLength(input), subheadingsKeyword(model, k), competingLinks(model, k), imageKeyphrase(model, k, input.cornerstone),
    imageCount(model), textLength(model, input.cornerstone), outboundLinks(model, input.siteHost), internalLinks(model, input.siteHost),
    titleKeyword(input, k), titleWidth(input), slugKeyword(input, k), singleH1(model), previouslyUsedKeyphrase(input),
  ].filter((r): r is AssessmentResult => r !== null);
}

/** yoastseo's SEO total: the scores' sum over the maximum (9 each), as a percentage (kept within 1–100 once analysed). */
export function seoScore(results: AssessmentResult[]): number {
  const scored = results.filter((r) => r.text);
  if (scored.length === 0) return 0;
  const total = Math.round((scored.reduce((s, r) => s + r.score, 0) / (scored.length * 9)) * 100);
  return Math.min(100, Math.max(1, total));
}

/**
 * Approximate pixel width of a title in the search snippet (Arial 20 px, Google's desktop
 * title), from per-character classes; yoastseo measures it in the browser, so the measurer is
 * injectable where exact widths matter.
 */
export function approximateTitleWidth(title: string): number {
  let width = 0;
  for (const ch of title) {
    if (/[ijlI.,:;'!|]/.test(ch)) width += 5;
    else if (/[ frt()\-"]/.test(ch)) width += 6.5;
    else if (/[mwMW]/.test(ch)) width += 16.5;
    else if (/[A-Z]/.test(ch)) width += 13;
    else width += 11;
  }
  return Math.round(width);
}
