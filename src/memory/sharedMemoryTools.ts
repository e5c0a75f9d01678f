import { z } from 'zod';
import { defineTool, type AnyTool } from '../core/tool.js';
import { RememberSchema } from './facts/fact.js';
import { formatRecalledFacts } from './facts/formatRecalledFacts.js';
import type { Memory } from './openMemory.js';

// A silo's memory as tools for other agents and editors (the MCP server face: the "shared memory
// node"): facts to remember and recall, and the document tools agents use themselves.

const DOCUMENT_TOOLS = ['memory_search', 'memory_read', 'memory_write', 'memory_list', 'memory_history'];

const recallInput = z.object({
  query: z.string().trim().min(1).describe('What to look up, in a few words or a question.'),
  limit: z.number().int().min(1).max(50).optional().describe('How many facts to return (default 10).'),
});

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
  const recall = defineTool({
    name: 'recall',
    description: 'Recalls the facts in long-term memory that best match a query, as reference data; superseded facts are marked as no longer true.',
    inputSchema: recallInput,
    async execute({ query, limit }, ctx) {
      return formatRecalledFacts(await memory.facts.recall(query, { limit, signal: ctx.signal }));
    },
  });
  return [remember, recall, ...DOCUMENT_TOOLS.map((name) => memory.turn.tools.get(name)!)];
}
