// English language data for the assessments: function words (ignored when matching a
// keyphrase), transition words, and the auxiliaries and irregular participles that mark the
// passive voice. Written for this project after yoastseo's English researches (the rules, not
// its files); the lists are shorter than yoastseo's, so scores can differ slightly on edge cases.

export const FUNCTION_WORDS = new Set((
  "a an the this that these those my your his her its our their some any no every each all both either neither " +
  "of in on at to for with by from about as into onto upon over under between through during before after above below " +
  "and or but nor so yet if then than because while although though whether " +
  "i me you he him she it we us they them who whom whose which what " +
  "is are was were be been being am do does did have has had will would shall should can could may might must " +
  "not very just also too how why when where there here up down out off again further once more most other such only own same"
).split(" "));

/** Single transition words and multi-word transition phrases. */
export const TRANSITION_WORDS = (
  "accordingly additionally afterward afterwards albeit also although altogether another basically because before besides but " +
  "certainly chiefly comparatively concurrently consequently contrarily conversely correspondingly despite doubtedly during " +
  "e.g. earlier emphatically equally especially eventually evidently explicitly finally firstly following formerly forthwith " +
  "fourthly further furthermore generally hence henceforth however i.e. identically indeed initially instead last lastly later " +
  "lest likewise markedly meanwhile moreover nevertheless nonetheless nor notwithstanding obviously occasionally otherwise " +
  "overall particularly presently previously rather regardless secondly shortly significantly similarly simultaneously since " +
  "so soon specifically still straightaway subsequently surely surprisingly than then thereafter therefore thereupon thirdly " +
  "though thus till undeniably undoubtedly unless unlike unquestionably until when whenever whereas while"
).split(" ");

export const TRANSITION_PHRASES = [
  "above all", "after all", "after that", "all in all", "all of a sudden", "all things considered", "as a consequence",
  "as a result", "as can be seen", "as long as", "as much as", "as soon as", "as well as", "at any rate", "at first",
  "at last", "at least", "at the same time", "because of", "by all means", "by and large", "by comparison", "by the same token",
  "by the time", "compared to", "compared with", "due to", "even if", "even so", "even though", "first of all", "for example",
  "for instance", "for one thing", "for that reason", "for the most part", "for this reason", "from time to time",
  "given that", "in addition", "in any case", "in brief", "in conclusion", "in contrast", "in fact", "in general",
  "in other words", "in particular", "in short", "in spite of", "in summary", "in the end", "in the first place",
  "in the meantime", "in the same way", "in this case", "more importantly", "most importantly", "not only", "on the contrary",
  "on the other hand", "on the whole", "so that", "such as", "that is to say", "to begin with", "to conclude", "to illustrate",
  "to sum up", "to summarize", "with this in mind",
];

export const PASSIVE_AUXILIARIES = new Set("am is are was were be been being get gets got gotten getting isn't aren't wasn't weren't".split(" "));

export const IRREGULAR_PARTICIPLES = new Set((
  "arisen awoken born borne beaten become begun bent bet bid bitten bled blown broken bred brought built burnt burst bought " +
  "cast caught chosen clung come cost crept cut dealt dug done drawn dreamt drunk driven eaten fallen fed felt fought found fled " +
  "flung flown forbidden forgotten forgiven frozen given gone ground grown hung heard hidden hit held hurt kept knelt known laid " +
  "led leant leapt learnt left lent let lain lit lost made meant met paid put quit read ridden rung risen run said seen sought " +
  "sold sent set shaken shed shone shot shown shrunk shut sung sunk sat slain slept slid slung spoken spent spun spread sprung " +
  "stood stolen stuck stung stunk struck strung sworn swept swum swung taken taught torn told thought thrown thrust trodden " +
  "understood woken worn woven wed wept won wound written"
).split(" "));

/** Words ending in -ed that are not participles after an auxiliary (adjectives, nouns). */
const NOT_PARTICIPLES = new Set("bed red need seed feed speed shed indeed naked wicked sacred hundred kindred beloved".split(" "));

export const isParticiple = (word: string): boolean => {
  const w = word.toLowerCase();
  return IRREGULAR_PARTICIPLES.has(w) || (/^[a-z]{3,}ed$/.test(w) && !NOT_PARTICIPLES.has(w));
};

/** Words that end a clause: a participle after one of these belongs to another clause. */
export const CLAUSE_BREAKS = new Set("and or but because that which who whom while although though if when where since until unless".split(" "));
