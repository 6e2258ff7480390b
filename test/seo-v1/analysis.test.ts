// The content analysis in-process: text model, readability and SEO assessments at their
// thresholds, and the totals Yoast stores (no server needed).
import { describe, expect, it } from "vitest";
import { analyse } from "../../subgraphs/extensions/seo/analysis/index.ts";
import {
  consecutiveSentences, fleschScore, isPassive, paragraphLength, passiveVoice, readabilityResults, readabilityScore, sentenceLength,
  subheadingDistribution, transitionWords,
} from "../../subgraphs/extensions/seo/analysis/readability.ts";
import {
  containsKeyphrase, imageKeyphrase, internalLinks, introductionKeyword, keyphraseDensity, keyphraseLength, metaDescriptionLength, outboundLinks,
  parseKeyphrase, seoScore, singleH1, slugKeyword, textLength, titleKeyword,
} from "../../subgraphs/extensions/seo/analysis/seo.ts";
import { linkKind, sentencesOf, syllables, textModel } from "../../subgraphs/extensions/seo/analysis/text.ts";
import { bucketOf } from "../../subgraphs/extensions/seo/scores.ts";

const words = (n: number, word = "word") => Array.from({ length: n }, () => word).join(" ");
const para = (n: number) => `<p>${words(n)}.</p>`;
const opts = { cornerstone: false, language: "en" };
const seoInput = (over: Partial<Parameters<typeof titleKeyword>[0]> = {}) => ({
  keyphrase: "garden tools", title: "Garden tools for beginners", metaDescription: "", slug: "garden-tools", cornerstone: false,
  siteHost: "example.test", previouslyUsed: 0, titleWidth: 300, ...over,
});

describe("text model", () => {
  it("splits sentences at terminal punctuation but not after abbreviations", () => {
    expect(sentencesOf("Mr. Smith went home. He slept! Did he? Yes.")).toEqual(["Mr. Smith went home.", "He slept!", "Did he?", "Yes."]);
    expect(sentencesOf("See e.g. the garden. Fine")).toEqual(["See e.g. the garden.", "Fine"]);
  });

  it("reads paragraphs, sections, headings, links and images from markup; scripts and shortcodes are dropped", () => {
    const m = textModel(`<p>One two.</p><script>var x = "no words";</script>[gallery ids="1"]<h2>Part &amp; two</h2><p>Three <a href="https://other.org/" rel="nofollow">four</a>.</p><img src="a.jpg" alt="An alt">`);
    expect(m.paragraphs).toEqual(["One two.", "Three four."]);
    expect(m.headings).toEqual([{ level: 2, text: "Part & two" }]);
    expect(m.sections).toHaveLength(2);
    expect(m.links).toEqual([{ href: "https://other.org/", anchor: "four", nofollow: true }]);
    expect(m.images).toEqual([{ src: "a.jpg", alt: "An alt" }]);
    expect(m.words).toEqual(["One", "two", "Three", "four"]);
  });

  it("classifies links by host", () => {
    expect(linkKind("https://example.test/a", "example.test")).toBe("internal");
    expect(linkKind("/relative", "example.test")).toBe("internal");
    expect(linkKind("https://elsewhere.org/", "example.test")).toBe("external");
    expect(linkKind("mailto:a@b.c", "example.test")).toBe("other");
    expect(linkKind("#top", "example.test")).toBe("other");
  });

  it("counts English syllables", () => {
    expect(syllables("cat")).toBe(1);
    expect(syllables("garden")).toBe(2);
    expect(syllables("beautiful")).toBe(3);
    expect(syllables("table")).toBe(2);
    expect(syllables("hopes")).toBe(1);
  });
});

