// Readability assessments (yoastseo's content assessor) and the overall readability score.
// Scores follow yoastseo's scale: ≤ 4 bad (red), 5–7 ok (orange), ≥ 8 good (green).
import { CLAUSE_BREAKS, isParticiple, PASSIVE_AUXILIARIES, TRANSITION_PHRASES, TRANSITION_WORDS } from "./english.ts";
import { syllables, wordsOf, type TextModel } from "./text.ts";

export interface AssessmentResult {
  /** yoastseo's assessment identifier (e.g. "textParagraphTooLong"). */
  id: string;
  score: number;
  text: string;
}

export interface ReadabilityOptions { cornerstone: boolean; language: string }

const pct = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);
const round1 = (n: number) => Math.round(n * 10) / 10;

export function subheadingDistribution(model: TextModel, o: ReadabilityOptions): AssessmentResult | null {
  const total = model.words.length;
  const hasSubheadings = model.headings.some((h) => h.level >= 2);
  const noSubheadingLimit = o.cornerstone ? 250 : 300;
  if (!hasSubheadings) {
    if (total > noSubheadingLimit) return { id: "subheadingsTooLong", score: 2, text: "Subheading distribution: You are not using any subheadings, although your text is rather long. Try and add some subheadings." };
    return total > 0 ? { id: "subheadingsTooLong", score: 9, text: "Subheading distribution: You are not using any subheadings, but your text is short enough and probably doesn't need them." } : null;
  }
  const longest = Math.max(...model.sections.map((s) => wordsOf(s).length));
  const [ok, bad] = o.cornerstone ? [250, 300] : [300, 350];
  if (longest > bad) return { id: "subheadingsTooLong", score: 3, text: `Subheading distribution: A section of your text is longer than ${ok} words and is not separated by any subheadings. Add subheadings to improve readability.` };
  if (longest > ok) return { id: "subheadingsTooLong", score: 6, text: `Subheading distribution: A section of your text is longer than ${ok} words and is not separated by any subheadings. Add subheadings to improve readability.` };
  return { id: "subheadingsTooLong", score: 9, text: "Subheading distribution: Great job!" };
}

export function paragraphLength(model: TextModel): AssessmentResult | null {
  if (model.paragraphs.length === 0) return null;
  const longest = Math.max(...model.paragraphs.map((p) => wordsOf(p).length));
  const tooLong = model.paragraphs.filter((p) => wordsOf(p).length > 150).length;
  if (longest > 200) return { id: "textParagraphTooLong", score: 3, text: `Paragraph length: ${tooLong} of the paragraphs contains more than the recommended maximum of 150 words. Shorten your paragraphs!` };
  if (longest > 150) return { id: "textParagraphTooLong", score: 6, text: `Paragraph length: ${tooLong} of the paragraphs contains more than the recommended maximum of 150 words. Shorten your paragraphs!` };
  return { id: "textParagraphTooLong", score: 9, text: "Paragraph length: None of the paragraphs are too long. Great job!" };
}

/** yoastseo's per-language maximum sentence length. */
const SENTENCE_LIMIT: Record<string, number> = { ca: 25, es: 25, fa: 25, it: 25, pt: 25, he: 15, ru: 15, tr: 15 };

export function sentenceLength(model: TextModel, o: ReadabilityOptions): AssessmentResult | null {
  if (model.sentences.length === 0) return null;
  const limit = SENTENCE_LIMIT[o.language] ?? 20;
  const share = pct(model.sentences.filter((s) => wordsOf(s).length > limit).length, model.sentences.length);
  const [good, ok] = o.cornerstone ? [20, 25] : [25, 30];
  const text = `Sentence length: ${round1(share)}% of the sentences contain more than ${limit} words, which is ${share <= good ? "less than or equal to" : "more than"} the recommended maximum of ${good}%.`;
  if (share <= good) return { id: "textSentenceLength", score: 9, text: "Sentence length: Great!" };
  return { id: "textSentenceLength", score: share <= ok ? 6 : 3, text: `${text} Try to shorten the sentences.` };
}

export function consecutiveSentences(model: TextModel): AssessmentResult | null {
  if (model.sentences.length < 3) return null;
  let run = 1;
  let longest = 1;
  let first = "";
  for (let i = 0; i < model.sentences.length; i++) {
    const word = wordsOf(model.sentences[i])[0]?.toLowerCase() ?? "";
    run = i > 0 && word && word === first ? run + 1 : 1;
    first = word;
    longest = Math.max(longest, run);
  }
  return longest >= 3
    ? { id: "sentenceBeginnings", score: 3, text: `Consecutive sentences: The text contains ${longest} consecutive sentences starting with the same word. Try to mix things up!` }
    : { id: "sentenceBeginnings", score: 9, text: "Consecutive sentences: There is enough variety in your sentences. That's great!" };
}

