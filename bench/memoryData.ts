import type { FactTag } from '../src/store/facts.js';

// Seeded synthetic memory for the benchmark: users (one silo each) with attributes that are
// stated, restated (verbatim-ish or paraphrased), corrected, and asked about, among filler
// episodes that mention the same places and people.

/** mulberry32: a small seeded PRNG, so every run generates the same data. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

const CITIES = ['Paris', 'Berlin', 'Madrid', 'Lisbon', 'Oslo', 'Vienna', 'Prague', 'Dublin', 'Rome', 'Athens', 'Warsaw', 'Zurich', 'Tallinn', 'Porto', 'Krakow'];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Labs', 'Stark Industries', 'Wayne Enterprises', 'Hooli', 'Pied Piper', 'Vandelay Imports', 'Soylent'];
const NAMES = ['Miso', 'Biscuit', 'Luna', 'Pepper', 'Ziggy', 'Mochi', 'Olive', 'Rocket', 'Noodle', 'Pixel'];
const DRINKS = ['green tea', 'black coffee', 'oat milk lattes', 'sparkling water', 'chai', 'espresso', 'mint tea', 'orange juice'];
const CARS = ['Volvo XC40', 'Toyota Corolla', 'Tesla Model 3', 'Fiat 500', 'Skoda Octavia', 'Renault Zoe', 'Mini Cooper'];
const SPORTS = ['tennis', 'badminton', 'squash', 'volleyball', 'basketball', 'table tennis', 'padel'];
const ALLERGIES = ['peanuts', 'penicillin', 'shellfish', 'pollen', 'cats', 'latex', 'gluten'];
const LANGUAGES = ['Japanese', 'Portuguese', 'Finnish', 'Korean', 'Italian', 'Greek', 'Turkish'];
const PROJECTS = ['Orion', 'Bluebird', 'Atlas', 'Nimbus', 'Kestrel', 'Juniper', 'Quartz'];
const SPOTS = ['a jazz concert', 'a food market', 'a pottery class', 'a museum', 'a hiking trip', 'a book club', 'a wedding'];

export interface Attribute {
  key: string;
  tag: FactTag;
  values: readonly string[];
  fact(value: string): string;
  /** Says the same thing in other words. */
  paraphrase(value: string): string;
  correction(value: string): string;
  question: string;
  /** Another fact with the same key that no correction of the value should retire. */
  sibling: string;
}

export const ATTRIBUTES: readonly Attribute[] = [
  { key: 'home', sibling: "The user's home has a small balcony.", tag: 'FACT', values: CITIES, fact: (v) => `The user lives in ${v}.`, paraphrase: (v) => `The user's home is in ${v}.`, correction: (v) => `Correction: the user now lives in ${v}.`, question: 'Which city does the user live in?' },
  { key: 'employer', sibling: "The user's employer offers remote Fridays.", tag: 'FACT', values: COMPANIES, fact: (v) => `The user works at ${v}.`, paraphrase: (v) => `The user is employed by ${v}.`, correction: (v) => `Correction: the user works at ${v} now.`, question: 'Where does the user work?' },
  { key: 'pet', sibling: "The user walks the dog every morning.", tag: 'FACT', values: NAMES, fact: (v) => `The user's dog is called ${v}.`, paraphrase: (v) => `The user has a dog named ${v}.`, correction: (v) => `Correction: the user's dog is called ${v}.`, question: "What is the name of the user's dog?" },
  { key: 'drink', sibling: "The user never drinks anything after 8 pm.", tag: 'PREFERENCE', values: DRINKS, fact: (v) => `The user prefers to drink ${v}.`, paraphrase: (v) => `The user's favourite drink is ${v}.`, correction: (v) => `Correction: the user prefers ${v} to drink.`, question: 'What does the user like to drink?' },
  { key: 'car', sibling: "The user's car needs new tyres before winter.", tag: 'FACT', values: CARS, fact: (v) => `The user drives a ${v}.`, paraphrase: (v) => `The user's car is a ${v}.`, correction: (v) => `Correction: the user drives a ${v} now.`, question: 'What car does the user drive?' },
  { key: 'sport', sibling: "The user's sport club meets on Tuesdays.", tag: 'PREFERENCE', values: SPORTS, fact: (v) => `The user plays ${v} every week.`, paraphrase: (v) => `Every week the user plays ${v}.`, correction: (v) => `Correction: the user plays ${v} every week.`, question: 'Which sport does the user play?' },
  { key: 'allergy', sibling: "The user carries an allergy card in the wallet.", tag: 'FACT', values: ALLERGIES, fact: (v) => `The user is allergic to ${v}.`, paraphrase: (v) => `The user has an allergy to ${v}.`, correction: (v) => `Correction: the user's allergy is to ${v}.`, question: 'What is the user allergic to?' },
  { key: 'language', sibling: "The user's language class is on Mondays.", tag: 'ACTION', values: LANGUAGES, fact: (v) => `The user is learning ${v}.`, paraphrase: (v) => `The user studies the ${v} language.`, correction: (v) => `Correction: the user is learning ${v}.`, question: 'Which language is the user learning?' },
  { key: 'project', sibling: "The user's project deadline is in June.", tag: 'CONTEXT', values: PROJECTS, fact: (v) => `The user's current project is called ${v}.`, paraphrase: (v) => `The user is working on the ${v} project.`, correction: (v) => `Correction: the user's current project is ${v}.`, question: "What is the user's current project?" },
];