describe("readability assessments", () => {
  it("paragraph length: ≤150 words good, 151–200 ok, >200 bad", () => {
    expect(paragraphLength(textModel(para(150)))!.score).toBe(9);
    expect(paragraphLength(textModel(para(151)))!.score).toBe(6);
    expect(paragraphLength(textModel(para(201)))!.score).toBe(3);
  });

  it("sentence length: share of sentences over 20 words, 25% and 30% bounds", () => {
    const long = `Word ${words(20)}.`;
    const short = "Short one here.";
    const text = (l: number, s: number) => textModel(`<p>${[...Array(l).fill(long), ...Array(s).fill(short)].join(" ")}</p>`);
    expect(sentenceLength(text(1, 3), opts)!.score).toBe(9); // 25%
    expect(sentenceLength(text(2, 5), opts)!.score).toBe(6); // 28.6%
    expect(sentenceLength(text(1, 2), opts)!.score).toBe(3); // 33%
    expect(sentenceLength(text(1, 4), { cornerstone: true, language: "en" })!.score).toBe(9); // 20% cornerstone
    expect(sentenceLength(text(1, 3), { cornerstone: true, language: "en" })!.score).toBe(6); // 25% cornerstone
  });

  it("subheading distribution: long text without subheadings, and long sections", () => {
    expect(subheadingDistribution(textModel(`${para(140)}${para(140)}`), opts)!.score).toBe(9);
    expect(subheadingDistribution(textModel(`${para(150)}${para(151)}`), opts)!.score).toBe(2);
    expect(subheadingDistribution(textModel(`<h2>A</h2>${para(120)}${para(120)}<h2>B</h2>${para(100)}`), opts)!.score).toBe(9);
    expect(subheadingDistribution(textModel(`<h2>A</h2>${para(140)}${para(140)}${para(40)}<h2>B</h2>${para(10)}`), opts)!.score).toBe(6);
    expect(subheadingDistribution(textModel(`<h2>A</h2>${para(140)}${para(140)}${para(80)}<h2>B</h2>${para(10)}`), opts)!.score).toBe(3);
  });

  it("passive voice: auxiliary plus participle, 10% and 15% bounds", () => {
    expect(isPassive("The cake was eaten by the dog.")).toBe(true);
    expect(isPassive("The house is painted every year.")).toBe(true);
    expect(isPassive("The dog ate the cake.")).toBe(false);
    expect(isPassive("She is happy and walked home.")).toBe(false);
    const text = (p: number, a: number) => textModel(`<p>${[...Array(p).fill("The cake was eaten."), ...Array(a).fill("The dog ate it.")].join(" ")}</p>`);
    expect(passiveVoice(text(1, 9))!.score).toBe(9);
    expect(passiveVoice(text(1, 7))!.score).toBe(6);
    expect(passiveVoice(text(1, 4))!.score).toBe(3);
  });

  it("transition words: only above 200 words; 20% and 30% bounds", () => {
    const plain = "The garden needs water every single day in summer.";
    const linked = "However, the garden needs water every day in summer.";
    const text = (t: number, p: number) => textModel(`<p>${[...Array(t).fill(linked), ...Array(p).fill(plain)].join(" ")}</p>`);
    expect(transitionWords(text(0, 10))!.score).toBe(9); // under 200 words
    expect(transitionWords(text(0, 30))!.score).toBe(3);
    expect(transitionWords(text(6, 24))!.score).toBe(6); // 20%
    expect(transitionWords(text(9, 21))!.score).toBe(9); // 30%
    expect(transitionWords(textModel(`<p>${Array(30).fill("For example the garden needs water every day in summer.").join(" ")}</p>`))!.score).toBe(9);
  });

  it("consecutive sentence beginnings: three in a row is bad", () => {
    expect(consecutiveSentences(textModel("<p>The sun. The moon. The stars.</p>"))!.score).toBe(3);
    expect(consecutiveSentences(textModel("<p>The sun. A moon. The stars.</p>"))!.score).toBe(9);
  });

  it("Flesch reading ease for English", () => {
    expect(fleschScore(textModel("<p>The cat sat on the mat.</p>"))).toBeGreaterThan(100 - 1);
    const hard = fleschScore(textModel("<p>Institutional considerations necessitate comprehensive organizational restructuring initiatives.</p>"))!;
    expect(hard).toBe(0);
  });

  it("the readability total: penalty points become 30, 60 or 90; too little text is 30", () => {
    const r = (s: number) => ({ id: "x", score: s, text: "t" });
    expect(readabilityScore([r(9), r(9), r(9), r(9)], "en")).toBe(90);
    expect(readabilityScore([r(9), r(6), r(6), r(9)], "en")).toBe(90); // 4 points
    expect(readabilityScore([r(3), r(6), r(9), r(9)], "en")).toBe(60); // 5 points
    expect(readabilityScore([r(3), r(3), r(6), r(9)], "en")).toBe(30); // 8 points
    expect(readabilityResults(textModel("<p>Too short.</p>"), opts).map((x) => x.id)).toEqual(["textPresence"]);
    expect(readabilityScore(readabilityResults(textModel("<p>Too short.</p>"), opts), "en")).toBe(30);
  });
});

