// The specifics a fact states — names, numbers, dates and places — which a restatement must repeat
// and a different fact worded alike does not ("I owe Clara 20 dollars" is not "I owe Tom 20
// dollars"; a Saturday hike is not a Sunday hike; 3pm is not 5pm). Embedders score such pairs as
// near-identical. A negation is a specific too: "likes jazz" and "does not like jazz" differ in one word.

const WORD = /[\p{L}\p{N}]+(?:[.,]\d+)*/gu;
const SENTENCE_START = /(?:^|[.!?:;]\s+)([\p{L}\p{N}]+)/gu;
const CAPITALISED = /^\p{Lu}/u;
const NUMBER = /^\d+(?:[.,]\d+)*$/;
// "3pm", "2nd", "5km", "1990s": a number with its unit or suffix written on.
const HAS_DIGIT = /\p{N}/u;
// Dates and numbers in words are specifics however they are written; not "one", a pronoun more
// often than a number ("Random one:", "got a new one"), whose number "two" or "three" still differs from.
const WORDED_SPECIFICS: ReadonlySet<string> = new Set(
  ('monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december ' +
    'zero two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty ' +
    'forty fifty sixty seventy eighty ninety hundred thousand million billion dozen half once twice first second third fourth fifth ' +
    'morning afternoon evening night noon midnight weekday weekend daily weekly monthly yearly yesterday today tomorrow').split(' '),
);
// Any of these, in any form ("doesn't", "no longer"), reads as the one specific "not".
const NEGATION = /\b(?:not|no|never|nothing|none|nobody|neither|nor|without)\b|n['’]t\b/iu;
const NOT = 'not';
// Capitalised only because they open a sentence: never names, even where a key is one of them.
const OPENERS: ReadonlySet<string> = new Set(
  ('a actually also an and as at but correction every for from he her his i in it its last my next no not now on our she since so ' +
    'that the their there these they this today tomorrow update we yesterday you your').split(' '),
);

/** What kind of value a specific states: a number, date or time, or negation (`quantity`), or else a name. */
export function specificKind(word: string): 'quantity' | 'name' {
  return word === NOT || HAS_DIGIT.test(word) || WORDED_SPECIFICS.has(word) ? 'quantity' : 'name';
}

/** "4,800" and "4800" state the same number. */
function normalisedNumber(word: string): string {
  return word.replace(/,(?=\d{3}\b)/g, '');
}

function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map((word) => (NUMBER.test(word) ? normalisedNumber(word) : word));
}

/** Every word of a text, lower-cased, and "not" when it negates anything. */
function wordSet(text: string): Set<string> {
  const words = new Set(wordsOf(text).map((word) => word.toLowerCase()));
  if (NEGATION.test(text)) words.add(NOT);
  return words;
}

/**
 * The names, numbers and dates a text states, lower-cased. A capitalised word opening a sentence
 * ("Small change: …", "Wait, …", "Note to self: …") is a name only on evidence: a key of the fact
 * names it, or the text capitalises it where no sentence opens.
 */
export function specificsOf(text: string, keys: readonly string[] = []): Set<string> {
  const openers = new Set([...text.matchAll(SENTENCE_START)].map((match) => match.index + match[0].length - match[1]!.length));
  const keyWords = new Set(keys.flatMap((key) => wordsOf(key).map((word) => word.toLowerCase())));
  const words: Array<{ raw: string; word: string; opening: boolean }> = [];
  let offset = 0;
  for (const raw of text.match(WORD) ?? []) {
    const at = text.indexOf(raw, offset);
    offset = at + raw.length;
    words.push({ raw, word: raw.toLowerCase(), opening: openers.has(at) });
  }
  const capitalisedInside = new Set(words.filter(({ raw, opening }) => !opening && CAPITALISED.test(raw)).map(({ word }) => word));
  const specifics = new Set<string>();
  for (const { raw, word, opening } of words) {
    if (NUMBER.test(raw)) specifics.add(normalisedNumber(raw));
    else if (HAS_DIGIT.test(raw) || WORDED_SPECIFICS.has(word)) specifics.add(word);
    // "I" is capitalised wherever it stands, and names no one.
    else if (!CAPITALISED.test(raw) || word === 'i') continue;
    else if (!opening || (!OPENERS.has(word) && (keyWords.has(word) || capitalisedInside.has(word)))) specifics.add(word);
  }
  if (NEGATION.test(text)) specifics.add(NOT);
  return specifics;
}