export interface Statement {
  text: string;
  tag: FactTag;
  keys: string[];
  kind: 'original' | 'restatement' | 'correction' | 'filler' | 'sibling';
  /** For attribute statements: which attribute and value. */
  attribute?: string;
  value?: string;
}

export interface SiloScript {
  silo: string;
  /** In the order they are stored. */
  statements: Statement[];
  questions: Array<{ attribute: string; question: string; currentValue: string; oldValues: string[] }>;
}

const CORRECTED_SHARE = 0.35;
const RESTATED_SHARE = 0.35;
const SIBLING_SHARE = 0.5;
const FILLERS = 15;

export function generateSilos(count: number, seed: number): SiloScript[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, index) => {
    const originals: Statement[] = [];
    const later: Statement[] = [];
    const questions: SiloScript['questions'] = [];
    for (const attribute of ATTRIBUTES) {
      const value = pick(random, attribute.values);
      const keys = [attribute.key];
      originals.push({ text: attribute.fact(value), tag: attribute.tag, keys, kind: 'original', attribute: attribute.key, value });
      if (random() < SIBLING_SHARE) originals.push({ text: attribute.sibling, tag: attribute.tag, keys, kind: 'sibling', attribute: attribute.key });
      let current = value;
      const oldValues: string[] = [];
      if (random() < RESTATED_SHARE) {
        const verbatim = random() < 0.5;
        const text = verbatim ? attribute.fact(value).toLowerCase().replace(/\.$/, '') : attribute.paraphrase(value);
        later.push({ text, tag: attribute.tag, keys, kind: 'restatement', attribute: attribute.key, value });
      }
      if (random() < CORRECTED_SHARE) {
        const next = pick(random, attribute.values.filter((v) => v !== value));
        later.push({ text: attribute.correction(next), tag: 'CORRECTION', keys, kind: 'correction', attribute: attribute.key, value: next });
        oldValues.push(value);
        current = next;
      }
      questions.push({ attribute: attribute.key, question: attribute.question, currentValue: current, oldValues });
    }
    for (let i = 0; i < FILLERS; i++) {
      const city = pick(random, CITIES);
      const spot = pick(random, SPOTS);
      const friend = pick(random, NAMES);
      originals.push({ text: `On a trip to ${city} the user went to ${spot} with ${friend}.`, tag: 'EPISODE', keys: [city.toLowerCase(), friend.toLowerCase()], kind: 'filler' });
    }
    // Restatements come before corrections, so a restated value is never the one a correction retired.
    const shuffled = (kind: Statement['kind']) => later.filter((s) => s.kind === kind).sort(() => random() - 0.5);
    return { silo: `bench-user-${index}--local`, statements: [...originals, ...shuffled('restatement'), ...shuffled('correction')], questions };
  });
}

const WORDS = [
  'garden', 'invoice', 'meeting', 'river', 'recipe', 'budget', 'ticket', 'doctor', 'concert', 'bicycle', 'library', 'passport', 'holiday', 'window',
  'kitchen', 'contract', 'printer', 'coffee', 'mountain', 'report', 'schedule', 'birthday', 'training', 'laptop', 'apartment', 'insurance', 'flight',
  'dentist', 'festival', 'painting', 'workshop', 'deadline', 'neighbour', 'package', 'guitar', 'marathon', 'recital', 'vaccine', 'mortgage', 'charger',
];

/** A plausible one-sentence fact for bulk data: many facts share words, as real memories do. */
export function bulkFact(random: () => number): string {
  return `The user mentioned the ${pick(random, WORDS)} and the ${pick(random, WORDS)} near ${pick(random, CITIES)} with ${pick(random, NAMES)} (${Math.floor(random() * 1e6)}).`;
}

/** A question about bulk facts, naming two things and a place as a user would. */
export function bulkQuestion(random: () => number): string {
  return `What did I say about the ${pick(random, WORDS)} and the ${pick(random, WORDS)} in ${pick(random, CITIES)}?`;
}
