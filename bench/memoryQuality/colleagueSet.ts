import type { FactTag } from '../../src/store/facts.js';
import { pick, seeded } from '../memoryData.js';
import type { BenchQuestion, BenchSet, BenchSilo, BenchStatement, QuestionClass, StatementRole } from './benchSet.js';

// A second held-out check (issue 15), written as a colleague would: from the class
// descriptions only, never from either generator's templates. Its speakers talk in the first person
// about themselves and the people and things around them (a sister, a partner, a child's teacher,
// a debt, a flat's rent), correct themselves with their own phrases ("I moved to…", "went up from X
// to Y", "scratch that", no marker at all), and tag a correction CORRECTION only some of the time.
// Like the held-out set it is scored, never tuned on.

const SILOS = 25;
const SLOTS_PER_SILO = 8;
const FILLERS = 8;
const FIRST_STATEMENT_AT = Date.UTC(2026, 2, 1);
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const CORRECTED_SHARE = 0.45;
const RESTATED_SHARE = 0.4;
// Of corrections, the share the client tags CORRECTION; the rest keep the slot's own tag.
const TAGGED_CORRECTION_SHARE = 0.6;
// Of corrected slots, the share corrected a second time.
const CORRECTED_AGAIN_SHARE = 0.25;
const HINTED_SHARE = 0.5;

type Wording = 'plain' | 'names-old-value' | 'reworded';

interface Slot {
  /** The slot's truth id, `entity/attribute`, and the hints a client may send. */
  entity: string;
  attribute: string;
  subject: string;
  tag: FactTag;
  /** The key sets a client might send for a statement of this slot. */
  keys: string[][];
  values: readonly string[];
  /** Ways of stating a value: the first states the original, any may restate it. */
  says: ReadonlyArray<(value: string) => string>;
  corrects: Record<Wording, (value: string, old: string) => string>;
  asks: readonly string[];
  /** Other attributes of the same entity, sharing its words or keys. */
  siblings: ReadonlyArray<{ attribute: string; text: string; keys: string[] }>;
  /** A different fact stating the same value about someone or something else. */
  lookalike?: { entity: string; text: (value: string) => string; keys: string[] };
}

