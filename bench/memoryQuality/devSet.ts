import { ATTRIBUTES, generateSilos, pick, seeded, type Statement } from '../memoryData.js';
import type { BenchQuestion, BenchSet, BenchSilo, BenchStatement, QuestionClass } from './benchSet.js';

// The development set (issue 15): bench/memoryData.ts's synthetic users as a BenchSet, the only
// set memory is tuned on. Corrections come in three wordings (the generator's own, one that names
// the old value, one worded like a paraphrase), and about half the statements carry the
// subject/attribute a client may send. Half the restatements come with another key than the
// statement they restate, and each user also corrects things never said before.

const SILOS = 20;
const FIRST_STATEMENT_AT = Date.UTC(2026, 0, 1);
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const HINTED_SHARE = 0.5;
// A restatement keyed otherwise than the statement it restates, as often as this.
const OTHER_KEY_SHARE = 0.5;
const OTHER_KEY: Readonly<Record<string, string>> = {
  home: 'city', employer: 'job', pet: 'dog', drink: 'beverage', car: 'vehicle', sport: 'exercise', allergy: 'health', language: 'studies', project: 'work',
};
// Corrections of things the user never said (a client remembers "I no longer …" without the fact it
// ends having been stored): each must retire nothing, whatever sits closest.
const UNANCHORED_PER_SILO = 2;
const UNANCHORED: ReadonlyArray<{ text: string; keys: string[] }> = [
  { text: 'Correction: the user no longer takes the train to the office.', keys: ['commute'] },
  { text: "The user doesn't go swimming on Sundays anymore.", keys: ['swimming'] },
  { text: 'Update: the user sold the motorbike.', keys: ['motorbike'] },
  { text: 'Actually, the user is not vegetarian any more.', keys: ['diet'] },
  { text: 'Correction: the user stopped the piano lessons.', keys: ['piano'] },
  { text: "The user's sister no longer lives abroad.", keys: ['sister'] },
  { text: 'Correction: the user no longer works night shifts.', keys: ['shifts'] },
  { text: 'The user does not volunteer at the food bank anymore.', keys: ['volunteering'] },
];

type CorrectionWording = 'plain' | 'names-old-value' | 'reworded';

function normalised(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function correctionText(attributeKey: string, value: string, old: string, wording: CorrectionWording): string {
  const attribute = ATTRIBUTES.find((each) => each.key === attributeKey)!;
  if (wording === 'names-old-value') return `${attribute.fact(value).replace(/\.$/, '')}, not ${old}.`;
  if (wording === 'reworded') return `Actually, ${attribute.paraphrase(value).replace(/^The/, 'the')}`;
  return attribute.correction(value);
}

/** The development set: `generateSilos(20, seed)` with its corrections varied and hints on about half. */
export function devSet(seed: number): BenchSet {
  const random = seeded(seed * 7919 + 1);
  const silos = generateSilos(SILOS, seed).map((script, siloIndex): BenchSilo => {
    const oldValueOf = new Map(script.questions.map((question) => [question.attribute, question.oldValues[0]]));
    const wordingOf = new Map<string, CorrectionWording>();
    const restatedBeforeCorrection = new Set<string>();
    const siblings = new Set<string>();
    const fillerSlots = new Map<string, string>();
    const statements = script.statements.map((statement: Statement, i): BenchStatement => {
      const saidAt = new Date(FIRST_STATEMENT_AT + siloIndex * DAY_MS + i * MINUTE_MS).toISOString();
      const hinted = random() < HINTED_SHARE;
      const base = { tag: statement.tag, keys: statement.keys, saidAt };
      if (statement.kind === 'filler') {
        // The generator can repeat an episode word for word: the repeat restates it.
        const known = fillerSlots.get(normalised(statement.text));
        const slot = known ?? `episode/${i}`;
        fillerSlots.set(normalised(statement.text), slot);
        return { ...base, text: statement.text, truth: { slot, value: statement.text, role: known ? 'restatement' : 'filler' } };
      }
      const key = statement.attribute!;
      const hints = (attribute: string) => (hinted ? { subject: 'user', attribute } : {});
      if (statement.kind === 'sibling') {
        siblings.add(key);
        return { ...base, text: statement.text, ...hints(`${key} detail`), truth: { slot: `user/${key}-detail`, value: statement.text, role: 'sibling' } };
      }
      if (statement.kind === 'restatement') restatedBeforeCorrection.add(key);
      // Clients name an entity's keys unevenly from one statement to the next.
      const keys = statement.kind === 'restatement' && random() < OTHER_KEY_SHARE ? [OTHER_KEY[key]!] : statement.keys;
      let text = statement.text;
      if (statement.kind === 'correction') {
        const wording = pick(random, ['plain', 'names-old-value', 'reworded'] as const);
        wordingOf.set(key, wording);
        text = correctionText(key, statement.value!, oldValueOf.get(key)!, wording);
      }
      return { ...base, keys, text, ...hints(key), truth: { slot: `user/${key}`, value: statement.value!, role: statement.kind } };
    });
    const unanchored = [...UNANCHORED].sort(() => random() - 0.5).slice(0, UNANCHORED_PER_SILO);
    for (const [i, { text, keys }] of unanchored.entries()) {
      const saidAt = new Date(FIRST_STATEMENT_AT + siloIndex * DAY_MS + statements.length * MINUTE_MS).toISOString();
      statements.push({ text, tag: 'CORRECTION', keys, saidAt, truth: { slot: `user/unanchored-${i}`, value: text, role: 'correction' } });
    }
    const askedAt = new Date(FIRST_STATEMENT_AT + siloIndex * DAY_MS + statements.length * MINUTE_MS + DAY_MS).toISOString();
    const questions = script.questions.map((question): BenchQuestion => {
      const classes: QuestionClass[] = [];
      const corrected = question.oldValues.length > 0;
      if (corrected) classes.push('corrected');
      const wording = wordingOf.get(question.attribute);
      if (corrected && wording === 'names-old-value') classes.push('correction-names-old-value');
      if (corrected && wording === 'reworded') classes.push('correction-reworded');
      if (corrected && restatedBeforeCorrection.has(question.attribute)) classes.push('restated-before-correction');
      if (siblings.has(question.attribute)) classes.push('has-sibling');
      // Episodes name cities and the pet names: the home and pet questions share their words.
      if (question.attribute === 'home' || question.attribute === 'pet') classes.push('has-lookalike');
      return { question: question.question, askedAt, slot: `user/${question.attribute}`, currentValue: question.currentValue, staleValues: question.oldValues, classes };
    });
    return { silo: script.silo, statements, questions };
  });
  return { name: `dev(seed ${seed})`, silos };
}
