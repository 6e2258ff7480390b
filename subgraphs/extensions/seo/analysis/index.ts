// One post's analysis: the readability and SEO assessments over its text model, and the totals
// Yoast stores (content score and linkdex), with the estimated reading time.
import { fleschScore, readabilityResults, readabilityScore, type AssessmentResult } from "./readability.ts";
import { approximateTitleWidth, seoResults, seoScore } from "./seo.ts";
import { linkKind, textModel } from "./text.ts";

export type { AssessmentResult };

export interface AnalysisInput {
  html: string;
  title: string;
  slug: string;
  keyphrase: string;
  metaDescription: string;
  cornerstone: boolean;
  /** Two-letter language of the text (en gets every assessment and Flesch). */
  language: string;
  siteUrl: string;
  previouslyUsed: number;
  /** Measures the SEO title in pixels; approximated from character classes unless given. */
  measureTitle?: (title: string) => number;
}

export interface Analysis {
  readability: { score: number; results: AssessmentResult[] };
  /** null when no focus keyphrase is set (Yoast then stores no SEO score). */
  seo: { score: number; results: AssessmentResult[] } | null;
  fleschReadingEase: number | null;
  wordCount: number;
  /** Minutes, at 200 words a minute, at least 1 for any text. */
  readingTimeMinutes: number;
  internalLinks: string[];
  externalLinks: string[];
}

export const WORDS_PER_MINUTE = 200;

export function analyse(input: AnalysisInput): Analysis {
  const model = textModel(input.html);
  const siteHost = new URL(input.siteUrl).host;
  const readability = readabilityResults(model, { cornerstone: input.cornerstone, language: input.language });
  const seo = input.keyphrase.trim()
    ? seoResults(model, {
      keyphrase: input.keyphrase, title: input.title, metaDescription: input.metaDescription, slug: input.slug,
      cornerstone: input.cornerstone, siteHost, previouslyUsed: input.previouslyUsed,
      titleWidth: (input.measureTitle ?? approximateTitleWidth)(input.title),
    })
    : null;
  return {
    readability: { score: readabilityScore(readability, input.language), results: readability },
    seo: seo ? { score: seoScore(seo), results: seo } : null,
    fleschReadingEase: input.language === "en" ? fleschScore(model) : null,
    wordCount: model.words.length,
    readingTimeMinutes: model.words.length === 0 ? 0 : Math.max(1, Math.ceil(model.words.length / WORDS_PER_MINUTE)),
    internalLinks: model.links.filter((l) => linkKind(l.href, siteHost) === "internal").map((l) => l.href),
    externalLinks: model.links.filter((l) => linkKind(l.href, siteHost) === "external").map((l) => l.href),
  };
}
