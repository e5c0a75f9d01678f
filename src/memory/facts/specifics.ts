// The specifics a fact states — names, numbers, dates and places — which a restatement must repeat
// and a different fact worded alike does not ("I owe Clara 20 dollars" is not "I owe Tom 20
// dollars"; a Saturday hike is not a Sunday hike). Embedders score such pairs as near-identical.

const WORD = /[\p{L}\p{N}]+(?:[.,]\d+)*/gu;
const SENTENCE_START = /(?:^|[.!?:;]\s+)([\p{L}\p{N}]+)/gu;
const CAPITALISED = /^\p{Lu}/u;
const NUMBER = /^\d+(?:[.,]\d+)*$/;
// Dates in words are specifics however they are written.
const CALENDAR_WORDS: ReadonlySet<string> = new Set(
  'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december'.split(' '),
);
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
    else if (CALENDAR_WORDS.has(word)) specifics.add(word);
    else if (CAPITALISED.test(raw) && !(openers.has(at) && OPENERS.has(word))) specifics.add(word);
  }
  return specifics;
}

/** The specifics one text states that the other does not mention: empty when neither contradicts the other. */
export function conflictingSpecifics(a: string, b: string): string[] {
  const wordsA = new Set(wordsOf(a).map((word) => word.toLowerCase()));
  const wordsB = new Set(wordsOf(b).map((word) => word.toLowerCase()));
  return [...[...specificsOf(a)].filter((word) => !wordsB.has(word)), ...[...specificsOf(b)].filter((word) => !wordsA.has(word))];
}