const SLOTS: readonly Slot[] = [
  {
    entity: 'me', attribute: 'town', subject: 'me', tag: 'FACT', keys: [['home'], ['town', 'home'], ['flat']],
    values: ['Ghent', 'Leeds', 'Bologna', 'Utrecht', 'Bergen', 'Lyon', 'Graz', 'Aarhus'],
    says: [(v) => `I'm based in ${v} these days.`, (v) => `Home for me is ${v}.`, (v) => `My flat is in ${v}.`],
    corrects: {
      plain: (v) => `Scratch that, I'm based in ${v} these days.`,
      'names-old-value': (v, old) => `I left ${old} in the spring and I'm in ${v} now.`,
      reworded: (v) => `We packed up and moved house to ${v}.`,
    },
    asks: ['Which town am I based in?', 'Where is home for me right now?'],
    siblings: [{ attribute: 'flat view', text: 'My flat looks out over a canal.', keys: ['flat'] }],
  },
  {
    entity: 'me', attribute: 'employer', subject: 'me', tag: 'FACT', keys: [['job'], ['employer'], ['work', 'job']],
    values: ['Brightline', 'Norrsken Labs', 'Fernhill Bakery', 'Quayside Health', 'Tideworks', 'Orchard Media'],
    says: [(v) => `I work for ${v}.`, (v) => `${v} is my employer.`, (v) => `My job is at ${v}.`],
    corrects: {
      plain: (v) => `Let me fix that: I work for ${v}.`,
      'names-old-value': (v, old) => `I work for ${v}, not ${old}.`,
      reworded: (v) => `I handed in my notice and started at ${v} last week.`,
    },
    asks: ['Who is my employer?', 'Which company pays my salary?'],
    siblings: [{ attribute: 'job schedule', text: 'My job comes with a four-day week.', keys: ['job'] }],
  },
  {
    entity: 'hannah', attribute: 'occupation', subject: 'hannah', tag: 'FACT', keys: [['hannah', 'sister'], ['hannah'], ['sister']],
    values: ['nurse', 'architect', 'pilot', 'translator', 'pharmacist', 'carpenter'],
    says: [(v) => `My sister Hannah is a ${v}.`, (v) => `Hannah works as a ${v}.`, (v) => `Hannah's job: ${v}.`],
    corrects: {
      plain: (v) => `Small fix: my sister Hannah is a ${v}.`,
      'names-old-value': (v, old) => `Hannah isn't a ${old} any more, she's a ${v}.`,
      reworded: (v) => `Hannah retrained last year and is now employed as a ${v}.`,
    },
    asks: ['What does Hannah do for a living?', "What is my sister's profession?"],
    siblings: [
      { attribute: 'home', text: 'Hannah lives two streets away from me.', keys: ['hannah'] },
      { attribute: 'children', text: 'My sister Hannah has twin boys.', keys: ['sister', 'hannah'] },
    ],
  },
  {
    entity: 'apartment', attribute: 'rent', subject: 'apartment', tag: 'FACT', keys: [['apartment', 'rent'], ['rent'], ['apartment']],
    values: ['850', '920', '1,150', '1,300', '1,475', '990'],
    says: [(v) => `My rent is ${v} euros a month.`, (v) => `I pay ${v} euros per month for the apartment.`, (v) => `Monthly rent on the apartment: ${v} euros.`],
    corrects: {
      plain: (v) => `Rent update, it is ${v} euros a month.`,
      'names-old-value': (v, old) => `The rent went up from ${old} to ${v} euros.`,
      reworded: (v) => `The landlord charges me ${v} euros every month now.`,
    },
    asks: ['How much rent do I pay?', 'What does my apartment cost me each month?'],
    siblings: [
      { attribute: 'size', text: 'The apartment is 64 square metres.', keys: ['apartment'] },
      { attribute: 'heating', text: 'Heating for the apartment is billed separately from the rent.', keys: ['apartment', 'rent'] },
    ],
    lookalike: { entity: 'parking', text: (v) => `My parking space costs ${v} euros a month.`, keys: ['parking'] },
  },
  {
    entity: 'dog', attribute: 'name', subject: 'dog', tag: 'FACT', keys: [['dog'], ['dog', 'pet'], ['puppy']],
    values: ['Pickle', 'Juno', 'Bramble', 'Tofu', 'Waffles', 'Clementine'],
    says: [(v) => `Our dog is called ${v}.`, (v) => `${v} is the name of our dog.`, (v) => `We named the puppy ${v}.`],
    corrects: {
      plain: (v) => `My bad, our dog is called ${v}.`,
      'names-old-value': (v, old) => `The dog's name is ${v} now, the kids stopped calling him ${old}.`,
      reworded: (v) => `The kids insisted on renaming the pup ${v}.`,
    },
    asks: ["What's our dog's name?", 'What do we call the puppy?'],
    siblings: [
      { attribute: 'vaccination', text: 'Our dog is due for his booster shot in May.', keys: ['dog'] },
      { attribute: 'bed', text: 'The puppy sleeps in a basket in the hallway.', keys: ['puppy'] },
    ],
  },
  {
    entity: 'robin', attribute: 'birthday', subject: 'robin', tag: 'FACT', keys: [['robin', 'birthday'], ['robin'], ['partner']],
    values: ['March 3', 'July 19', 'October 8', 'December 21', 'May 30', 'January 14'],
    says: [(v) => `My partner Robin's birthday is ${v}.`, (v) => `Robin was born on ${v}.`, (v) => `We celebrate Robin's birthday on ${v}.`],
    corrects: {
      plain: (v) => `Oops, my partner Robin's birthday is ${v}.`,
      'names-old-value': (v, old) => `Robin's birthday is ${v}; I said ${old} by accident.`,
      reworded: (v) => `Checked the passport: Robin came into the world on ${v}.`,
    },
    asks: ["When is Robin's birthday?", "Which date is my partner's birthday?"],
    siblings: [
      { attribute: 'allergy', text: 'Robin is allergic to strawberries.', keys: ['robin'] },
      { attribute: 'restaurant', text: "Robin's favourite restaurant is the Thai place on Elm Street.", keys: ['robin', 'partner'] },
    ],
    lookalike: { entity: 'bernard', text: (v) => `My colleague Bernard's birthday is ${v} as well.`, keys: ['bernard', 'birthday'] },
  },
  {
    entity: 'me', attribute: 'gym days', subject: 'me', tag: 'ACTION', keys: [['gym'], ['gym', 'workout'], ['exercise']],
    values: ['Mondays and Thursdays', 'Tuesdays and Fridays', 'weekends', 'Wednesday evenings', 'weekday mornings'],
    says: [(v) => `I hit the gym on ${v}.`, (v) => `Gym days for me are ${v}.`, (v) => `My workouts happen on ${v}.`],
    corrects: {
      plain: (v) => `Heads up, I hit the gym on ${v} now.`,
      'names-old-value': (v, old) => `Gym is on ${v} these days, no longer ${old}.`,
      reworded: (v) => `My trainer moved our sessions to ${v}.`,
    },
    asks: ['Which days do I work out?', 'When do I go to the gym?'],
    siblings: [{ attribute: 'membership', text: 'My gym membership renews in September.', keys: ['gym'] }],
  },
  {
    entity: 'me', attribute: 'diet', subject: 'me', tag: 'PREFERENCE', keys: [['diet'], ['food', 'diet'], ['eating']],
    values: ['vegetarian', 'vegan', 'pescatarian', 'gluten-free', 'low-carb'],
    says: [(v) => `I'm ${v} at the moment.`, (v) => `My diet is ${v}.`, (v) => `I stick to a ${v} diet.`],
    corrects: {
      plain: (v) => `To be precise, I'm ${v} at the moment.`,
      'names-old-value': (v, old) => `I'm ${v} now rather than ${old}.`,
      reworded: (v) => `I changed how I eat and went ${v}.`,
    },
    asks: ['What kind of diet am I on?', 'What should a restaurant know about how I eat?'],
    siblings: [{ attribute: 'cheat day', text: 'My diet allows one cheat meal on Sundays.', keys: ['diet'] }],
  },
  {
    entity: 'family car', attribute: 'model', subject: 'family car', tag: 'FACT', keys: [['car'], ['car', 'family'], ['vehicle']],
    values: ['Kia Niro', 'Peugeot 208', 'Honda Jazz', 'VW Polo', 'Mazda CX-5', 'Hyundai Ioniq'],
    says: [(v) => `Our family car is a ${v}.`, (v) => `We drive a ${v}.`, (v) => `The car we own is a ${v}.`],
    corrects: {
      plain: (v) => `I mixed that up: our family car is a ${v}.`,
      'names-old-value': (v, old) => `We sold the ${old}; our car is a ${v} now.`,
      reworded: (v) => `We traded in last month and bought a ${v}.`,
    },
    asks: ['What car do we have?', 'Which model is our family car?'],
    siblings: [
      { attribute: 'inspection', text: 'The family car is due for its inspection in August.', keys: ['car'] },
      { attribute: 'insurance', text: 'Our car insurance is with Lumen Mutual.', keys: ['car', 'insurance'] },
    ],
    lookalike: { entity: 'neighbour', text: (v) => `My neighbour drives a ${v} too.`, keys: ['neighbour'] },
  },
  {
    entity: 'mia', attribute: 'teacher', subject: 'mia', tag: 'FACT', keys: [['mia', 'school'], ['mia'], ['teacher']],
    values: ['Okafor', 'Lindqvist', 'Moreau', 'Brennan', 'Tanaka', 'Rossi'],
    says: [(v) => `Mia's teacher this year is Mr ${v}.`, (v) => `Mr ${v} teaches Mia's class.`, (v) => `Mia has Mr ${v} as her teacher.`],
    corrects: {
      plain: (v) => `I misspoke, Mia's teacher this year is Mr ${v}.`,
      'names-old-value': (v, old) => `Mia's teacher is Mr ${v}, Mr ${old} swapped to another class.`,
      reworded: (v) => `The school handed my daughter's class over to Mr ${v}.`,
    },
    asks: ["Who is Mia's teacher?", "What's the name of my daughter's teacher?"],
    siblings: [
      { attribute: 'school start', text: "Mia's school starts at 8:15.", keys: ['mia', 'school'] },
      { attribute: 'bus', text: 'Mia takes the bus to school.', keys: ['mia'] },
    ],
  },
  {
    entity: 'gus', attribute: 'debt', subject: 'gus', tag: 'FACT', keys: [['gus', 'debt'], ['gus'], ['money', 'gus']],
    values: ['15', '40', '25', '60', '35'],
    says: [(v) => `I still owe Gus ${v} pounds for the concert tickets.`, (v) => `Gus lent me ${v} pounds for the tickets.`, (v) => `My debt to Gus is ${v} pounds.`],
    corrects: {
      plain: (v) => `Right figure: I still owe Gus ${v} pounds for the concert tickets.`,
      'names-old-value': (v, old) => `I paid some back, so I owe Gus ${v} pounds and not ${old}.`,
      reworded: (v) => `After settling part of it, what's left for Gus is ${v} pounds.`,
    },
    asks: ['How much money do I owe Gus?', "What's my debt to Gus?"],
    siblings: [{ attribute: 'reunion', text: 'Gus is organising the class reunion.', keys: ['gus'] }],
    lookalike: { entity: 'wendy', text: (v) => `Wendy owes me ${v} pounds for the taxi.`, keys: ['wendy', 'debt'] },
  },
  {
    entity: 'me', attribute: 'commute', subject: 'me', tag: 'FACT', keys: [['commute'], ['work', 'commute'], ['transport']],
    values: ['bike', 'train', 'bus', 'tram', 'scooter', 'ferry'],
    says: [(v) => `I get to work by ${v}.`, (v) => `My commute is by ${v}.`, (v) => `I take the ${v} to the office.`],
    corrects: {
      plain: (v) => `Fixing what I said: I get to work by ${v}.`,
      'names-old-value': (v, old) => `I commute by ${v} instead of the ${old} now.`,
      reworded: (v) => `These days I ride the ${v} into the office.`,
    },
    asks: ['How do I get to work?', 'Which transport do I use to reach the office?'],
    siblings: [{ attribute: 'commute time', text: 'My commute takes about 35 minutes.', keys: ['commute'] }],
  },
];