describe("SEO assessments", () => {
  it("keyphrase length counts content words (function words ignored)", () => {
    expect(keyphraseLength(parseKeyphrase("")).score).toBe(-999);
    expect(keyphraseLength(parseKeyphrase("the best garden tools")).score).toBe(9);
    expect(keyphraseLength(parseKeyphrase("best cheap garden tools online shop")).score).toBe(6);
    expect(keyphraseLength(parseKeyphrase("red blue green yellow purple orange black white pink")).score).toBe(3);
  });

  it("keyphrase matching: word forms, and exact matching for a quoted keyphrase", () => {
    expect(containsKeyphrase("Tools for the garden", parseKeyphrase("garden tools"))).toBe(true);
    expect(containsKeyphrase("Flower tools", parseKeyphrase("garden tools"))).toBe(false);
    expect(containsKeyphrase("Gardens need a tool", parseKeyphrase("garden tools"))).toBe(true);
    expect(containsKeyphrase("Tools for the garden", parseKeyphrase("\"garden tools\""))).toBe(false);
    expect(containsKeyphrase("Our garden tools", parseKeyphrase("\"garden tools\""))).toBe(true);
  });

  it("keyphrase in introduction: one sentence, the paragraph, or not at all", () => {
    const k = parseKeyphrase("garden tools");
    expect(introductionKeyword(textModel("<p>Garden tools help. Rest.</p>"), k).score).toBe(9);
    expect(introductionKeyword(textModel("<p>A garden. Some tools.</p>"), k).score).toBe(6);
    expect(introductionKeyword(textModel("<p>Nothing here.</p><p>Garden tools.</p>"), k).score).toBe(3);
  });

  it("keyphrase density by text length", () => {
    const k = parseKeyphrase("garden tools");
    const body = (matches: number, total: number) => textModel(`<p>${[...Array(matches).fill("Garden tools are fun."), `${words(total - matches * 4)}.`].join(" ")}</p>`);
    expect(keyphraseDensity(body(2, 200), k).score).toBe(9); // 1%
    expect(keyphraseDensity(body(0, 200), k).score).toBe(4);
    expect(keyphraseDensity(body(7, 200), k).score).toBe(-10); // 3.5%
    expect(keyphraseDensity(body(10, 200), k).score).toBe(-50); // 5%
    expect(keyphraseDensity(body(1, 40), k).score).toBe(9);
    expect(keyphraseDensity(body(2, 40), k).score).toBe(-10);
  });

  it("SEO title: exact match at the start, elsewhere, or missing words", () => {
    const k = parseKeyphrase("garden tools");
    expect(titleKeyword(seoInput({ title: "Garden tools for beginners" }), k).score).toBe(9);
    expect(titleKeyword(seoInput({ title: "The garden tools guide" }), k).score).toBe(9);
    expect(titleKeyword(seoInput({ title: "Best garden tools" }), k).score).toBe(6);
    expect(titleKeyword(seoInput({ title: "Tools for your garden" }), k).score).toBe(6);
    expect(titleKeyword(seoInput({ title: "Tools for beginners" }), k).score).toBe(2);
  });

  it("slug, meta description length, text length, images, links, H1", () => {
    const k = parseKeyphrase("garden tools");
    expect(slugKeyword(seoInput({ slug: "garden-tools-guide" }), k).score).toBe(9);
    expect(slugKeyword(seoInput({ slug: "garden-guide" }), k).score).toBe(6);
    expect(slugKeyword(seoInput({ slug: "guide" }), k).score).toBe(3);
    expect(metaDescriptionLength(seoInput({ metaDescription: "" })).score).toBe(1);
    expect(metaDescriptionLength(seoInput({ metaDescription: "x".repeat(120) })).score).toBe(6);
    expect(metaDescriptionLength(seoInput({ metaDescription: "x".repeat(130) })).score).toBe(9);
    expect(metaDescriptionLength(seoInput({ metaDescription: "x".repeat(157) })).score).toBe(6);
    expect(textLength(textModel(para(300)), false).score).toBe(9);
    expect(textLength(textModel(para(299)), false).score).toBe(6);
    expect(textLength(textModel(para(99)), false).score).toBe(-20);
    expect(textLength(textModel(para(899)), true).score).toBe(6);
    expect(imageKeyphrase(textModel('<img src="a" alt="garden tools">'), k, false).score).toBe(9);
    expect(imageKeyphrase(textModel('<img src="a" alt="flowers">'), k, false).score).toBe(6);
    expect(outboundLinks(textModel('<a href="https://x.org">x</a>'), "example.test").score).toBe(9);
    expect(outboundLinks(textModel('<a href="https://x.org" rel="nofollow">x</a>'), "example.test").score).toBe(7);
    expect(internalLinks(textModel('<a href="https://x.org">x</a>'), "example.test").score).toBe(3);
    expect(singleH1(textModel("<h1>a</h1><h1>b</h1>"))!.score).toBe(1);
  });

  it("the SEO total is the share of the maximum: 3, 6, 9 → 67", () => {
    expect(seoScore([3, 6, 9].map((score) => ({ id: "x", score, text: "t" })))).toBe(67);
  });
});

