import { z } from 'zod';
import { defineTool, type AnyTool } from '../core/tool.js';
import { FactTagSchema, RememberSchema } from './facts/fact.js';
import { formatRecalledFacts } from './facts/formatRecalledFacts.js';
import { InstantSchema, instantEnd } from './facts/instant.js';
import { DEFAULT_RECALL_LIMIT, type RecalledFact } from './facts/recall.js';
import type { Memory } from './openMemory.js';

// A silo's memory as tools for other agents and editors (the MCP server face: the "shared memory
// node"): facts to remember and recall, and the document tools agents use themselves.

const DOCUMENT_TOOLS = ['memory_search', 'memory_read', 'memory_write', 'memory_list', 'memory_history'];

const recallInput = z.object({
  query: z.string().trim().min(1).max(2_000).describe('What to look up, in a few words or a question.'),
  limit: z.number().int().min(1).max(50).optional().describe(`How many facts to return (default ${DEFAULT_RECALL_LIMIT}).`),
  as_of: InstantSchema.optional().describe(
    'Recall memory as it stood then (YYYY-MM-DD for the end of that day in UTC, or a date-time with its zone): only facts said by then, each with the status it had then.',
  ),
});

const RecalledFactOutput = z.object({
  id: z.string(),
  text: z.string(),
  tag: FactTagSchema,
  date: z.string().nullable().describe('The day the fact is about (YYYY-MM-DD), when it has one.'),
  said_at: z.string().describe('When it was said, as an ISO 8601 date-time in UTC.'),
  status: z.enum(['active', 'superseded']).describe('active: it holds (at as_of, when given); superseded: a correction retired it.'),
  superseded_by: z.string().nullable().describe('The id of the correction that retired it.'),
  score: z.number().describe('How well it matches the query; comparable only within one result.'),
});

const recallOutput = z.object({
  as_of: z.string().nullable().describe('The moment recalled, as an ISO 8601 date-time in UTC; null for now.'),
  facts: z.array(RecalledFactOutput),
});

type RecallOutput = z.infer<typeof recallOutput>;

function outputOf(recalled: RecalledFact): RecallOutput['facts'][number] {
  const { fact } = recalled;
  return {
    id: fact.id,
    text: fact.text,
    tag: fact.tag,
    date: fact.date,
    said_at: new Date(fact.createdAt).toISOString(),
    status: recalled.current ? 'active' : 'superseded',
    superseded_by: fact.supersededBy,
    score: recalled.score,
  };
}

export function sharedMemoryTools(memory: Memory): AnyTool[] {
  const remember = defineTool({
    name: 'remember',
    description:
      'Stores one fact about the user in long-term memory. A restatement of a known fact is recognised and not stored twice; ' +
      'a fact tagged CORRECTION retires the facts it corrects (they are kept as history, marked superseded).',
    inputSchema: RememberSchema,
    async execute(input) {
      const result = await memory.facts.remember(input);
      const fact = result.kind === 'stored' ? result.fact : result.of;
      return { outcome: result.kind, id: fact.id, text: fact.text, superseded: result.superseded, warnings: result.warnings };
    },
  });
  // The readable block for models is written from the recalled facts (with what the data leaves
  // out: sources, keys, the text of a correction) and kept beside the answer it goes with.
  const presented = new WeakMap<RecallOutput, string>();
  const recall = defineTool({
    name: 'recall',
    description:
      'Recalls the facts in long-term memory that best match a query, as reference data; superseded facts are marked as no longer true. ' +
      'With as_of, recalls memory as it stood then.',
    inputSchema: recallInput,
    outputSchema: recallOutput,
    present(output) {
      const text = presented.get(output);
      if (text === undefined) throw new Error('recall can only present an answer it gave');
      return text;
    },
    async execute({ query, limit = DEFAULT_RECALL_LIMIT, as_of }, ctx) {
      const asOf = as_of === undefined ? undefined : instantEnd(as_of);
      const recalled = await memory.facts.recall(query, { limit, signal: ctx.signal, asOf });
      const output: RecallOutput = { as_of: asOf === undefined ? null : new Date(asOf).toISOString(), facts: recalled.map(outputOf) };
      presented.set(output, formatRecalledFacts(recalled, { asOf }));
      return output;
    },
  });
  return [remember, recall, ...DOCUMENT_TOOLS.map((name) => memory.turn.tools.get(name)!)];
}
