import type { JSONSchema7 } from '@ai-sdk/provider';
import type { ConfigIssue } from './errors.js';
import type { DispatchConfig, GenerateContentConfig, MemorySystem, ScriptStep, VariableValue } from './schema.js';

// What loadSyndicate hands to the runtime: a validated, fully resolved agent tree.
// Variables are already interpolated except the per-turn built-ins (`{{current_date}}`),
// yaml_reference mounts are expanded, and outputSchema is normalised to lowercase JSON Schema.

export interface AgentDefinition {
  name: string;
  description: string;
  /** Undefined means "inherit the parent's model". */
  model: string | undefined;
  instruction: string;
  globalInstruction: string | undefined;
  tools: string[];
  generateContentConfig: GenerateContentConfig;
  outputSchema: JSONSchema7 | undefined;
  mcpServerUrl: string | undefined;
  script: ScriptStep[] | undefined;
  includeContents: 'default' | 'none';
  subagents: AgentDefinition[];
  /** Set on an agent that orchestrates by PLAN-DISPATCH (the root, or a mounted syndicate's root). */
  dispatch: DispatchConfig | undefined;
  /** The file this agent was declared in (differs from the root file under yaml_reference). */
  file: string;
}

export interface SyndicateDefinition {
  name: string;
  description: string | undefined;
  file: string;
  memorySystem: MemorySystem;
  memoryExtractionRules: string | undefined;
  variables: Record<string, VariableValue>;
  maxSteps: number;
  root: AgentDefinition;
  /** Fields the file sets that this version accepts but does not act on, with where they are. */
  warnings: ConfigIssue[];
}

export const DEFAULT_MAX_STEPS = 20;
export const DEFAULT_MEMORY_SYSTEM: MemorySystem = 'session-only';
