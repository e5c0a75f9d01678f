import { MEMORY_TOOLS } from '../config/memoryTools.js';
import type { AnyTool } from '../core/tool.js';
import type { Documents } from './documents/documents.js';
import { createDocumentTools } from './documents/tools.js';
import type { FactMemory } from './facts/factMemory.js';
import { formatRecalledFacts } from './facts/formatRecalledFacts.js';

// What one turn of a long-term syndicate gets from memory: the memory tools bound to the turn's
// silo, and the recall behind preload_memory.

export interface TurnMemory {
  readonly silo: string;
  /** The memory tools (see config/memoryTools.ts) by name. */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** Facts recalled for `input`, labelled as reference data; undefined when none are relevant. */
  preload(input: string, signal: AbortSignal): Promise<string | undefined>;
}

export function createTurnMemory(facts: FactMemory, documents: Documents): TurnMemory {
  const tools = new Map<string, AnyTool>([facts.loadMemoryTool(), ...createDocumentTools(documents, { silo: facts.silo })].map((tool) => [tool.name, tool]));
  const missing = MEMORY_TOOLS.filter((name) => !tools.has(name));
  if (missing.length > 0) throw new Error(`the memory layer does not implement ${missing.join(', ')}`);
  return {
    silo: facts.silo,
    tools,
    async preload(input, signal) {
      const recalled = await facts.recall(input, { signal });
      return recalled.length === 0 ? undefined : formatRecalledFacts(recalled);
    },
  };
}
