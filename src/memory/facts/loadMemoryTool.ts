import { z } from 'zod';
import { defineTool, type Tool } from '../../core/tool.js';
import { formatRecalledFacts } from './formatRecalledFacts.js';
import type { RecallOptions, RecalledFact } from './recall.js';

const LoadMemoryInput = z.object({
  query: z.string().trim().min(1).describe('What to look up, in a few words or a question.'),
  limit: z.number().int().min(1).max(50).optional().describe('How many facts to return (default 10).'),
});

export type LoadMemoryInput = z.infer<typeof LoadMemoryInput>;

/** The `load_memory` tool: the agent looks up long-term facts about the user when it decides to. */
export function loadMemoryTool(recall: (query: string, options: RecallOptions) => Promise<RecalledFact[]>): Tool<LoadMemoryInput, string> {
  return defineTool({
    name: 'load_memory',
    description:
      'Looks up long-term memory: facts, preferences, decisions and events about the user from earlier conversations. ' +
      'Returns the best matches as reference data; superseded facts are marked as no longer true.',
    inputSchema: LoadMemoryInput,
    async execute({ query, limit }, ctx) {
      return formatRecalledFacts(await recall(query, { limit, signal: ctx.signal }));
    },
  });
}
