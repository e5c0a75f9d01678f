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
// Dates and numbers in words are specifics however they are written.
const WORDED_SPECIFICS: ReadonlySet<string> = new Set(
  ('monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december ' +
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty ' +
    'forty fifty sixty seventy eighty ninety hundred thousand million billion dozen half once twice first second third fourth fifth ' +
    'morning afternoon evening night noon midnight weekday weekend daily weekly monthly yearly yesterday today tomorrow').split(' '),
);
// Any of these, in any form ("doesn't", "no longer"), reads as the one specific "not".
const NEGATION = /\b(?:not|no|never|nothing|none|nobody|neither|nor|without)\b|n['’]t\b/iu;
const NOT = 'not';
// Capitalised only because they open a sentence: not names.
const OPENERS: ReadonlySet<string> = new Set(
  ('a actually also an and as at but correction every for from he her his i in it its last my next no not now on our she since so ' +
    'that the their there these they this today tomorrow update we yesterday you your').split(' '),
);

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

/** The names, numbers and dates a text states, lower-cased. */
export function specificsOf(text: string): Set<string> {
  const openers = new Set([...text.matchAll(SENTENCE_START)].map((match) => match.index + match[0].length - match[1]!.length));
  const specifics = new Set<string>();
  let offset = 0;
  for (const raw of text.match(WORD) ?? []) {
    const at = text.indexOf(raw, offset);
    offset = at + raw.length;
    const word = raw.toLowerCase();
    if (NUMBER.test(raw)) specifics.add(normalisedNumber(raw));
    else if (HAS_DIGIT.test(raw) || WORDED_SPECIFICS.has(word)) specifics.add(word);
    // "I" is capitalised wherever it stands, and names no one.
    else if (CAPITALISED.test(raw) && word !== 'i' && !(openers.has(at) && OPENERS.has(word))) specifics.add(word);
  }
  if (NEGATION.test(text)) specifics.add(NOT);
  return specifics;
}

/** The specifics one text states that the other does not mention: empty when neither contradicts the other. */
export function conflictingSpecifics(a: string, b: string): string[] {
  const wordsA = wordSet(a);
  const wordsB = wordSet(b);
  return [...[...specificsOf(a)].filter((word) => !wordsB.has(word)), ...[...specificsOf(b)].filter((word) => !wordsA.has(word))];
}

// Words that state no value: "a month" and "per month" say one thing.
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  'a an the per each every of in on at to for with by from is are was were be been has have had my your his her their our its this that'.split(' '),
);

/**
 * Whether two texts read as one sentence with one slot filled differently: the same words before
 * and after, other words between ("…prefers green tea in the morning" and "…prefers black coffee in
 * the morning"). A value in lower case is no specific, yet such a pair states two values of one
 * attribute, never one fact twice; a paraphrase rewords around its value instead. Words only added
 * ("…really likes…") are not a second value.
 */
export function substitutesValue(a: string, b: string): boolean {
  const wordsA = wordsOf(a).map((word) => word.toLowerCase());
  const wordsB = wordsOf(b).map((word) => word.toLowerCase());
  let prefix = 0;
  while (prefix < wordsA.length && prefix < wordsB.length && wordsA[prefix] === wordsB[prefix]) prefix++;
  let suffix = 0;
  while (suffix < wordsA.length - prefix && suffix < wordsB.length - prefix && wordsA[wordsA.length - 1 - suffix] === wordsB[wordsB.length - 1 - suffix]) suffix++;
  const replacedA = wordsA.slice(prefix, wordsA.length - suffix);
  const replacedB = wordsB.slice(prefix, wordsB.length - suffix);
  const statesSomething = (words: readonly string[]): boolean => words.some((word) => !FUNCTION_WORDS.has(word));
  // Mostly the same words: more than half shared is a template. Half or less is a paraphrase keeping
  // only its subject and value ("The user's favourite drink is black coffee." beside "…prefers to drink black coffee.").
  return statesSomething(replacedA) && statesSomething(replacedB) && (prefix + suffix) * 2 > Math.max(wordsA.length, wordsB.length);
}
