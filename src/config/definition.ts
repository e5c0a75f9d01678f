import type { JSONSchema7, LanguageModelV3 } from '@ai-sdk/provider';
import type { AnyTool } from '../core/tool.js';
import type { ConfigIssue } from './errors.js';
import type { DreamsConfig } from './dreams.js';
import type { DeclaredSchedule } from './schedules.js';
import type { Concurrency, DispatchConfig, GenerateContentConfig, McpServerConfig, MemorySystem, ScriptStep, VariableValue } from './schema.js';

// What loadSyndicate hands to the runtime: a validated, fully resolved agent tree.
// Variables are already interpolated except the per-turn built-ins (`{{current_date}}`),
// yaml_reference mounts are expanded, and outputSchema is normalised to lowercase JSON Schema.

/** A subagent that runs elsewhere and is called over A2A (`a2a_url`). */
export interface RemoteAgentSpec {
  /** The agent card URL (a base URL is completed with /.well-known/agent-card.json). */
  cardUrl: string;
  /** `a2a_auth_env`: the environment variable holding the bearer token, read when the agent is called. */
  authEnv: string | undefined;
}

export interface AgentDefinition {
  name: string;
  /** '' on a remote agent whose file gives none: the remote card's description is offered instead. */
  description: string;
  /** A model id, or (in code) any AI SDK language model. Undefined means "inherit the parent's model". */
  model: string | LanguageModelV3 | undefined;
  instruction: string;
  globalInstruction: string | undefined;
  /** Tool names: built-ins, the program's registry, and `customTools`. */
  tools: string[];
  /** Tools defined in code for this agent (defineAgent's tool objects); their names are in `tools` too. */
  customTools: AnyTool[];
  generateContentConfig: GenerateContentConfig;
  outputSchema: JSONSchema7 | undefined;
  /** `mcp_server_url`: one MCP server over Streamable HTTP (or HTTP+SSE); its tools are named after the server's own name. */
  mcpServerUrl: string | undefined;
  /** `mcp_servers`: MCP servers whose tools join this agent's, named `<name>_<tool>`. */
  mcpServers: McpServerConfig[];
  script: ScriptStep[] | undefined;
  includeContents: 'default' | 'none';
  subagents: AgentDefinition[];
  /** Set on an agent that orchestrates by PLAN-DISPATCH (the root, or a mounted syndicate's root). */
  dispatch: DispatchConfig | undefined;
  /** Set on a remote A2A agent, which has no model, instruction or tools here. */
  remote: RemoteAgentSpec | undefined;
  /** The file this agent was declared in (differs from the root file under yaml_reference). */
  file: string;
  /** `code_mode` (the agent's own, else its file's, else the root file's): tools are called from a script. */
  codeMode: boolean;
  /** `skills:` as written: paths or names, resolved when the syndicate is compiled. */
  skills: string[];
}

export interface SyndicateDefinition {
  name: string;
  description: string | undefined;
  file: string;
  memorySystem: MemorySystem;
  memoryExtractionRules: string | undefined;
  /** `memory_embedding`: the embedder for memory and the embedding router; undefined = the built-in local one. */
  memoryEmbedding: string | undefined;
  /** `memory_extraction_model`: distils sessions into facts; undefined = the orchestrator's model. */
  memoryExtractionModel: string | undefined;
  variables: Record<string, VariableValue>;
  maxSteps: number;
  /** `timeout`: the per-attempt model call timeout; undefined = the runtime's default. */
  attemptTimeoutMs?: number;
  /** `deadline`: the whole turn's limit; undefined = the face's default (none in the library). */
  deadlineMs?: number;
  /** `concurrency`: a server's answer to a message while the session's turn runs (enqueue, reject, interrupt). */
  concurrency: Concurrency;
  root: AgentDefinition;
  /** `dreams:`: when and how the syndicate reflects on its sessions, unattended; undefined when it does not. */
  dreams?: DreamsConfig;
  /** `schedules:`: the tasks the file declares, defaults filled in; [] when it declares none. */
  schedules: DeclaredSchedule[];
  /** Fields the file sets that this version accepts but does not act on, with where they are. */
  warnings: ConfigIssue[];
}

export const DEFAULT_MAX_STEPS = 20;
export const DEFAULT_MEMORY_SYSTEM: MemorySystem = 'session-only';
/** The next message waits behind the running turn. */
export const DEFAULT_CONCURRENCY: Concurrency = 'enqueue';
