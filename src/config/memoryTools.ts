// The memory tool names a syndicate file may list in `tools:`. They need `memory_system:
// long-term`; the memory layer (memory/) implements them, bound to one silo per turn.

export const PRELOAD_MEMORY = 'preload_memory';

/** Tools the agent calls. `preload_memory` is not among them: it injects recalled facts itself. */
export const MEMORY_TOOLS: readonly string[] = [
  'load_memory',
  'memory_search',
  'memory_read',
  'memory_write',
  'memory_list',
  'memory_follow',
  'memory_graph',
  'memory_delete',
  'memory_history',
];

export const MEMORY_TOOL_NAMES: readonly string[] = [PRELOAD_MEMORY, ...MEMORY_TOOLS];
