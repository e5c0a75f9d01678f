import { DEFAULT_MAX_STEPS, DEFAULT_MEMORY_SYSTEM, type AgentDefinition, type SyndicateDefinition } from './definition.js';

// Builds definitions in code rather than YAML: embedding Syndicate in a program, tests and
// benchmarks. The result skips the loader's checks, so names and tools are the caller's to get right.

export function defineAgent(name: string, fields: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    name,
    description: `${name} does its job.`,
    model: undefined,
    instruction: `You are ${name}.`,
    globalInstruction: undefined,
    tools: [],
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
    ...fields,
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
    root,
    warnings: [],
    ...fields,
  };
}
