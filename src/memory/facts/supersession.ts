import { rankingWords, type FactRecord, type ScoredFact } from '../../store/facts.js';
import { conflictingSpecifics, mentionsAll, specificKind, specificsOf, substitutesValue } from './specifics.js';

// Which active facts a correction retires (issue 15): the same subject's same attribute, and the
// restatements of the value it replaces, never a sibling attribute of the same entity. A fact
// states its subject and attribute when the client or the extraction model said; otherwise they
// are derived from its words: its frame (what it says, less names, numbers and dates) and keys.

// Words that mark a statement as a correction and say nothing about the attribute.
const CORRECTION_WORDS: ReadonlySet<string> = new Set('actually correction corrected update updated now instead anymore longer wrong mistake sorry fact'.split(' '));
// Of those, the ones that say a statement corrects something whatever its tag ("Actually, …",
// "Update: …", "…, sorry"): a client or model tags a correction FACT as often as not. Not "now" or
// "instead", which also state a plain change of plan.
const CORRECTION_MARKERS: ReadonlySet<string> = new Set('actually correction corrected update updated wrong mistake sorry'.split(' '));

/** Whether a statement is a correction: tagged so, or worded as one. */
export function readsAsCorrection(fact: Pick<FactRecord, 'tag' | 'text'>): boolean {
  return fact.tag === 'CORRECTION' || rankingWords(fact.text).some((word) => CORRECTION_MARKERS.has(word));
}