/** A sentence is passive when an auxiliary of "to be"/"to get" is followed, within its clause, by a past participle. */
export function isPassive(sentence: string): boolean {
  const words = wordsOf(sentence).map((w) => w.toLowerCase());
  for (let i = 0; i < words.length; i++) {
    if (!PASSIVE_AUXILIARIES.has(words[i])) continue;
    for (let j = i + 1; j < Math.min(words.length, i + 5); j++) {
      if (CLAUSE_BREAKS.has(words[j])) break;
      if (isParticiple(words[j])) return true;
    }
  }
  return false;
}

export function passiveVoice(model: TextModel): AssessmentResult | null {
  if (model.sentences.length === 0) return null;
  const passive = model.sentences.filter(isPassive).length;
  const share = pct(passive, model.sentences.length);
  if (share <= 10) return { id: "passiveVoice", score: 9, text: "Passive voice: You are not using too much passive voice. That's great!" };
  return { id: "passiveVoice", score: share <= 15 ? 6 : 3, text: `Passive voice: ${round1(share)}% of the sentences contain passive voice, which is more than the recommended maximum of 10%. Try to use their active counterparts.` };
}

const TRANSITION_SET = new Set(TRANSITION_WORDS);
export const hasTransition = (sentence: string): boolean => {
  const lower = ` ${wordsOf(sentence).map((w) => w.toLowerCase()).join(" ")} `;
  return wordsOf(sentence).some((w) => TRANSITION_SET.has(w.toLowerCase())) || TRANSITION_PHRASES.some((p) => lower.includes(` ${p} `));
};

export function transitionWords(model: TextModel): AssessmentResult | null {
  if (model.sentences.length === 0) return null;
  if (model.words.length < 200) return { id: "textTransitionWords", score: 9, text: "Transition words: Well done!" };
  const share = pct(model.sentences.filter(hasTransition).length, model.sentences.length);
  if (share >= 30) return { id: "textTransitionWords", score: 9, text: "Transition words: Well done!" };
  return {
    id: "textTransitionWords", score: share >= 20 ? 6 : 3,
    text: share === 0 ? "Transition words: None of the sentences contain transition words. Use some." : `Transition words: Only ${round1(share)}% of the sentences contain transition words, which is not enough. Use more of them.`,
  };
}

export function textPresence(model: TextModel): AssessmentResult | null {
  return model.text.length < 50 ? { id: "textPresence", score: 3, text: "Not enough content: Please add some content to enable a good analysis." } : null;
}

/** Flesch reading ease (English): 206.835 − 1.015 × words/sentence − 84.6 × syllables/word, 0–100. */
export function fleschScore(model: TextModel): number | null {
  if (model.words.length === 0 || model.sentences.length === 0) return null;
  const syl = model.words.reduce((n, w) => n + syllables(w), 0);
  const score = 206.835 - 1.015 * (model.words.length / model.sentences.length) - 84.6 * (syl / model.words.length);
  return round1(Math.min(100, Math.max(0, score)));
}

export function fleschReadingEase(model: TextModel, o: ReadabilityOptions): AssessmentResult | null {
  if (o.language !== "en") return null;
  const score = fleschScore(model);
  if (score === null) return null;
  const verdict = score >= 90 ? "very easy" : score >= 80 ? "easy" : score >= 70 ? "fairly easy" : score >= 60 ? "ok" : score >= 50 ? "fairly difficult" : score >= 30 ? "difficult" : "very difficult";
  return {
    id: "fleschReadingEase", score: score >= 60 ? 9 : score >= 50 ? 6 : 3,
    text: `Flesch Reading Ease: The copy scores ${score} in the test, which is considered ${verdict} to read.${score < 60 ? " Try to make shorter sentences to improve readability." : " Good job!"}`,
  };
}

/** Languages with every readability assessment (the rest drop passive voice and transition words). */
const FULL_SUPPORT = new Set(["en"]);

export function readabilityResults(model: TextModel, o: ReadabilityOptions): AssessmentResult[] {
  const presence = textPresence(model);
  if (presence) return [presence];
  const full = FULL_SUPPORT.has(o.language);
  return [
    subheadingDistribution(model, o), paragraphLength(model), sentenceLength(model, o), consecutiveSentences(model),
    ...(full ? [passiveVoice(model), transitionWords(model), fleschReadingEase(model, o)] : []),
  ].filter((r): r is AssessmentResult => r !== null);
}

/** yoastseo's content assessor total: penalty points per result, then 30 (bad), 60 (ok) or 90 (good). */
export function readabilityScore(results: AssessmentResult[], language: string): number {
  if (results.length <= 1) return 30;
  const full = FULL_SUPPORT.has(language);
  const penalty = results.reduce((sum, r) => sum + (r.score <= 4 ? (full ? 3 : 4) : r.score <= 7 ? 2 : 0), 0);
  if (full) return penalty > 6 ? 30 : penalty > 4 ? 60 : 90;
  return penalty > 4 ? 30 : penalty > 2 ? 60 : 90;
}