/** Whether a text mentions each of these words (lower-cased, numbers as specificsOf gives them), in any case or place. */
export function mentionsAll(text: string, words: readonly string[]): boolean {
  const mentioned = wordSet(text);
  return words.every((word) => mentioned.has(word));
}

/** The specifics one text states that the other does not mention (`keys`: of either fact): empty when neither contradicts the other. */
export function conflictingSpecifics(a: string, b: string, keys: readonly string[] = []): string[] {
  const wordsA = wordSet(a);
  const wordsB = wordSet(b);
  return [...[...specificsOf(a, keys)].filter((word) => !wordsB.has(word)), ...[...specificsOf(b, keys)].filter((word) => !wordsA.has(word))];
}

// Words that state no value: "a month" and "per month" say one thing.
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  'a an the per each every of in on at to for with by from is are was were be been has have had my your his her their our its this that'.split(' '),
);

/** The pairs of positions of a longest common subsequence of two word lists, in order. */
function commonWords(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  }
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

const statesSomething = (words: readonly string[]): boolean => words.some((word) => !FUNCTION_WORDS.has(word));

/**
 * Whether two texts read as one sentence with one slot filled differently: the same words before
 * and after, other words between ("…prefers green tea in the morning" and "…prefers black coffee in
 * the morning"). A value in lower case is no specific, yet such a pair states two values of one
 * attribute, never one fact twice; a paraphrase rewords around its value instead. Words only added
 * ("…really likes…") are not a second value. An opener or an aside added or swapped at either end
 * ("Oh, and…", "…(long story)") does not hide a slot filled differently inside.
 */
export function substitutesValue(a: string, b: string): boolean {
  const wordsA = wordsOf(a).map((word) => word.toLowerCase());
  const wordsB = wordsOf(b).map((word) => word.toLowerCase());
  // Mostly the same words: two thirds shared is a template, as between shared words below. Less is
  // a paraphrase keeping its subject and value ("The user's favourite drink is black coffee." beside
  // "…prefers to drink black coffee."; "The user is allergic to cats." beside "The user has an allergy to cats.").
  const template = (shared: number): boolean => shared * 3 >= Math.max(wordsA.length, wordsB.length) * 2;
  let prefix = 0;
  while (prefix < wordsA.length && prefix < wordsB.length && wordsA[prefix] === wordsB[prefix]) prefix++;
  let suffix = 0;
  while (suffix < wordsA.length - prefix && suffix < wordsB.length - prefix && wordsA[wordsA.length - 1 - suffix] === wordsB[wordsB.length - 1 - suffix]) suffix++;
  if (statesSomething(wordsA.slice(prefix, wordsA.length - suffix)) && statesSomething(wordsB.slice(prefix, wordsB.length - suffix)) && template(prefix + suffix)) return true;
  // Between the first and the last word they share, the shared words must be two thirds of each:
  // "…is allergic to gluten" and "…has an allergy to gluten" share their ends and reword their middles.
  const pairs = commonWords(wordsA, wordsB);
  if (pairs.length < 2) return false;
  const [firstA, firstB] = pairs[0]!;
  const [lastA, lastB] = pairs[pairs.length - 1]!;
  if (pairs.length * 3 <= Math.max(lastA - firstA + 1, lastB - firstB + 1) * 2) return false;
  // Between two words the texts share, each says something the other does not.
  return pairs.slice(1).some(([i, j], k) => {
    const [before, beforeB] = pairs[k]!;
    return statesSomething(wordsA.slice(before + 1, i)) && statesSomething(wordsB.slice(beforeB + 1, j));
  });
}
