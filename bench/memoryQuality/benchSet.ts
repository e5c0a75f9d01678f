import type { FactTag } from '../../src/store/facts.js';

// The shape every long-term memory benchmark set takes (issue 15): the development set and the
// held-out set come from different generators and meet only here. A set is what users say, in
// order, and what they ask afterwards; `truth` is what the runner scores against and is never
// shown to the memory under test.

/** The role a statement plays for its slot. */
export type StatementRole =
  /** The first statement of a slot's value. */
  | 'original'
  /** The same slot and value again, in the same or other words: storing it twice is a duplicate. */
  | 'restatement'
  /** A new value for a slot that had one: the old value (and its restatements) stop being current. */
  | 'correction'
  /** Another attribute of the same entity, sharing words or keys with a slot: never retired by its correction. */
  | 'sibling'
  /** An episode or aside that answers no question. */
  | 'filler'
  /** A different fact worded like another (same numbers, dates or places, another person or day): never merged with it. */
  | 'lookalike';

export interface BenchStatement {
  /** What the user said, as `remember` receives it. */
  text: string;
  tag: FactTag;
  /** 0-5 lower-case entity keys, as a client of `remember` would pass them. */
  keys: string[];
  /** When it was said (ISO 8601 date-time); statements of a silo are in this order. */
  saidAt: string;
  /** Optional structure a client may pass: the entity the statement is about and which attribute of it. */
  subject?: string;
  attribute?: string;
  truth: {
    /** `entity/attribute`, unique within the silo; each filler and lookalike has a slot of its own. */
    slot: string;
    /** The value the statement asserts for its slot. */
    value: string;
    role: StatementRole;
  };
}

/** Hard cases a question exercises; the runner reports recall@1 per class as well as overall. */
export type QuestionClass =
  /** The slot was corrected at least once. */
  | 'corrected'
  /** A correction repeats the old value's words ("…is woodworking, not salsa dancing"). */
  | 'correction-names-old-value'
  /** A correction is worded unlike the statement it corrects. */
  | 'correction-reworded'
  /** The old value was restated before it was corrected. */
  | 'restated-before-correction'
  /** The entity has a sibling attribute stated. */
  | 'has-sibling'
  /** Another silo's statement or a lookalike in this silo shares the question's words. */
  | 'has-lookalike';

export interface BenchQuestion {
  question: string;
  /** ISO 8601 date-time, after every statement of the silo. */
  askedAt: string;
  /** The slot whose current value answers the question. */
  slot: string;
  currentValue: string;
  /** The slot's earlier values, none of them current any more. */
  staleValues: string[];
  classes: QuestionClass[];
}

export interface BenchSilo {
  /** A silo id as the store accepts it (see src/core/silo.ts). */
  silo: string;
  statements: BenchStatement[];
  questions: BenchQuestion[];
}

export interface BenchSet {
  name: string;
  silos: BenchSilo[];
}
