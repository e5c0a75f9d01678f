import type { AnyTool } from '../core/tool.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_STEPS, DEFAULT_MEMORY_SYSTEM, type AgentDefinition, type SyndicateDefinition } from './definition.js';

// Builds definitions in code rather than YAML: embedding Syndicate in a program, tests and
// benchmarks. The result skips the loader's checks, so names and tools are the caller's to get right.

/** An agent's fields in code: `tools` may hold tool objects (defineTool) next to tool names. */
export type AgentFields = Partial<Omit<AgentDefinition, 'tools'>> & { tools?: ReadonlyArray<string | AnyTool> };

function splitTools(agent: string, tools: ReadonlyArray<string | AnyTool>, customTools: readonly AnyTool[]): { tools: string[]; customTools: AnyTool[] } {
  const own = [...customTools, ...tools.filter((tool): tool is AnyTool => typeof tool !== 'string')];
  const seen = new Set<string>();
  for (const tool of own) {
    if (seen.has(tool.name)) throw new Error(`agent '${agent}' is given two tools named '${tool.name}': give each tool a name of its own`);
    seen.add(tool.name);
  }
  return { tools: tools.map((tool) => (typeof tool === 'string' ? tool : tool.name)), customTools: own };
}

export function defineAgent(name: string, fields: AgentFields = {}): AgentDefinition {
  const { tools = [], customTools = [], ...rest } = fields;
  return {
    name,
    description: `${name} does its job.`,
    model: undefined,
    instruction: `You are ${name}.`,
    globalInstruction: undefined,
    generateContentConfig: {},
    outputSchema: undefined,
    mcpServerUrl: undefined,
    mcpServers: [],
    script: undefined,
    includeContents: 'default',
    subagents: [],
    dispatch: undefined,
    remote: undefined,
    file: '(defined in code)',
    codeMode: false,
    skills: [],
    ...rest,
    ...splitTools(name, tools, customTools),
  };
}

export function defineSyndicate(root: AgentDefinition, fields: Partial<SyndicateDefinition> = {}): SyndicateDefinition {
  return {
    name: root.name,
    description: undefined,
    file: '(defined in code)',
    memorySystem: DEFAULT_MEMORY_SYSTEM,
    memoryExtractionRules: undefined,
    memoryEmbedding: undefined,
    memoryExtractionModel: undefined,
    variables: {},
    maxSteps: DEFAULT_MAX_STEPS,
    concurrency: DEFAULT_CONCURRENCY,
    schedules: [],
    root,
    warnings: [],
    ...fields,
  };
}