const FILLER_TEXTS: ReadonlyArray<{ text: string; keys: string[] }> = [
  { text: 'Had a long lunch with Hannah at the harbour cafe.', keys: ['hannah', 'lunch'] },
  { text: 'Watched a documentary about deep-sea fish.', keys: ['documentary'] },
  { text: 'The dog chewed through a shoe this morning.', keys: ['dog'] },
  { text: 'Robin and I went to a pottery workshop on Saturday.', keys: ['robin', 'pottery'] },
  { text: 'Took the train to Bergen for a conference.', keys: ['bergen', 'conference'] },
  { text: 'Mia scored a goal at her football match.', keys: ['mia', 'football'] },
  { text: 'Gus sent photos from his trip to Lyon.', keys: ['gus', 'lyon'] },
  { text: 'The car got a parking ticket near the museum.', keys: ['car', 'parking'] },
  { text: 'Spent the evening fixing the kitchen tap.', keys: ['kitchen'] },
  { text: 'Went to a jazz night in Ghent with friends.', keys: ['ghent', 'jazz'] },
  { text: 'Tried a new bakery near the office.', keys: ['bakery', 'office'] },
  { text: 'Wendy and I split a taxi home after the party.', keys: ['wendy', 'taxi'] },
];

function shuffle<T>(random: () => number, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function siloOf(index: number, random: () => number): BenchSilo {
  type Draft = Omit<BenchStatement, 'saidAt'>;
  const early: Draft[] = [];
  const restatements: Draft[] = [];
  const corrections: Draft[] = [];
  const later: Draft[] = [];
  const questions: Array<Omit<BenchQuestion, 'askedAt'>> = [];
  const hints = (subject: string, attribute: string) => (random() < HINTED_SHARE ? { subject, attribute } : {});
  const statement = (slot: Slot, text: string, tag: FactTag, role: StatementRole, value: string): Draft => ({
    text, tag, keys: pick(random, slot.keys), ...hints(slot.subject, slot.attribute), truth: { slot: `${slot.entity}/${slot.attribute}`, value, role },
  });
  for (const slot of shuffle(random, SLOTS).slice(0, SLOTS_PER_SILO)) {
    const original = pick(random, slot.values);
    early.push(statement(slot, slot.says[0]!(original), slot.tag, 'original', original));
    const classes: QuestionClass[] = [];
    for (const sibling of slot.siblings) {
      if (random() >= 0.6) continue;
      early.push({ text: sibling.text, tag: slot.tag, keys: sibling.keys, ...hints(slot.subject, sibling.attribute), truth: { slot: `${slot.entity}/${sibling.attribute}`, value: sibling.text, role: 'sibling' } });
      if (!classes.includes('has-sibling')) classes.push('has-sibling');
    }
    if (slot.lookalike && random() < 0.7) {
      const { entity, text, keys } = slot.lookalike;
      early.push({ text: text(original), tag: slot.tag, keys, truth: { slot: `${entity}/${slot.attribute}`, value: original, role: 'lookalike' } });
      classes.push('has-lookalike');
    }
    const restated = random() < RESTATED_SHARE;
    if (restated) {
      const text = random() < 0.3 ? slot.says[0]!(original).toLowerCase().replace(/\.$/, '') : pick(random, slot.says.slice(1))(original);
      restatements.push(statement(slot, text, slot.tag, 'restatement', original));
    }
    let current = original;
    const staleValues: string[] = [];
    if (random() < CORRECTED_SHARE) {
      current = pick(random, slot.values.filter((value) => value !== original));
      staleValues.push(original);
      const wording = pick(random, ['plain', 'names-old-value', 'reworded'] as const);
      const tag = random() < TAGGED_CORRECTION_SHARE ? 'CORRECTION' : slot.tag;
      corrections.push(statement(slot, slot.corrects[wording](current, original), tag, 'correction', current));
      classes.push('corrected');
      if (wording !== 'plain') classes.push(wording === 'reworded' ? 'correction-reworded' : 'correction-names-old-value');
      if (restated) classes.push('restated-before-correction');
      // Some values change twice: the first correction is stale in its turn.
      if (random() < CORRECTED_AGAIN_SHARE) {
        const next = pick(random, slot.values.filter((value) => value !== original && value !== current));
        staleValues.push(current);
        current = next;
        const again = pick(random, ['plain', 'names-old-value', 'reworded'] as const);
        later.push(statement(slot, slot.corrects[again](next, staleValues[1]!), random() < TAGGED_CORRECTION_SHARE ? 'CORRECTION' : slot.tag, 'correction', next));
      }
    }
    questions.push({ question: pick(random, slot.asks), slot: `${slot.entity}/${slot.attribute}`, currentValue: current, staleValues, classes });
  }
  // Asides mentioning the same people, places and things; one told twice is a restatement of itself.
  const told = new Map<string, string>();
  for (let i = 0; i < FILLERS; i++) {
    const { text, keys } = pick(random, FILLER_TEXTS);
    const known = told.get(text);
    told.set(text, known ?? `episode/${index}-${i}`);
    early.push({ text, tag: 'EPISODE', keys, truth: { slot: told.get(text)!, value: text, role: known ? 'restatement' : 'filler' } });
  }
  // Restatements come before corrections, as in conversation: a value is said, repeated, then corrected.
  const drafts = [...shuffle(random, early), ...shuffle(random, restatements), ...shuffle(random, corrections), ...later];
  const start = FIRST_STATEMENT_AT + index * DAY_MS;
  const statements = drafts.map((draft, i): BenchStatement => ({ ...draft, saidAt: new Date(start + i * MINUTE_MS).toISOString() }));
  const askedAt = new Date(start + drafts.length * MINUTE_MS + DAY_MS).toISOString();
  return { silo: `colleague-${index}--local`, statements, questions: questions.map((question) => ({ ...question, askedAt })) };
}

/** The colleague's set: SILOS users, each with SLOTS_PER_SILO of the slots above, from `seed`. */
export function colleagueSet(seed: number): BenchSet {
  const random = seeded(seed * 104_729 + 7);
  return { name: `colleague(seed ${seed})`, silos: Array.from({ length: SILOS }, (_, index) => siloOf(index, random)) };
}
