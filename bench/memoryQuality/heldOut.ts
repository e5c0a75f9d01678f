import type { FactTag } from '../../src/store/facts.js';
import type { BenchQuestion, BenchSet, BenchSilo, BenchStatement, QuestionClass, StatementRole } from './benchSet.js';

// The held-out long-term memory benchmark set (issue 15): users of an assistant telling a memory
// tool about their lives in their own words, then asking about it later. Written from the
// interface alone, apart from the development set, so that a memory tuned on one is checked on
// the other. Deterministic per seed: its own PRNG, no Math.random, no clock.

type Rng = () => number;

/** mulberry32: small, fast and good enough to pick words; the same seed gives the same set. */
function prng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, xs: readonly T[]): T => {
  if (xs.length === 0) throw new Error('pick from an empty list');
  return xs[Math.floor(r() * xs.length)]!;
};
const chance = (r: Rng, p: number): boolean => r() < p;
const between = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
function shuffled<T>(r: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---- vocabulary -------------------------------------------------------------------------------

const PEOPLE = ['Clara', 'Tom', 'Priya', 'Mateo', 'Aisha', 'Jonas', 'Noor', 'Felix', 'Ines', 'Marcus', 'Yuki', 'Bea', 'Oskar', 'Lena', 'Dev', 'Rosa', 'Sami', 'Hugo', 'Maya', 'Theo', 'Zara', 'Idris', 'Freya', 'Luca', 'Nadia', 'Arjun', 'Elif', 'Callum', 'Sofia', 'Kwame'];
const PETS = ['Biscuit', 'Pickle', 'Mochi', 'Juniper', 'Waffles', 'Pepper', 'Ziggy', 'Olive', 'Bruno', 'Nala', 'Pudding', 'Socks'];
const KIDS = ['Leo', 'Ava', 'Finn', 'Isla', 'Max', 'Ruby', 'Sam', 'Nora', 'Eli', 'Mia'];
const CITIES = ['Lisbon', 'Porto', 'Valencia', 'Lyon', 'Leeds', 'Bristol', 'Denver', 'Austin', 'Toronto', 'Melbourne', 'Krakow', 'Ghent', 'Bologna', 'Utrecht', 'Seattle', 'Dublin', 'Glasgow', 'Seville', 'Montreal', 'Tallinn'];
const RELATIONS = ['sister', 'brother', 'mum', 'dad', 'best friend', 'cousin', 'partner', 'flatmate', 'aunt', 'uncle', 'old roommate', 'godmother'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const CURRENCIES = ['dollars', 'euros', 'pounds'];
const DOCTORS = ['Dr Mensah', 'Dr Kowalski', 'Dr Alvarez', 'Dr Lindqvist', 'Dr Okafor', 'Dr Haddad', 'Dr Byrne', 'Dr Tanaka'];

// ---- what a silo's user is like ---------------------------------------------------------------

interface SiloCtx {
  r: Rng;
  currency: string;
  usedNames: Set<string>;
  usedRelations: Set<string>;
  usedSlots: Set<string>;
}

/** Something the user talks about: a person, a pet, the flat, the car... */
interface Entity {
  /** The slot prefix, lower-case: `clara`, `home`, `netflix`. */
  id: string;
  /** How the user names it in a sentence. */
  n: string;
  rel: string;
  /** The `subject` a client would pass. */
  subject: string;
  keys: string[];
  /** A proper name another user may also use (a sister called Clara): a cross-silo lookalike. */
  named: boolean;
}

type ValueKind = 'city' | 'money' | 'date' | 'time' | 'days' | 'age' | 'other';

interface AttrSpec {
  attr: string;
  /** The `attribute` a client would pass. */
  hint: string;
  kind: ValueKind;
  tag?: FactTag;
  keys: string[];
  values: (c: SiloCtx) => string[];
  /** Templates: {v} the value, {av} it with an article, {n} the entity, {rel} its relation, {old} a previous value. */
  say: string[];
  restate: string[];
  partial: string[];
  /** A short clause carrying the value, embedded in generic corrections. */
  fix: string[];
  /** Corrections worded unlike the original statement. */
  reword: string[];
  ask: string[];
}

interface KindSpec {
  kind: string;
  max: number;
  make: (c: SiloCtx) => Entity | null;
  attrs: AttrSpec[];
}

function freshName(c: SiloCtx, pool: readonly string[]): string | null {
  const free = pool.filter((name) => !c.usedNames.has(name));
  if (free.length === 0) return null;
  const name = pick(c.r, free);
  c.usedNames.add(name);
  return name;
}

function freshRelation(c: SiloCtx, pool: readonly string[]): string {
  const free = pool.filter((rel) => !c.usedRelations.has(rel));
  const rel = pick(c.r, free.length > 0 ? free : pool);
  c.usedRelations.add(rel);
  return rel;
}

const distinct = (c: SiloCtx, make: () => string, count = 6): string[] => {
  const out = new Set<string>();
  for (let i = 0; out.size < count && i < 200; i++) out.add(make());
  return [...out];
};
const money = (lo: number, hi: number, step: number) => (c: SiloCtx): string[] =>
  distinct(c, () => `${lo + step * between(c.r, 0, Math.floor((hi - lo) / step))} ${c.currency}`);
const dates = (c: SiloCtx): string[] => distinct(c, () => `${pick(c.r, MONTHS)} ${between(c.r, 1, 28)}`);
const times = (c: SiloCtx): string[] =>
  distinct(c, () => (chance(c.r, 0.5) ? `${between(c.r, 6, 11)}am` : `${between(c.r, 1, 9)}pm`).replace(/^(\d+)(am|pm)$/, (_, h: string, m: string) => (chance(c.r, 0.3) ? `${h}:30${m}` : `${h}${m}`)));
const oneOf = (pool: readonly string[]) => (c: SiloCtx): string[] => shuffled(c.r, pool);
const cities = oneOf(CITIES);
const DAYS = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];
// Single days or pairs, never both for one slot: 'Tuesdays' inside 'Tuesdays and Thursdays' would
// make a correction name the old value by accident.
const days = (c: SiloCtx): string[] => {
  if (chance(c.r, 0.5)) return shuffled(c.r, DAYS);
  return distinct(c, () => {
    const [a, b] = shuffled(c.r, DAYS.slice(0, 5));
    return DAYS.indexOf(a!) < DAYS.indexOf(b!) ? `${a} and ${b}` : `${b} and ${a}`;
  });
};
const ages = (c: SiloCtx): string[] => distinct(c, () => `${between(c.r, 2, 14)} years`);

const person = (c: SiloCtx): Entity | null => {
  const name = freshName(c, PEOPLE);
  if (name === null) return null;
  const rel = freshRelation(c, RELATIONS);
  return { id: name.toLowerCase(), n: name, rel, subject: name, keys: [name.toLowerCase(), rel], named: true };
};
const thing = (id: string, n: string, subject: string, keys: string[]) => (): Entity => ({ id, n, rel: '', subject, keys, named: false });

// ---- the catalogue ---------------------------------------------------------------------------

const KINDS: KindSpec[] = [
  {
    kind: 'home', max: 1, make: thing('home', 'the flat', 'my apartment', ['apartment', 'flat', 'home']),
    attrs: [
      { attr: 'city', hint: 'city', kind: 'city', keys: ['city'], values: cities,
        say: ["I live in {v}", "I'm based in {v} these days, been here a couple of years", "home is {v} for now anyway"],
        restate: ["like I said, I'm living in {v}", "still in {v}, yeah"], partial: ["{v}, that's home"],
        fix: ["I live in {v}", "I'm in {v}"], reword: ["we moved, we're in {v} now", "packed up everything, the new place is in {v}"],
        ask: ['where am I living these days?', 'which city do I call home right now?'] },
      { attr: 'rent', hint: 'rent', kind: 'money', keys: ['rent'], values: money(850, 2400, 25),
        say: ["rent on the flat is {v} a month", "I pay {v} a month for the apartment, which is steep tbh", "my rent's {v}, bills on top of that"],
        restate: ["the apartment costs me {v} monthly", "yeah it's {v} every month for the place"], partial: ["{v} for rent"],
        fix: ["the rent is {v}", "I pay {v} in rent"], reword: ["the landlord put it up, I'm forking out {v} now", "new lease signed, it comes to {v}"],
        ask: ['how much do I pay to live where I do?', 'what does my place cost me each month?'] },
      { attr: 'size', hint: 'size', kind: 'other', keys: ['size'], values: (c) => distinct(c, () => `${5 * between(c.r, 9, 19)} square metres`),
        say: ["the apartment is {v}, tiny but fine", "our flat's {v} if you count the hallway"],
        restate: ["the place is about {v}", "it's {v}, the flat"], partial: ["{v} total"],
        fix: ["the flat is {v}", "the apartment measures {v}"], reword: ["I measured it properly with a tape, turns out {v}"],
        ask: ['how big is my apartment?', "what's the floor area of my place?"] },
      { attr: 'landlord', hint: 'landlord', kind: 'other', keys: ['landlord'], values: oneOf(['Mr Okafor', 'Mrs Duarte', 'Mr Petrov', 'Ms Achterberg', 'Mr Quinn', 'Mrs Haldane']),
        say: ["my landlord is {v}", "{v} owns the flat, nice enough person"],
        restate: ["the landlord's {v}", "{v} is who I rent from"], partial: ["{v}, the landlord"],
        fix: ["the landlord is {v}", "{v} is my landlord"], reword: ["the building got sold, {v} is the new owner"],
        ask: ['who do I rent from?', "who's the owner of the place I'm in?"] },
      { attr: 'move-in', hint: 'move-in date', kind: 'date', keys: ['moving'], values: dates,
        say: ["I moved into the flat on {v}", "got the keys to the apartment on {v}, best day"],
        restate: ["I've been in the flat since {v}", "moved in {v}"], partial: ["keys on {v}"],
        fix: ["I moved in on {v}", "my move-in date was {v}"], reword: ["checked the lease again: {v} is when it started"],
        ask: ['when did I move into my current place?', 'how long have I had my apartment, since when?'] },
    ],
  },
  {
    kind: 'job', max: 1, make: thing('job', 'work', 'my job', ['work', 'job']),
    attrs: [
      { attr: 'employer', hint: 'employer', kind: 'other', keys: ['employer', 'company'], values: oneOf(['Brightwell Logistics', 'Nuvola Studio', 'Harbor and Finch', 'Kestrel Health', 'Oakline Bank', 'Tidewater Games', 'Lumen Robotics']),
        say: ["I work at {v}", "I'm at {v} now, doing the whole corporate thing", "my employer is {v}, been there a while"],
        restate: ["still at {v}", "{v} is where I work"], partial: ["{v}, work"],
        fix: ["I work for {v}", "my company is {v}"], reword: ["I switched jobs, {v} made me an offer I couldn't refuse"],
        ask: ["who's my employer?", 'which company pays my salary?'] },
      { attr: 'title', hint: 'job title', kind: 'other', keys: ['title', 'role'], values: oneOf(['senior analyst', 'product designer', 'team lead', 'staff engineer', 'account manager', 'data scientist']),
        say: ["my title at work is {v}", "I'm {av} on the platform team"],
        restate: ["I work as {av}", "job-wise I'm {av}"], partial: ["{v} at work"],
        fix: ["my job title is {v}", "I'm {av}"], reword: ["got promoted! {v} as of this week"],
        ask: ["what's my role at work?", 'what do I do in my job, title-wise?'] },
      { attr: 'manager', hint: 'manager', kind: 'other', keys: ['manager', 'boss'], values: oneOf(['Helena Strand', 'Raj Patel', 'Grace Ohene', 'Pieter de Vries', 'Carmen Ruiz', 'Owen Maddox']),
        say: ["my manager is {v}", "I report to {v}, pretty chill"],
        restate: ["{v} is my boss", "my manager, {v}"], partial: ["{v} manages me"],
        fix: ["my boss is {v}", "I report to {v}"], reword: ["there was a reorg and {v} runs my team now"],
        ask: ['who do I report to?', "who's in charge of me at the office?"] },
      { attr: 'office-days', hint: 'office days', kind: 'days', keys: ['office'], values: days,
        say: ["I go into the office on {v}", "office days are {v}, rest is remote"],
        restate: ["I'm in the office {v}", "{v} I commute in"], partial: ["office {v}"],
        fix: ["my office days are {v}", "I go in on {v}"], reword: ["new hybrid policy, we have to show up {v}"],
        ask: ['which days am I expected at my workplace?', 'when do I have to commute in?'] },
    ],
  },
  ...['person-a', 'person-b', 'person-c'].map((kind): KindSpec => ({
    kind, max: 1, make: person,
    attrs: [
      { attr: 'city', hint: 'city', kind: 'city', keys: ['lives'], values: cities,
        say: ["my {rel} {n} lives in {v}", "{n} (my {rel}) is over in {v} these days", "oh, {n}'s in {v}, my {rel} I mean"],
        restate: ["{n} is still living in {v}", "yeah {n}'s based in {v}"], partial: ["{n}, {v}"],
        fix: ["{n} lives in {v}", "{n}'s in {v}"], reword: ["{n} finally packed up and went to {v}", "{n} got a transfer, so it's {v} for them now"],
        ask: ["where's {n} living?", 'which city would I fly to if I wanted to see my {rel}?'] },
      { attr: 'job', hint: 'job', kind: 'other', keys: ['job'], values: oneOf(['nurse', 'architect', 'barista', 'physio', 'electrician', 'paramedic', 'translator', 'accountant']),
        say: ["{n} works as {av}", "my {rel} {n} is {av}, loves it", "{n}'s {av} by trade"],
        restate: ["{n} does {v} work", "{n} is still {av}"], partial: ["{n}: {v}"],
        fix: ["{n} is {av}", "{n} works as {av}"], reword: ["{n} retrained and became {av}"],
        ask: ['what does {n} do for a living?', "what's my {rel}'s line of work?"] },
      { attr: 'birthday', hint: 'birthday', kind: 'date', keys: ['birthday'], values: dates,
        say: ["{n}'s birthday is {v}", "my {rel} {n} was born on {v}", "{n} turns a year older on {v}, don't let me forget"],
        restate: ["{n}'s bday, {v}", "{v} is {n}'s birthday"], partial: ["{n} {v}"],
        fix: ["{n}'s birthday is {v}", "{n} was born on {v}"], reword: ["I checked the family calendar, {n} celebrates on {v}"],
        ask: ['when do I need to send {n} a card?', "what's the date of my {rel}'s birthday?"] },
    ],
  })),
  ...['pet-a', 'pet-b'].map((kind): KindSpec => ({
    kind, max: 1,
    make: (c) => {
      const name = freshName(c, PETS);
      return name === null ? null : { id: name.toLowerCase(), n: name, rel: 'pet', subject: name, keys: [name.toLowerCase(), 'pet'], named: true };
    },
    attrs: [
      { attr: 'breed', hint: 'breed', kind: 'other', keys: ['breed'], values: oneOf(['beagle', 'border collie', 'tabby cat', 'greyhound', 'labrador', 'maine coon', 'dachshund']),
        say: ["we've got {av} called {n}", "{n} is {av}, total goofball"],
        restate: ["{n}'s {av}", "my {v}, {n}"], partial: ["{n} the {v}"],
        fix: ["{n} is {av}", "{n}'s {av}"], reword: ["did one of those DNA kits, {n} is mostly {v}"],
        ask: ['what kind of animal is {n}?', "what's {n}'s breed?"] },
      { attr: 'vet', hint: 'vet', kind: 'other', keys: ['vet'], values: oneOf(['Dr Lindqvist', 'Dr Moreau', 'Dr Eze', 'Dr Castellano', 'Dr Novak']),
        say: ["{n}'s vet is {v}", "we take {n} to {v} at the animal clinic"],
        restate: ["{v} looks after {n}", "{n} sees {v}"], partial: ["vet: {v}"],
        fix: ["{n}'s vet is {v}", "{n} goes to {v}"], reword: ["we switched clinics, {v} has {n}'s file now"],
        ask: ['who do I call when {n} is unwell?', 'which vet does {n} see?'] },
      { attr: 'food', hint: 'food', kind: 'other', keys: ['food'], values: oneOf(['salmon kibble', 'grain-free chicken', 'lamb and rice', 'raw turkey', 'duck pate']),
        say: ["{n} only eats {v}", "{n} is on {v}, anything else and there's drama"],
        restate: ["{n} gets {v}", "still {v} for {n}"], partial: ["{v} for {n}"],
        fix: ["{n} eats {v}", "{n} is on {v}"], reword: ["the vet changed {n}'s diet to {v}"],
        ask: ['what should I buy to feed {n}?', 'what goes in {n}\'s bowl?'] },
      { attr: 'age', hint: 'age', kind: 'age', keys: ['age'], values: ages,
        say: ["{n} is {v} old", "{n}'s {v} old already, can you believe it"],
        restate: ["{n} is {v} old now", "{v}, that's how old {n} is"], partial: ["{n}: {v}"],
        fix: ["{n} is {v} old", "{n}'s {v} old"], reword: ["found the adoption papers, {n} is actually {v} old"],
        ask: ['how old is {n}?', 'what age is my pet {n}?'] },
    ],
  })),
  {
    kind: 'allergy', max: 1, make: thing('allergy', 'my allergy', 'allergy', ['allergy', 'health']),
    attrs: [
      { attr: 'allergen', hint: 'allergen', kind: 'other', keys: ['allergic'], values: oneOf(['peanuts', 'shellfish', 'penicillin', 'sesame', 'latex', 'kiwi']),
        say: ["I'm allergic to {v}", "heads up, {v} and I do not get along, allergy"],
        restate: ["I can't have {v}, allergic", "the allergy is {v}"], partial: ["no {v} for me"],
        fix: ["I'm allergic to {v}", "my allergy is {v}"], reword: ["the allergist did proper tests, it's {v} that sets me off"],
        ask: ['is there anything that gives me a reaction?', 'what do I need to stay away from for health reasons?'] },
      { attr: 'reaction', hint: 'reaction', kind: 'other', keys: ['reaction'], values: oneOf(['hives', 'a swollen throat', 'a rash', 'wheezing']),
        say: ["when I react it's {v}", "the allergy gives me {v}"],
        restate: ["I get {v} from it", "{v}, that's the reaction"], partial: ["reaction: {v}"],
        fix: ["my reaction is {v}", "it gives me {v}"], reword: ["last time it was {v}, so assume that"],
        ask: ['what happens to me during an allergic reaction?', 'what symptoms do I get?'] },
    ],
  },
  {
    kind: 'medication', max: 1, make: thing('medication', 'my meds', 'medication', ['medication', 'meds', 'pills']),
    attrs: [
      { attr: 'drug', hint: 'medication', kind: 'other', keys: ['prescription'], values: oneOf(['lisinopril', 'amlodipine', 'losartan', 'sertraline', 'levothyroxine', 'metformin']),
        say: ["I'm on {v}", "my doctor has me taking {v}, daily"],
        restate: ["I take {v}", "the pill I'm on is {v}"], partial: ["{v} daily"],
        fix: ["I'm taking {v}", "my medication is {v}"], reword: ["got switched at my last appointment, {v} from now on"],
        ask: ['what prescription am I on?', 'which medicine do I take every day?'] },
      { attr: 'dose', hint: 'dose', kind: 'other', keys: ['dose'], values: oneOf(['5 mg', '10 mg', '20 mg', '25 mg', '50 mg']),
        say: ["my dose is {v}", "I take {v} of it, one tablet"],
        restate: ["it's {v} per day", "{v}, the dose"], partial: ["{v} a day"],
        fix: ["the dose is {v}", "I take {v}"], reword: ["they upped it, I'm on {v}"],
        ask: ['how much of my medication do I take?', "what's my prescribed amount?"] },
      { attr: 'time', hint: 'time', kind: 'time', keys: ['pill'], values: times,
        say: ["I take my meds at {v}", "pill o'clock is {v} for me"],
        restate: ["meds at {v}", "{v} is when I take my pill"], partial: ["{v} meds"],
        fix: ["I take my pill at {v}", "my meds are at {v}"], reword: ["remind me at {v} instead, that's the new routine"],
        ask: ['when in the day should I be reminded about my tablets?', 'what time are my pills?'] },
    ],
  },
  {
    kind: 'doctor', max: 1, make: thing('doctor', 'my GP', 'doctor', ['doctor', 'gp']),
    attrs: [
      { attr: 'name', hint: 'doctor', kind: 'other', keys: ['physician'], values: oneOf(DOCTORS),
        say: ["my GP is {v}", "I see {v} for check-ups, really thorough"],
        restate: ["{v} is my doctor", "my doctor's {v}"], partial: ["{v}, GP"],
        fix: ["my doctor is {v}", "my GP is {v}"], reword: ["I registered at a new practice, {v} took me on"],
        ask: ["who's my family physician?", 'which doctor should I book with?'] },
      { attr: 'clinic', hint: 'clinic', kind: 'other', keys: ['clinic'], values: oneOf(['Elm Street Practice', 'Riverside Medical Centre', 'Northgate Clinic', 'Parkview Surgery']),
        say: ["my GP is at {v}", "the practice I'm registered with is {v}"],
        restate: ["I go to {v}", "{v} is my clinic"], partial: ["{v} for the GP"],
        fix: ["my clinic is {v}", "the practice is {v}"], reword: ["the surgery merged, it's {v} on the letters now"],
        ask: ['where do I go for appointments with my GP?', 'what is my medical practice called?'] },
    ],
  },
  {
    kind: 'car', max: 1, make: thing('car', 'the car', 'my car', ['car']),
    attrs: [
      { attr: 'model', hint: 'model', kind: 'other', keys: ['vehicle'], values: oneOf(['2016 Honda Civic', 'Toyota Yaris', 'VW Golf', 'Kia Niro', 'Skoda Octavia', 'Ford Focus', 'Mazda 3']),
        say: ["I drive a {v}", "my car's a {v}, she's old but reliable"],
        restate: ["still driving the {v}", "the {v}, that's my car"], partial: ["{v} still"],
        fix: ["I drive a {v}", "my car is a {v}"], reword: ["sold the old one, got myself a {v}"],
        ask: ['what vehicle do I have?', 'what am I getting around in?'] },
      { attr: 'insurance-renewal', hint: 'insurance renewal', kind: 'date', keys: ['insurance'], values: dates,
        say: ["the car insurance renews on {v}", "car insurance is up on {v}, remind me to shop around"],
        restate: ["insurance renewal, {v}", "{v} the insurance runs out"], partial: ["insurance {v}"],
        fix: ["the insurance renews {v}", "my car insurance is due {v}"], reword: ["the insurer moved my policy date to {v}"],
        ask: ['when do I need to sort out cover for the vehicle again?', 'when does my motor policy end?'] },
      { attr: 'mechanic', hint: 'mechanic', kind: 'other', keys: ['garage', 'mechanic'], values: oneOf(["Sal's Garage", 'Kwik Autos', 'Baker Motors', 'the Fenwick garage']),
        say: ["I take the car to {v}", "{v} does my servicing"],
        restate: ["{v} fixes the car", "car goes to {v}"], partial: ["{v} for repairs"],
        fix: ["my mechanic is {v}", "the car goes to {v}"], reword: ["fell out with the old place, {v} has my keys now"],
        ask: ['who services my car?', 'where do I get repairs done?'] },
    ],
  },
  ...['subscription-a', 'subscription-b'].map((kind): KindSpec => ({
    kind, max: 1,
    make: (c) => {
      const free = ['Netflix', 'Spotify', 'Duolingo', 'iCloud', 'the climbing gym', 'Audible'].filter((s) => !c.usedSlots.has(`${slug(s)}/price`));
      if (free.length === 0) return null;
      const svc = pick(c.r, free);
      c.usedSlots.add(`${slug(svc)}/price`);
      return { id: slug(svc), n: svc, rel: '', subject: svc, keys: [slug(svc).replace(/-/g, ' '), 'subscription'], named: false };
    },
    attrs: [
      { attr: 'price', hint: 'price', kind: 'money', keys: ['price', 'monthly'], values: money(4, 60, 1),
        say: ["I pay {v} a month for {n}", "{n} is {v} monthly, kind of a rip-off"],
        restate: ["{n} costs me {v}", "{v} for {n}, every month"], partial: ["{n} {v}"],
        fix: ["{n} is {v}", "I pay {v} for {n}"], reword: ["they raised prices again, {n} bills me {v}"],
        ask: ['how much does {n} take from my account?', "what's my {n} subscription costing?"] },
      { attr: 'billing-day', hint: 'billing day', kind: 'other', keys: ['billing'], values: oneOf(['the 1st', 'the 3rd', 'the 9th', 'the 14th', 'the 21st', 'the 28th']),
        say: ["{n} charges me on {v}", "{n} comes out of my account on {v} of the month"],
        restate: ["{n} bills on {v}", "{v} is the {n} payment"], partial: ["{n} on {v}"],
        fix: ["{n} bills me on {v}", "{n} charges on {v}"], reword: ["I changed the payment date, it's {v} going forward"],
        ask: ['what day of the month does {n} charge me?', 'when is {n} debited?'] },
    ],
  })),
  ...['class-a', 'class-b'].map((kind): KindSpec => ({
    kind, max: 1,
    make: (c) => {
      const free = ['pottery class', 'Spanish class', 'salsa class', 'yoga class', 'life drawing class', 'choir'].filter((s) => !c.usedSlots.has(`${slug(s)}/day`));
      if (free.length === 0) return null;
      const cls = pick(c.r, free);
      c.usedSlots.add(`${slug(cls)}/day`);
      return { id: slug(cls), n: cls, rel: '', subject: cls, keys: [cls.toLowerCase().replace(/ class$/, ''), 'class'], named: false };
    },
    attrs: [
      { attr: 'day', hint: 'day', kind: 'days', keys: ['weekly'], values: days,
        say: ["my {n} is on {v}", "I've got {n} every week on {v}, it's the highlight"],
        restate: ["{n} happens {v}", "{v} is {n}"], partial: ["{n} {v}"],
        fix: ["{n} is on {v}", "I have {n} on {v}"], reword: ["the studio reshuffled the timetable, we meet {v}"],
        ask: ['which day of the week do I have {n}?', 'when during the week is my {n}?'] },
      { attr: 'time', hint: 'time', kind: 'time', keys: ['time'], values: times,
        say: ["{n} starts at {v}", "{n} kicks off at {v}, I'm always late"],
        restate: ["{v} for {n}", "{n} at {v}"], partial: ["{n}, {v} start"],
        fix: ["{n} starts at {v}", "{n} is at {v}"], reword: ["they pushed everything, doors open {v} now"],
        ask: ['what time do I need to be at {n}?', 'how early or late is {n}?'] },
      { attr: 'teacher', hint: 'teacher', kind: 'other', keys: ['teacher'], values: oneOf(['Marisol', 'Kenji', 'Ms Bell', 'Andre', 'Fatima', 'Mr Holm']),
        say: ["{v} teaches my {n}", "the {n} teacher is {v}, super patient"],
        restate: ["{v} runs {n}", "{n} with {v}"], partial: ["teacher {v}"],
        fix: ["{v} teaches {n}", "my {n} teacher is {v}"], reword: ["we got a new instructor, {v} took over the group"],
        ask: ['who runs my {n}?', 'who is the instructor at {n}?'] },
    ],
  })),
  {
    kind: 'hobby', max: 1, make: thing('hobby', 'my hobby', 'hobby', ['hobby']),
    attrs: [
      { attr: 'main', hint: 'hobby', kind: 'other', tag: 'PREFERENCE', keys: ['free time', 'weekend'], values: oneOf(['pottery', 'bouldering', 'woodworking', 'salsa dancing', 'chess', 'birdwatching', 'sourdough baking', 'trail running']),
        say: ["my big hobby right now is {v}", "I'm really into {v} lately, it's all I do on weekends"],
        restate: ["{v} is my thing", "I spend my free time on {v}"], partial: ["{v}, love it"],
        fix: ["my hobby is {v}", "I'm into {v}"], reword: ["honestly I've moved on, it's {v} that I can't stop doing"],
        ask: ['what do I like doing in my spare time?', 'what keeps me busy outside work?'] },
    ],
  },
  {
    kind: 'hike', max: 1, make: thing('saturday-hike', 'the Saturday hike', 'Saturday hike', ['hike', 'saturday']),
    attrs: [
      { attr: 'start-time', hint: 'start time', kind: 'time', keys: ['hiking club'], values: times,
        say: ["the Saturday hike with the club starts at {v}", "we meet for the Saturday hike at {v} sharp"],
        restate: ["Saturday hike's at {v}", "{v} start on Saturday hikes"], partial: ["hike {v}"],
        fix: ["the Saturday hike starts at {v}", "we meet at {v} on Saturdays"], reword: ["the group voted on a new schedule, we set off at {v}"],
        ask: ['when do I have to be ready for the weekend walk with the club?', 'what time does my Saturday outing begin?'] },
      { attr: 'meeting-point', hint: 'meeting point', kind: 'other', keys: ['meeting point'], values: oneOf(['the train station', 'the north car park', 'the old lighthouse', 'the cafe on the corner']),
        say: ["we meet for the Saturday hike at {v}", "Saturday hike meeting point is {v}"],
        restate: ["hike group gathers at {v}", "{v}, Saturdays"], partial: ["meet at {v}"],
        fix: ["the meeting point is {v}", "we gather at {v}"], reword: ["parking got annoying so we start from {v}"],
        ask: ['where does the hiking group assemble?', 'where should I show up on Saturday mornings?'] },
    ],
  },
  {
    kind: 'book-club', max: 1, make: thing('book-club', 'book club', 'book club', ['book club', 'books']),
    attrs: [
      { attr: 'day', hint: 'day', kind: 'days', keys: ['meets'], values: days,
        say: ["book club meets on {v}", "we do book club {v}, mostly wine tbh"],
        restate: ["book club is {v}", "{v} is book club night"], partial: ["books {v}"],
        fix: ["book club is on {v}", "we meet {v}"], reword: ["the host has a new shift so we're gathering {v}"],
        ask: ['what night am I reading with the group?', 'which day is my reading circle?'] },
      { attr: 'place', hint: 'place', kind: 'other', keys: ['venue'], values: oneOf(["Priya's place", 'the Crown pub', 'the library cafe', 'the wine bar on Dock Street']),
        say: ["book club is at {v}", "we do book club at {v}"],
        restate: ["{v} for book club", "book club happens at {v}"], partial: ["at {v}"],
        fix: ["book club is held at {v}", "we meet at {v}"], reword: ["we got kicked out of the old spot, so {v} it is"],
        ask: ['where do I go for my reading group?', 'what venue is the book group?'] },
    ],
  },
  {
    kind: 'debt', max: 2,
    make: (c) => {
      const name = freshName(c, PEOPLE);
      return name === null ? null : { id: `debt-${name.toLowerCase()}`, n: name, rel: 'friend', subject: `money owed to ${name}`, keys: [name.toLowerCase(), 'debt', 'money'], named: false };
    },
    attrs: [
      { attr: 'amount', hint: 'amount owed', kind: 'money', keys: ['owe'], values: money(10, 300, 5),
        say: ["I owe {n} {v}", "I still owe {n} {v} from the concert"],
        restate: ["{v} is what I owe {n}", "I'm {v} in debt to {n}"], partial: ["{n}, {v}"],
        fix: ["I owe {n} {v}", "my debt to {n} is {v}"], reword: ["paid some of it back, so {n} is only waiting on {v}"],
        ask: ['how much money do I still need to pay back to {n}?', 'what am I in the hole to {n} for?'] },
    ],
  },
  {
    kind: 'budget', max: 1, make: thing('budget', 'my budget', 'budget', ['budget', 'money']),
    attrs: [
      { attr: 'groceries', hint: 'groceries budget', kind: 'money', keys: ['groceries'], values: money(150, 900, 10),
        say: ["my grocery budget is {v} a month", "I'm trying to keep groceries under {v} monthly"],
        restate: ["{v} for food shopping", "groceries cap is {v}"], partial: ["{v} groceries"],
        fix: ["the grocery budget is {v}", "groceries are capped at {v}"], reword: ["we redid the spreadsheet, supermarket money is {v}"],
        ask: ['how much am I allowed to spend at the supermarket?', "what's my limit for food shopping?"] },
      { attr: 'eating-out', hint: 'eating out budget', kind: 'money', keys: ['restaurants'], values: money(50, 500, 10),
        say: ["my eating out budget is {v} a month", "I allow myself {v} for restaurants"],
        restate: ["{v} for eating out", "restaurant budget is {v}"], partial: ["{v} dining"],
        fix: ["the eating out budget is {v}", "I get {v} for restaurants"], reword: ["cutting back, takeaways and dinners get {v}"],
        ask: ['how much can I spend on dinners out?', "what's my restaurant allowance?"] },
    ],
  },
  {
    kind: 'trip', max: 1, make: thing('trip', 'the trip', 'trip', ['trip', 'travel', 'holiday']),
    attrs: [
      { attr: 'destination', hint: 'destination', kind: 'city', keys: ['destination'], values: cities,
        say: ["we're flying to {v} this summer", "the big trip this year is {v}, so excited"],
        restate: ["the holiday is {v}", "{v}, that's where we're going"], partial: ["trip to {v}"],
        fix: ["the trip is to {v}", "we're going to {v}"], reword: ["change of plans, we booked {v} instead"],
        ask: ['where am I going on holiday?', 'which place am I travelling to next?'] },
      { attr: 'departure', hint: 'departure date', kind: 'date', keys: ['flight'], values: dates,
        say: ["we leave for the trip on {v}", "the flight out is on {v}"],
        restate: ["flying out {v}", "{v} we go"], partial: ["leaving {v}"],
        fix: ["we leave on {v}", "the flight is {v}"], reword: ["the airline rebooked us, we depart {v}"],
        ask: ['when do I set off on my holiday?', 'what day is my outbound flight?'] },
      { attr: 'hotel', hint: 'hotel', kind: 'other', keys: ['hotel'], values: oneOf(['the Marina Lodge', 'Casa Azul', 'the Lantern Inn', 'Hotel Miro', 'a tiny Airbnb by the river']),
        say: ["we're staying at {v} on the trip", "booked {v} for the holiday"],
        restate: ["{v} is the hotel", "staying in {v}"], partial: ["{v} for the trip"],
        fix: ["we're staying at {v}", "the hotel is {v}"], reword: ["the first booking fell through, we got {v}"],
        ask: ['where am I sleeping on my holiday?', 'what accommodation did I book?'] },
    ],
  },
  {
    kind: 'diet', max: 1, make: thing('diet', 'my diet', 'diet', ['diet', 'food']),
    attrs: [
      { attr: 'style', hint: 'diet', kind: 'other', tag: 'PREFERENCE', keys: ['eating'], values: oneOf(['vegetarian', 'vegan', 'pescatarian', 'low-carb', 'flexitarian']),
        say: ["I'm {v}", "I eat {v}, have done for years"],
        restate: ["I'm still {v}", "{v}, that's how I eat"], partial: ["{v} me"],
        fix: ["I'm {v}", "I eat {v}"], reword: ["I've changed how I eat, {v} these days"],
        ask: ['what should I keep in mind when picking a restaurant for me?', 'how do I eat, food-wise?'] },
      { attr: 'avoids', hint: 'avoids', kind: 'other', tag: 'PREFERENCE', keys: ['avoid'], values: oneOf(['dairy', 'gluten', 'red meat', 'sugar', 'caffeine after noon']),
        say: ["I avoid {v}", "I try to stay off {v}, makes me feel rubbish"],
        restate: ["no {v} for me", "I skip {v}"], partial: ["{v} is off the menu for me"],
        fix: ["I avoid {v}", "I cut out {v}"], reword: ["my nutritionist says the thing to drop is {v}"],
        ask: ['is there something I try not to eat or drink?', 'what am I cutting from my meals?'] },
    ],
  },
  {
    kind: 'phone', max: 1, make: thing('phone', 'my phone', 'phone', ['phone']),
    attrs: [
      { attr: 'model', hint: 'model', kind: 'other', keys: ['mobile'], values: oneOf(['Pixel 8', 'iPhone 13', 'Galaxy S23', 'Fairphone 5', 'iPhone 15', 'Pixel 6a']),
        say: ["my phone's a {v}", "I'm on a {v}, the battery's dying"],
        restate: ["I use a {v}", "still the {v}"], partial: ["{v} phone"],
        fix: ["my phone is a {v}", "I have a {v}"], reword: ["dropped the old one in a lake, got a {v}"],
        ask: ['what handset do I use?', 'which mobile have I got?'] },
      { attr: 'carrier', hint: 'carrier', kind: 'other', keys: ['carrier', 'plan'], values: oneOf(['Vodafone', 'T-Mobile', 'Three', 'Orange', 'Mint Mobile']),
        say: ["my phone plan is with {v}", "I'm with {v} for mobile"],
        restate: ["{v} is my network", "mobile's {v}"], partial: ["{v} plan"],
        fix: ["my carrier is {v}", "I'm with {v}"], reword: ["ported my number, {v} has it now"],
        ask: ['which network am I on?', 'who provides my mobile service?'] },
    ],
  },
  {
    kind: 'laptop', max: 1, make: thing('laptop', 'my laptop', 'laptop', ['laptop', 'computer']),
    attrs: [
      { attr: 'model', hint: 'model', kind: 'other', keys: ['machine'], values: oneOf(['ThinkPad X1', 'MacBook Air', 'Dell XPS 13', 'Framework 13', 'Surface Laptop']),
        say: ["my laptop is a {v}", "I work on a {v}, it's fine"],
        restate: ["the {v} is my computer", "I use the {v}"], partial: ["{v} laptop"],
        fix: ["my laptop is a {v}", "I have a {v}"], reword: ["my employer handed me a new machine, a {v}"],
        ask: ['what computer do I work on?', 'which notebook do I own?'] },
      { attr: 'warranty-end', hint: 'warranty', kind: 'date', keys: ['warranty'], values: dates,
        say: ["the laptop warranty runs out on {v}", "warranty on my laptop ends {v}"],
        restate: ["laptop warranty till {v}", "{v}, end of the warranty"], partial: ["warranty {v}"],
        fix: ["the warranty ends {v}", "my laptop is covered until {v}"], reword: ["they extended the cover, I'm protected until {v}"],
        ask: ['until when is my computer covered for repairs?', 'when does the guarantee on my notebook lapse?'] },
    ],
  },
  ...['kid-a', 'kid-b'].map((kind): KindSpec => ({
    kind, max: 1,
    make: (c) => {
      const name = freshName(c, KIDS);
      if (name === null) return null;
      const rel = freshRelation(c, ['son', 'daughter', 'stepson', 'youngest', 'eldest']);
      return { id: name.toLowerCase(), n: name, rel, subject: name, keys: [name.toLowerCase(), 'kids', rel], named: true };
    },
    attrs: [
      { attr: 'school', hint: 'school', kind: 'other', keys: ['school'], values: oneOf(['Greenfield Primary', "St Anne's", 'Hillcrest Elementary', 'Riverbank School', 'Maple Academy']),
        say: ["{n} goes to {v}", "my {rel} {n} is at {v}, we got lucky with it"],
        restate: ["{n}'s school is {v}", "{v}, {n}'s school"], partial: ["{n} at {v}"],
        fix: ["{n} goes to {v}", "{n} is at {v}"], reword: ["we changed schools for {n}, {v} from this term"],
        ask: ['where does {n} go every weekday morning?', 'which school is my {rel} in?'] },
      { attr: 'teacher', hint: 'teacher', kind: 'other', keys: ['teacher'], values: oneOf(['Mrs Patel', 'Mr Doyle', 'Ms Ferreira', 'Mr Andersen', 'Mrs Kaur']),
        say: ["{n}'s teacher is {v}", "{v} has {n}'s class this year, very strict"],
        restate: ["{v} teaches {n}", "{n} has {v}"], partial: ["{n}: {v}"],
        fix: ["{n}'s teacher is {v}", "{v} teaches {n}"], reword: ["the school shuffled classes, {n} ended up with {v}"],
        ask: ["who is in charge of {n}'s classroom?", "who should I email about my {rel}'s homework?"] },
      { attr: 'pickup-time', hint: 'pickup time', kind: 'time', keys: ['pickup'], values: times,
        say: ["I pick {n} up at {v}", "{n} gets out at {v}, I do the pickup"],
        restate: ["{n} pickup is {v}", "{v}, school run for {n}"], partial: ["{n} {v}"],
        fix: ["pickup for {n} is at {v}", "I collect {n} at {v}"], reword: ["after-school club means {n} is ready at {v}"],
        ask: ['when do I need to be at the school gate for {n}?', 'what time should I collect my {rel}?'] },
    ],
  })),
];

function slug(s: string): string {
  return s.toLowerCase().replace(/^the /, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

// ---- how people phrase things -----------------------------------------------------------------

const OPENERS = ['', '', '', '', 'Oh, and ', 'FYI ', 'btw ', 'So, ', 'Just so you know, ', 'Random one: ', 'Note to self: ', 'ok so ', "Not sure if I mentioned it, but "];
const CLOSERS = ['', '', '', '', ' lol', ', if that matters', ', just so you have it', ' (long story)', ', for the record', ', anyway'];
const PLAIN_CORRECTIONS = ['Actually, {fix}', 'Scratch that, {fix}', 'Correction: {fix}', 'Update: {fix}', 'Hmm, I told you wrong before. {Fix}', 'Small change: {fix}', 'oops, {fix}, sorry', 'Wait, {fix}', 'I got the {hint} wrong, {fix}', 'Let me fix something: {fix}'];
const OLD_NAMING_CORRECTIONS = ['I was wrong about {old}: {fix}', '{Fix}, not {old}', 'No, not {old}. {Fix}', 'Forget {old}, {fix}', '{Fix} now, it used to be {old}', 'I said {old} earlier but that was a mistake, {fix}', "{old}? No, that's old news. {Fix}"];
const SLOPPY_KEYS = ['misc', 'personal', 'note', 'me', 'info'];

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function fill(template: string, e: Entity, v: string, old = ''): string {
  const article = /^[aeiou]/i.test(v) ? 'an' : 'a';
  return template
    .replaceAll('{av}', `${article} ${v}`)
    .replaceAll('{v}', v)
    .replaceAll('{n}', e.n)
    .replaceAll('{rel}', e.rel)
    .replaceAll('{old}', old);
}

/** A sentence as a user types it: sometimes an opener or an aside, sometimes no capital. */
function utter(r: Rng, core: string): string {
  const opener = pick(r, OPENERS);
  const body = opener === '' && chance(r, 0.8) ? capitalise(core) : core;
  const closer = pick(r, CLOSERS);
  const end = chance(r, 0.15) ? '' : chance(r, 0.1) ? '!' : '.';
  return `${opener}${body}${closer}${end}`;
}

function keysFor(r: Rng, pool: string[]): string[] {
  const unique = [...new Set(pool.map((k) => k.toLowerCase()))];
  // A client is often lazy: one key, sometimes only the attribute's word, sometimes a useless one.
  const count = chance(r, 0.2) ? 1 : between(r, 2, Math.min(4, unique.length));
  const keys = shuffled(r, unique).slice(0, count);
  if (keys.length < 5 && chance(r, 0.1)) keys.push(pick(r, SLOPPY_KEYS));
  return keys;
}

// ---- one silo ---------------------------------------------------------------------------------

type Draft = Omit<BenchStatement, 'saidAt'>;

interface Slot {
  slot: string;
  entity: Entity;
  spec: AttrSpec;
  values: string[];
  /** The values asserted so far, in order: the original, then one per correction. */
  asserted: string[];
  queue: Draft[];
  classes: Set<QuestionClass>;
}

function draft(c: SiloCtx, s: Slot, text: string, value: string, role: StatementRole, tag: FactTag): Draft {
  const hinted = chance(c.r, 0.5);
  return {
    text,
    tag,
    keys: keysFor(c.r, [...s.entity.keys, ...s.spec.keys]),
    ...(hinted ? { subject: s.entity.subject, attribute: s.spec.hint } : {}),
    truth: { slot: s.slot, value: value.toLowerCase(), role },
  };
}

function restatement(c: SiloCtx, s: Slot, value: string, originalTemplate: string): Draft {
  const way = c.r();
  const template = way < 0.3 ? originalTemplate : way < 0.75 ? pick(c.r, s.spec.restate) : pick(c.r, s.spec.partial);
  return draft(c, s, utter(c.r, fill(template, s.entity, value)), value, 'restatement', s.spec.tag ?? 'FACT');
}

function correction(c: SiloCtx, s: Slot, value: string, old: string): Draft {
  const style = c.r();
  let text: string;
  if (style < 0.25) {
    text = utter(c.r, fill(pick(c.r, s.spec.reword), s.entity, value));
    s.classes.add('correction-reworded');
  } else {
    const fix = fill(pick(c.r, s.spec.fix), s.entity, value);
    const namesOld = style < 0.6;
    const frame = pick(c.r, namesOld ? OLD_NAMING_CORRECTIONS : PLAIN_CORRECTIONS);
    const framed = fill(frame, s.entity, value, old).replaceAll('{hint}', s.spec.hint).replaceAll('{Fix}', capitalise(fix)).replaceAll('{fix}', fix);
    text = `${capitalise(framed)}.`;
    if (namesOld) s.classes.add('correction-names-old-value');
  }
  return draft(c, s, text, value, 'correction', chance(c.r, 0.8) ? 'CORRECTION' : (s.spec.tag ?? 'FACT'));
}

/** The statements of one slot, in the order they are said: its value, restated, corrected... */
function planSlot(c: SiloCtx, s: Slot): void {
  const template = pick(c.r, s.spec.say);
  let current = s.values[0]!;
  s.asserted.push(current);
  s.queue.push(draft(c, s, utter(c.r, fill(template, s.entity, current)), current, 'original', s.spec.tag ?? 'FACT'));
  const corrections = chance(c.r, 0.55) ? (chance(c.r, 0.3) ? 2 : 1) : 0;
  let restated = false;
  if (chance(c.r, corrections > 0 ? 0.2 : 0.45)) {
    s.queue.push(restatement(c, s, current, template));
    restated = true;
  }
  for (let i = 1; i <= corrections; i++) {
    if (chance(c.r, 0.45)) {
      s.queue.push(restatement(c, s, current, template));
      restated = true;
    }
    if (restated) s.classes.add('restated-before-correction');
    const next = s.values[i]!;
    s.queue.push(correction(c, s, next, current));
    s.asserted.push(next);
    current = next;
    restated = false;
  }
  if (corrections > 0) {
    s.classes.add('corrected');
    if (chance(c.r, 0.3)) s.queue.push(restatement(c, s, current, template));
  }
}

interface LookalikeTemplate {
  slot: string;
  text: string;
  keys: string[];
}

// Another fact worded like a slot's: the same amount, date, time, days or city, someone or something else.
const LOOKALIKES: Partial<Record<ValueKind, LookalikeTemplate[]>> = {
  city: [
    { slot: '{id}/city', text: 'my {rel} {n} lives in {v} too, small world', keys: ['{id}', 'lives'] },
    { slot: '{id}/city', text: '{n} from my old job just moved to {v}', keys: ['{id}', 'moved'] },
    { slot: '{id}/conference-city', text: '{n} is speaking at a conference in {v} next month', keys: ['{id}', 'conference'] },
  ],
  money: [
    { slot: '{id}/owes-me', text: '{n} owes me {v}, still waiting on that', keys: ['{id}', 'money'] },
    { slot: 'vet-bill/amount', text: 'the last vet bill came to {v}, ouch', keys: ['vet', 'bill'] },
    { slot: '{id}/present-budget', text: "I put aside {v} for {n}'s present", keys: ['{id}', 'present'] },
    { slot: 'concert-tickets/cost', text: 'the concert tickets were {v} each', keys: ['concert', 'tickets'] },
  ],
  date: [
    { slot: '{id}/wedding-date', text: "{n}'s wedding is on {v}", keys: ['{id}', 'wedding'] },
    { slot: 'passport/expiry', text: 'my passport runs out on {v}', keys: ['passport'] },
    { slot: 'boiler-service/date', text: 'the boiler service is booked for {v}', keys: ['boiler'] },
    { slot: '{id}/birthday', text: "{n}'s birthday is {v} as well, funny", keys: ['{id}', 'birthday'] },
  ],
  time: [
    { slot: 'sunday-hike/start-time', text: 'the Sunday hike with {n} starts at {v}', keys: ['hike', 'sunday'] },
    { slot: '{id}/pickup-time', text: '{n} gets picked up from nursery at {v}', keys: ['{id}', 'nursery'] },
    { slot: 'alarm/time', text: "my alarm's set for {v} on weekdays", keys: ['alarm'] },
    { slot: '{id}/call-time', text: 'I call {n} most evenings, usually at {v}', keys: ['{id}', 'call'] },
  ],
  days: [
    { slot: '{id}/swimming-days', text: '{n} has swimming on {v}', keys: ['{id}', 'swimming'] },
    { slot: 'bins/days', text: 'the bins go out on {v}', keys: ['bins'] },
    { slot: '{id}/gym-days', text: '{n} and I hit the gym on {v}', keys: ['{id}', 'gym'] },
  ],
  age: [
    { slot: '{id}/age', text: 'my nephew {n} is {v} old', keys: ['{id}', 'nephew'] },
    { slot: 'boiler/age', text: 'the boiler is {v} old, should probably replace it', keys: ['boiler'] },
    { slot: '{id}/cat-age', text: "{n}'s cat is {v} old", keys: ['{id}', 'cat'] },
  ],
};

function lookalike(c: SiloCtx, target: Slot, value: string): Draft | null {
  const templates = LOOKALIKES[target.spec.kind];
  if (templates === undefined) return null;
  for (const t of shuffled(c.r, templates)) {
    const needsPerson = t.slot.includes('{id}');
    const slotFor = (id: string) => t.slot.replace('{id}', id);
    if (!needsPerson && c.usedSlots.has(slotFor(''))) continue;
    const name = needsPerson ? freshName(c, PEOPLE) : '';
    if (name === null) continue;
    const id = name.toLowerCase();
    const slot = slotFor(id);
    c.usedSlots.add(slot);
    const other: Entity = { id, n: name, rel: pick(c.r, ['friend', 'colleague', 'neighbour']), subject: name, keys: [], named: false };
    const hinted = chance(c.r, 0.5);
    target.classes.add('has-lookalike');
    return {
      text: utter(c.r, fill(t.text, other, value)),
      tag: 'FACT',
      keys: keysFor(c.r, t.keys.map((k) => k.replace('{id}', id))),
      ...(hinted ? { subject: needsPerson ? name : slot.split('/')[0]!.replace(/-/g, ' '), attribute: slot.split('/')[1]!.replace(/-/g, ' ') } : {}),
      truth: { slot, value: value.toLowerCase(), role: 'lookalike' },
    };
  }
  return null;
}

const FILLERS: Array<[text: string, label: string]> = [
  ['had dinner with {n} last night, we talked for hours', 'dinner with {n}'],
  ['{n} sent me an eleven minute voice note, classic', 'voice note from {n}'],
  ['took {p} to the park and {p} rolled in something disgusting', '{p} at the park'],
  ["it has rained in {c} all week, I'm losing my mind", 'rain in {c}'],
  ['the tram in {c} broke down so I was late this morning', 'late tram in {c}'],
  ['{n} and I watched that new documentary, it was fine I guess', 'documentary with {n}'],
  ['spent the afternoon reorganising the kitchen drawers, weirdly satisfying', 'kitchen drawers'],
  ['{p} stole a sock again and hid it under the sofa', '{p} stole a sock'],
  ['bumped into {n} at the market in {c}, total coincidence', 'met {n} at the market'],
  ['today was a lot, back to back meetings and a headache', 'long day'],
  ['{n} beat me at cards again, I demand a rematch', 'cards with {n}'],
  ['walked along the river in {c} after work, needed it', 'river walk in {c}'],
];

function filler(c: SiloCtx, k: number, people: string[], pets: string[], places: string[]): Draft {
  const usable = FILLERS.filter(([text]) => (!text.includes('{p}') || pets.length > 0) && (!text.includes('{n}') || people.length > 0));
  const [text, label] = pick(c.r, usable);
  const n = people.length > 0 ? pick(c.r, people) : '';
  const p = pets.length > 0 ? pick(c.r, pets) : '';
  const city = pick(c.r, places);
  const put = (s: string) => s.replaceAll('{n}', n).replaceAll('{p}', p).replaceAll('{c}', city);
  const placeholders: Array<[string, string]> = [['{n}', n], ['{p}', p], ['{c}', city]];
  const mentioned = placeholders.filter(([placeholder]) => text.includes(placeholder)).map(([, word]) => word);
  return {
    text: utter(c.r, put(text)),
    tag: chance(c.r, 0.8) ? 'EPISODE' : 'CONTEXT',
    keys: keysFor(c.r, mentioned.length > 0 ? mentioned : ['today', 'diary']),
    truth: { slot: `episode-${k}/event`, value: put(label).toLowerCase(), role: 'filler' },
  };
}

const MINUTE = 60_000;

/** Minutes to days between two things a user says. */
function gap(r: Rng): number {
  const x = r();
  if (x < 0.6) return between(r, 1, 90) * MINUTE;
  if (x < 0.9) return between(r, 2, 20) * 60 * MINUTE;
  return between(r, 1, 4) * 24 * 60 * MINUTE;
}

interface DraftQuestion extends BenchQuestion {
  named: boolean;
}

function buildSilo(seed: number, index: number): { silo: BenchSilo; questions: DraftQuestion[] } {
  const r = prng((seed * 0x9e3779b1) ^ (index * 0x85ebca6b) ^ 0x5bd1e995);
  const c: SiloCtx = { r, currency: pick(r, CURRENCIES), usedNames: new Set(), usedRelations: new Set(), usedSlots: new Set() };
  const target = between(r, 10, 14);
  const slots: Slot[] = [];
  const asked: Slot[] = [];
  const makeSlot = (entity: Entity, spec: AttrSpec): Slot => {
    const slot: Slot = { slot: `${entity.id}/${spec.attr}`, entity, spec, values: spec.values(c), asserted: [], queue: [], classes: new Set() };
    c.usedSlots.add(slot.slot);
    slots.push(slot);
    return slot;
  };
  for (const kind of shuffled(r, KINDS)) {
    if (asked.length >= target) break;
    const entity = kind.make(c);
    if (entity === null) continue;
    const specs = shuffled(r, kind.attrs);
    const primary = makeSlot(entity, specs[0]!);
    asked.push(primary);
    planSlot(c, primary);
    const rest = specs.slice(1);
    if (rest.length > 0 && asked.length < target && chance(r, 0.25)) {
      const second = makeSlot(entity, rest.shift()!);
      asked.push(second);
      planSlot(c, second);
    }
    // A sibling attribute said between the value and its correction: a correction must leave it alone.
    if (rest.length > 0 && chance(r, primary.classes.has('corrected') ? 0.6 : 0.25)) {
      const sibling = makeSlot(entity, rest.shift()!);
      const said = draft(c, sibling, utter(r, fill(pick(r, sibling.spec.say), entity, sibling.values[0]!)), sibling.values[0]!, 'sibling', sibling.spec.tag ?? 'FACT');
      sibling.asserted.push(sibling.values[0]!);
      primary.queue.splice(1 + Math.floor(r() * primary.queue.length), 0, said);
      if (chance(r, 0.6)) asked.push(sibling);
    }
  }
  for (const s of slots) {
    if (slots.some((o) => o !== s && o.entity.id === s.entity.id)) s.classes.add('has-sibling');
  }

  const queues: Draft[][] = slots.map((s) => s.queue).filter((q) => q.length > 0);
  const lookalikeTargets = shuffled(r, asked.filter((s) => LOOKALIKES[s.spec.kind] !== undefined));
  for (const s of lookalikeTargets.slice(0, between(r, 2, 4))) {
    const stale = staleValues(s);
    const value = stale.length > 0 && chance(r, 0.25) ? pick(r, stale) : currentValue(s);
    const said = lookalike(c, s, value);
    if (said !== null) queues.push([said]);
  }
  const people = [...c.usedNames].filter((name) => PEOPLE.includes(name) || KIDS.includes(name));
  const pets = [...c.usedNames].filter((name) => PETS.includes(name));
  const places = slots.filter((s) => s.spec.kind === 'city').map((s) => s.values[0]!);
  const fillers = between(r, 3, 6);
  for (let k = 1; k <= fillers; k++) queues.push([filler(c, k, people, pets, places.length > 0 ? places : [pick(r, CITIES)])]);

  // Interleave the slots' queues, each kept in order, as a conversation over weeks would.
  let at = Date.UTC(2025, between(r, 0, 11), between(r, 1, 28), between(r, 7, 21), between(r, 0, 59));
  const statements: BenchStatement[] = [];
  while (queues.some((q) => q.length > 0)) {
    const open = queues.filter((q) => q.length > 0);
    const next = pick(r, open).shift()!;
    at += gap(r);
    statements.push({ ...next, saidAt: new Date(at).toISOString() });
  }

  const questions: DraftQuestion[] = shuffled(r, asked).map((s) => {
    at += between(r, 10, 60 * 24) * MINUTE;
    const current = currentValue(s);
    return {
      question: fill(pick(r, s.spec.ask), s.entity, current),
      askedAt: new Date(at).toISOString(),
      slot: s.slot,
      currentValue: current.toLowerCase(),
      staleValues: staleValues(s).map((v) => v.toLowerCase()),
      classes: [...s.classes],
      named: s.entity.named,
    };
  });
  return { silo: { silo: `heldout-${seed >>> 0}-${index + 1}--local`, statements, questions: [] }, questions };
}

const currentValue = (s: Slot): string => s.asserted.at(-1)!;
const staleValues = (s: Slot): string[] => s.asserted.slice(0, -1);

/**
 * The held-out set: `silos` users, each with 10-14 asked slots and the statements behind them.
 * Deterministic: the same seed gives the same set.
 */
export function heldOutSet(seed: number, silos = 40): BenchSet {
  const built = Array.from({ length: silos }, (_, i) => buildSilo(seed, i));
  // A named entity's slot said in another silo too (two users with a sister called Clara): a
  // question whose words another silo's memory would also match.
  const siloOf = new Map<string, Set<number>>();
  built.forEach(({ silo }, i) => {
    for (const st of silo.statements) siloOf.set(st.truth.slot, (siloOf.get(st.truth.slot) ?? new Set()).add(i));
  });
  return {
    name: `held-out (seed ${seed})`,
    silos: built.map(({ silo, questions }, i) => ({
      ...silo,
      questions: questions.map(({ named, ...q }) => {
        const elsewhere = named && [...(siloOf.get(q.slot) ?? [])].some((j) => j !== i);
        return elsewhere && !q.classes.includes('has-lookalike') ? { ...q, classes: [...q.classes, 'has-lookalike'] } : q;
      }),
    })),
  };
}