describe("a whole analysis", () => {
  it("scores a well-written post better than a thin one, and only with a keyphrase", () => {
    const good = analyse({
      html: `<p>Garden tools make work easy. However, choose them well.</p><h2>Which garden tools</h2>${Array(8).fill("<p>A spade digs the soil. For example, a rake levels beds. Then a hoe removes weeds quickly. Also, gloves protect your hands.</p>").join("")}<img src="a.jpg" alt="garden tools"><a href="https://example.test/shop/">shop</a> <a href="https://other.org/">guide</a>`,
      title: "Garden tools for beginners", slug: "garden-tools", keyphrase: "garden tools", metaDescription: `Garden tools: ${"x".repeat(120)}`,
      cornerstone: false, language: "en", siteUrl: "http://example.test", previouslyUsed: 0,
    });
    const thin = analyse({ html: "<p>Hi.</p>", title: "Hi", slug: "hi", keyphrase: "garden tools", metaDescription: "", cornerstone: false, language: "en", siteUrl: "http://example.test", previouslyUsed: 2 });
    expect(good.seo!.score).toBeGreaterThan(thin.seo!.score);
    expect(good.readability.score).toBe(90);
    expect(thin.readability.score).toBe(30);
    expect(good.internalLinks).toEqual(["https://example.test/shop/"]);
    expect(analyse({ html: "<p>x</p>", title: "x", slug: "x", keyphrase: " ", metaDescription: "", cornerstone: false, language: "en", siteUrl: "http://example.test", previouslyUsed: 0 }).seo).toBeNull();
  });

  it("buckets stored scores as Yoast does (readability: an analysed 0 is bad)", () => {
    expect(bucketOf("seo", { seoScore: 71, readabilityScore: 0, readingTimeMinutes: null })).toBe("good");
    expect(bucketOf("seo", { seoScore: 70, readabilityScore: 0, readingTimeMinutes: null })).toBe("ok");
    expect(bucketOf("seo", { seoScore: 40, readabilityScore: 0, readingTimeMinutes: null })).toBe("bad");
    expect(bucketOf("seo", { seoScore: null, readabilityScore: 0, readingTimeMinutes: 1 })).toBe("notAnalyzed");
    expect(bucketOf("readability", { seoScore: null, readabilityScore: 0, readingTimeMinutes: 1 })).toBe("bad");
    expect(bucketOf("readability", { seoScore: null, readabilityScore: 0, readingTimeMinutes: null })).toBe("notAnalyzed");
    expect(bucketOf("readability", { seoScore: null, readabilityScore: 90, readingTimeMinutes: 2 })).toBe("good");
  });
});
