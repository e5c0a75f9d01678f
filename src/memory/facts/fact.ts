import { z } from 'zod';
import { FACT_TAGS, type FactRecord } from '../../store/facts.js';
import { SaidAtSchema } from './instant.js';

// The shapes facts take outside the store: what an extraction model returns, what `remember`
// accepts, and a stored fact as memory tools and exports show it.

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export const FactTagSchema = z.enum(FACT_TAGS);
// null first: the scripted model fills a schema with its first option, and a placeholder string is no date.
const DateSchema = z.union([z.null(), z.string().regex(ISO_DATE, 'a date as YYYY-MM-DD')]);
// What a caller of `remember` states is checked to be a day of the calendar. Extraction keeps the
// looser shape: a model's 2026-02-30 would fail its whole batch on every retry.
export const CalendarDateSchema = z.union([z.null(), z.iso.date({ error: 'use a real date as YYYY-MM-DD, or null' })]);
export const KeysSchema = z.array(z.string().trim().min(1)).min(1).max(5);
// What a caller states directly is bounded (a fact is a sentence, a key a name): a megabyte of text
// would be embedded and searched on every recall. Extraction keeps the looser shapes, as for dates.
const FACT_TEXT_MAX = 4_000;
const NAME_MAX = 200;
export const StatedTextSchema = z.string().trim().min(1).max(FACT_TEXT_MAX, `at most ${FACT_TEXT_MAX} characters: a fact is a sentence or two; keep longer text in a memory document`);
export const StatedKeysSchema = z.array(z.string().trim().min(1).max(NAME_MAX)).min(1).max(5);
const SubjectSchema = z.string().trim().min(1).describe("The entity the fact is about, in a few lower-case words ('user', 'user's apartment', 'clara').");
const AttributeSchema = z.string().trim().min(1).describe("Which attribute of the subject the fact states, in a few lower-case words ('home city', 'rent', 'dog's name').");

/** One fact as the extraction model reports it. */
export const ExtractedFactSchema = z.object({
  text: z.string().trim().min(1).describe('The fact as one self-contained sentence, with absolute dates and units exactly as said.'),
  tag: FactTagSchema,
  date: DateSchema.describe('The day the fact is about as YYYY-MM-DD, or null.'),
  source: z.string().trim().min(1).describe("Who asserted it: 'user' or the agent's name."),
  keys: KeysSchema.describe('1-5 lower-case entity keys (people, places, things, topics) the fact is about.'),
  turn: z.string().min(1).describe('The id of the turn the fact comes from.'),
  // null first, as for dates: the scripted model fills a schema with its first option.
  subject: z.union([z.null(), SubjectSchema]).default(null),
  attribute: z.union([z.null(), AttributeSchema]).default(null),
});
export type ExtractedFact = z.infer<typeof ExtractedFactSchema>;

export const ExtractionSchema = z.object({ facts: z.array(ExtractedFactSchema) });

/** What `remember` takes: a fact stated directly rather than distilled from a conversation. */
export const RememberSchema = z.object({
  text: StatedTextSchema,
  tag: FactTagSchema.default('FACT'),
  date: CalendarDateSchema.default(null),
  source: z.string().trim().min(1).max(NAME_MAX).default('user'),
  keys: StatedKeysSchema,
  /** When it was said (stored as the fact's createdAt); now when absent. */
  said_at: SaidAtSchema.optional().describe('When it was said, as YYYY-MM-DD or a date-time with its zone (default: now); `date` is the day the fact is about.'),
  subject: SubjectSchema.max(NAME_MAX).optional(),
  attribute: AttributeSchema.max(NAME_MAX).optional(),
});
export type RememberInput = z.input<typeof RememberSchema>;

/** A stored fact, as tools and exports present it. */
export const FactSchema = z.object({
  id: z.string(),
  silo: z.string(),
  text: z.string(),
  tag: FactTagSchema,
  date: DateSchema,
  source: z.string(),
  keys: z.array(z.string()),
  status: z.enum(['active', 'superseded', 'merged']),
  supersededBy: z.string().nullable(),
  restates: z.string().nullable(),
  subject: z.string().nullable(),
  attribute: z.string().nullable(),
  provenance: z.object({ sessionId: z.string(), turnId: z.string() }).nullable(),
  embeddingModel: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Fact = z.infer<typeof FactSchema>;

// The store's record and this schema describe one shape: a change to either fails to compile here.
const sameShape: [FactRecord, Fact] extends [Fact, FactRecord] ? true : never = true;
void sameShape;