// "…is woodworking, not salsa dancing", "no longer in Paris", "doesn't swim anymore", "instead of
// tea", "it used to be the 28th", "I was wrong about May 2: …": the clause naming the value replaced.
const NEGATED_CLAUSE = /\b(?:not|(?:do|does|did)n['’]t|no longer|instead of|rather than|never|used to be|wrong about)\s+([^,.;:!?]+)/giu;
// How much frame overlap (Jaccard, 0-1) counts beside cosine similarity when picking the fact a
// correction corrects: enough to prefer the fact saying the same thing about the entity over a
// sibling that sits as close (the rent against the size), never more than a clear cosine lead.
// Calibrated on the development set (BENCH=memoryQuality).
const FRAME_WEIGHT = 0.25;
// A correction that states a name, number or date replaces a fact stating another of its kind,
// rather than a sibling that states none or another kind ("…car is a Tesla Model 3" corrects
// "…drives a Renault Zoe", not "…car needs new tyres"; "…working on the Kestrel project" corrects
// "…project is called Juniper", not "…project deadline is in June"): such a fact counts this much closer.
const VALUE_WEIGHT = 0.1;
// A fact sharing a key with the correction counts this much closer: clients name keys unevenly, so a
// shared key is evidence, not a condition.
const KEY_WEIGHT = 0.1;

/**
 * Whether two facts are about the same entities: the keys of one are all keys of the other. Sharing
 * one key is not enough to merge: "I owe Clara 20 dollars" (clara, debt) is not "I owe Tom 20
 * dollars" (tom, debt). A restatement may name fewer of them.
 */
export function keysAgree(a: readonly string[], b: readonly string[]): boolean {
  const [fewer, more] = a.length <= b.length ? [a, b] : [b, a];
  const keys = new Set(more.map((key) => key.toLowerCase()));
  return fewer.every((key) => keys.has(key.toLowerCase()));
}

export function sharesKey(a: readonly string[], b: readonly string[]): boolean {
  const keys = new Set(a.map((key) => key.toLowerCase()));
  return b.some((key) => keys.has(key.toLowerCase()));
}

/**
 * Whether two statements about the same entities say something in common beyond naming them: a
 * name, number or date, or a word of what they say ("lives in Paris" and "home is in Paris";
 * "allergic to cats" and "an allergy to cats"). "Our dog Rex is a beagle." and "Our dog Rex sleeps
 * in the kitchen now." name one dog (USE-lite: cosine 0.8) and say two things of it.
 */
export function sharesSubstance(a: { text: string; keys: readonly string[] }, b: { text: string; keys: readonly string[] }): boolean {
  const keys = [...a.keys, ...b.keys];
  const keyWords = new Set(rankingWords(keys.join(' ')));
  const said = (text: string): Set<string> => new Set([...specificsOf(text, keys), ...frameOf(text, keys)].filter((word) => !keyWords.has(word)));
  const saidByB = said(b.text);
  return [...said(a.text)].some((word) => saidByB.has(word));
}

/** What a fact is about, as said (explicit) or derived from its words. */
interface FactAttribute {
  explicit: { subject: string; attribute: string } | undefined;
  frame: ReadonlySet<string>;
}

function normalised(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The words of a text that frame its attribute: its ranking words less names, numbers, dates and correction markers. */
function frameOf(text: string, keys: readonly string[]): Set<string> {
  const specifics = specificsOf(text, keys);
  return new Set(rankingWords(text).filter((word) => !specifics.has(word) && !CORRECTION_WORDS.has(word) && word.length > 1));
}

export function attributeOf(fact: Pick<FactRecord, 'text' | 'subject' | 'attribute'> & { keys: readonly string[] }): FactAttribute {
  const explicit = fact.subject !== null && fact.attribute !== null ? { subject: normalised(fact.subject), attribute: normalised(fact.attribute) } : undefined;
  return { explicit, frame: frameOf(withoutNegatedClauses(fact.text), fact.keys) };
}

/** Whether both facts said what they are about and said different things: siblings, never one the other's update. */
export function explicitlyDifferent(a: FactAttribute, b: FactAttribute): boolean {
  return a.explicit !== undefined && b.explicit !== undefined && (a.explicit.subject !== b.explicit.subject || a.explicit.attribute !== b.explicit.attribute);
}

export function explicitlySame(a: FactAttribute, b: FactAttribute): boolean {
  return a.explicit !== undefined && b.explicit !== undefined && !explicitlyDifferent(a, b);
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const shared = [...a].filter((word) => b.has(word)).length;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

function withoutNegatedClauses(text: string): string {
  return text.replace(NEGATED_CLAUSE, ' ');
}

/** The words of the values a correction says are no longer so ("salsa", "dancing" in "…, not salsa dancing"). */
function negatedWords(text: string): string[] {
  return [...text.matchAll(NEGATED_CLAUSE)].flatMap((match) => rankingWords(match[1]!)).filter((word) => !CORRECTION_WORDS.has(word));
}

/**
 * Whether a fact states what a correction names as replaced: a name, number or date of it, or more
 * than half its words. Half is too little to retire a fact on: "I no longer drive to work" names
 * "work" of "I work as a nurse". `specifics` are the correction's names, numbers and dates.
 */
function statesNegated(fact: FactRecord, negated: readonly string[], specifics: ReadonlySet<string>): boolean {
  const words = new Set(rankingWords(fact.text));
  const named = negated.filter((word) => words.has(word));
  return named.some((word) => specifics.has(word)) || named.length * 2 > negated.length;
}

/**
 * Whether a statement names a name, number or date as the value it replaces ("Spotify bills me on
 * the 9th now, it used to be the 28th."): a correction whatever its tag, of the facts stating that value.
 */
export function namesReplacedSpecific(fact: Pick<FactRecord, 'text' | 'keys'>): boolean {
  // Read in the whole text: a clause's first word opens no sentence ("…, not Paris").
  const specifics = specificsOf(fact.text, fact.keys);
  return [...fact.text.matchAll(NEGATED_CLAUSE)].some((match) => rankingWords(match[1]!).some((word) => specifics.has(word)));
}

/**
 * The words a corrected fact says and its correction does not: the old value ("paris" when "The
 * user lives in Paris." is corrected by "Correction: the user now lives in Berlin."). A clause of
 * the correction naming the old value ("…, not Paris") does not count as the correction saying it.
 */
function oldValueWords(corrected: FactRecord, correction: FactRecord): string[] {
  // Nor do the entity's keys: "dog" is no value of "Our dog Rex is a beagle." (keys rex, dog).
  const kept = new Set([...rankingWords(withoutNegatedClauses(correction.text)), ...rankingWords([...corrected.keys, ...correction.keys].join(' '))]);
  return rankingWords(corrected.text).filter((word) => !kept.has(word) && !CORRECTION_WORDS.has(word));
}

/**
 * The names, numbers and dates a corrected fact states and its correction does not: its old value
 * when it has one ("10am" when "btw pill o'clock is 10am for me." is corrected by "…my meds are at
 * 7am."), which its restatements repeat however they reword the rest ("So, 10am is when I take my pill").
 */
function oldSpecifics(corrected: FactRecord, correction: FactRecord): string[] {
  const kept = specificsOf(withoutNegatedClauses(correction.text), correction.keys);
  return [...specificsOf(corrected.text, corrected.keys)].filter((word) => !kept.has(word) && word !== 'not');
}

/**
 * Whether a fact names at least half of an old value's words: "The user's home is in Paris." restates
 * "The user lives in Paris." even where a paraphrase sits too far from the correction to be retired
 * for its similarity alone. Half, not all: a corrected fact also drops phrasing ("called" in "The
 * user's project is called Atlas."), which a restatement need not repeat.
 */
function namesWords(fact: FactRecord, value: readonly string[]): boolean {
  if (value.length === 0) return false;
  const words = new Set(rankingWords(fact.text));
  return value.filter((word) => words.has(word)).length * 2 >= value.length;
}

/** The cosine similarities a correction is read by (calibration.ts). */
export interface CorrectionThresholds {
  /** At or above: the closest fact is corrected on its similarity alone. */
  supersede: number;
  /** At or above: a fact says what the correction names as replaced, in other words. */
  restatement: number;
}

/** What a correction retires: the ids, and the fact it corrects when it corrects one. */
export interface Corrected {
  retired: string[];
  corrected?: FactRecord;
}

const NOTHING: Corrected = { retired: [] };

/** Whether a fact repeats the value a correction replaces in `corrected`: its old names, numbers and dates, or else its old words. */
function restatesOldValueOf(corrected: FactRecord, correction: FactRecord): (fact: FactRecord) => boolean {
  const specifics = oldSpecifics(corrected, correction);
  return specifics.length > 0 ? (fact) => mentionsAll(fact.text, specifics) : (fact) => namesWords(fact, oldValueWords(corrected, correction));
}

/**
 * What a correction retires among `related`: active facts stated before it, best cosine first.
 */
export function correctedFacts(correction: FactRecord, related: readonly ScoredFact[], thresholds: CorrectionThresholds): Corrected {
  const own = attributeOf(correction);
  const eligible = related
    .map((hit) => ({ ...hit, attribute: attributeOf(hit.fact) }))
    .filter((hit) => !explicitlyDifferent(own, hit.attribute));
  if (eligible.length === 0) return NOTHING;
  const values = specificsOf(correction.text, correction.keys);
  const kinds = new Set([...values].map(specificKind));
  const replacesValue = (fact: FactRecord): boolean => [...specificsOf(fact.text, fact.keys)].some((word) => !values.has(word) && kinds.has(specificKind(word)));
  const fit = (hit: (typeof eligible)[number]): number =>
    hit.score + FRAME_WEIGHT * jaccard(own.frame, hit.attribute.frame) + (replacesValue(hit.fact) ? VALUE_WEIGHT : 0) + (sharesKey(hit.fact.keys, correction.keys) ? KEY_WEIGHT : 0);
  const negated = negatedWords(correction.text);
  // Said to be the same attribute: corrected whatever their similarity. Named as the value replaced:
  // corrected when about as close as a correction sits to what it corrects, since a name also
  // turns up in facts about something else ("…dog is called Pixel, not Olive" beside "On a trip to
  // Oslo the user went to a food market with Olive.").
  const named = eligible.filter(
    (hit) => explicitlySame(own, hit.attribute) || (negated.length > 0 && statesNegated(hit.fact, negated, values) && fit(hit) >= thresholds.supersede),
  );
  // A statement not worded or tagged as a correction corrects only the facts it names as replaced.
  if (named.length === 0 && !readsAsCorrection(correction)) return NOTHING;
  // An episode is one occasion: a correction of it names what it got wrong, and one that names
  // nothing of it is about something else however close it sits ("…stopped the piano lessons" and
  // "…went to a jazz concert").
  const unnamed = eligible.filter((hit) => hit.fact.tag !== 'EPISODE');
  if (named.length === 0 && unnamed.length === 0) return NOTHING;
  const closest = (named.length > 0 ? named : unnamed).reduce((best, hit) => (fit(hit) > fit(best) ? hit : best));
  if (named.length === 0 && fit(closest) < thresholds.supersede) return NOTHING;
  // A correction that says which value it ends ("…no longer drives to work") and finds no fact
  // naming it ends something never stored, unless a fact says it in other words: a fact merely
  // close ("…works as a nurse", cosine 0.51 on USE-lite) is about something else.
  if (named.length === 0 && negated.length > 0 && closest.score < thresholds.restatement) return NOTHING;
  const restatesOldValue = restatesOldValueOf(closest.fact, correction);
  // The closest fact says what kind of thing is corrected: "The user lives in Dublin, not Porto."
  // corrects where the user lives, not the trips to Porto it also names.
  const ofItsKind = (hit: (typeof eligible)[number]): boolean => hit.fact.tag !== 'EPISODE' || closest.fact.tag === 'EPISODE';
  // Found by words, so only among the facts about what the corrected fact is about.
  const aboutIt = (hit: (typeof eligible)[number]): boolean =>
    sharesKey(hit.fact.keys, correction.keys) || sharesKey(hit.fact.keys, closest.fact.keys) || explicitlySame(own, hit.attribute);
  const retired = eligible
    .filter((hit) => hit === closest || (ofItsKind(hit) && (named.includes(hit) || (aboutIt(hit) && restatesOldValue(hit.fact)))))
    .map(({ fact }) => fact.id);
  return { retired, corrected: closest.fact };
}

/**
 * The ids among `near` (active facts stated before the correction, scored by their cosine to the
 * fact it corrected) of the restatements of the replaced value that a key did not tie to it:
 * clients key one fact unevenly ("rent", then "flat" for "I pay 1200 a month for the flat"), and
 * such a restatement, never merged, would stay current. As close to the corrected fact as a
 * restatement sits (`threshold`), and repeating its old value: "I paid 1200 euros for my bike"
 * repeats the number and sits further off (USE-lite: 0.61 against 0.75).
 */
export function restatementsOf(corrected: FactRecord, correction: FactRecord, near: readonly ScoredFact[], threshold: number): string[] {
  const restatesOldValue = restatesOldValueOf(corrected, correction);
  return near
    .filter(({ fact, score }) => score >= threshold && (fact.tag !== 'EPISODE' || corrected.tag === 'EPISODE') && restatesOldValue(fact))
    .map(({ fact }) => fact.id);
}

/**
 * The ids a statement of an attribute's value retires among `related` (active facts stated
 * before it), whatever its tag: the facts said to be about the same subject's same attribute that
 * state another value (another name, number or date, or, stating none, the same sentence with
 * another value in it). A client that names the attribute has said which one the statement sets, so it replaces
 * what was said of it ("Spotify bills me on the 9th now" is no CORRECTION, yet replaces the 28th).
 * A fact worded otherwise with nothing conflicting restates the value and stays current: were it
 * retired, a later correction would find only the siblings to correct.
 */
export function updatedFacts(statement: FactRecord, related: readonly ScoredFact[]): string[] {
  const own = attributeOf(statement);
  if (own.explicit === undefined) return [];
  // Both naming the same names, numbers and dates, they state one value however worded ("The user
  // lives in Porto." and "The user's home is in Porto." differ in their middle words, not their value).
  const statesOther = (fact: FactRecord): boolean =>
    conflictingSpecifics(fact.text, statement.text, [...fact.keys, ...statement.keys]).length > 0 ||
    (specificsOf(fact.text, fact.keys).size === 0 && substitutesValue(fact.text, statement.text));
  return related.filter(({ fact }) => explicitlySame(own, attributeOf(fact)) && statesOther(fact)).map(({ fact }) => fact.id);
}

/** Whether a statement names words of the fact as the value it replaces ("I'm vegan now rather than vegetarian" of "I'm vegetarian."). */
export function namesAsReplaced(text: string, fact: FactRecord): boolean {
  return namesWords(fact, negatedWords(text));
}
