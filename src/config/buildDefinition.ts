import type { ConfigIssue } from './errors.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_STEPS, DEFAULT_MEMORY_SYSTEM, type AgentDefinition, type SyndicateDefinition } from './definition.js';
import { DEFAULT_ROUTE_FLAGS, findRoute } from './routes.js';
import { currentToolName } from './legacyTools.js';
import { declaredSchedules } from './schedules.js';
import type { DispatchConfig, OrchestratorConfig, SubagentConfig, SyndicateFile, VariableValue } from './schema.js';

// Turns validated files into the agent tree the runtime runs. Only called once every check passed.

export interface ValidatedSyndicate {
  /** Real path of the file. */
  file: string;
  config: SyndicateFile;
  variables: Record<string, VariableValue>;
  /** Mounted syndicates by the index of the subagent entry that references them. */
  mounts: ReadonlyMap<number, ValidatedSyndicate>;
}

export function buildSyndicate(syndicate: ValidatedSyndicate, warnings: ConfigIssue[]): SyndicateDefinition {
  const { config } = syndicate;
  return {
    name: config.syndicate_name,
    description: config.description,
    file: syndicate.file,
    memorySystem: config.memory_system ?? DEFAULT_MEMORY_SYSTEM,
    memoryExtractionRules: config.memory_extraction_rules,
    memoryEmbedding: config.memory_embedding,
    memoryExtractionModel: config.memory_extraction_model,
    variables: syndicate.variables,
    maxSteps: config.max_steps ?? DEFAULT_MAX_STEPS,
    attemptTimeoutMs: config.timeout,
    deadlineMs: config.deadline,
    concurrency: config.concurrency ?? DEFAULT_CONCURRENCY,
    dreams: config.dreams,
    schedules: declaredSchedules(config.schedules),
    root: buildOrchestrator(syndicate, config.orchestrator.description ?? config.description ?? config.syndicate_name, false),
    warnings,
  };
}

/**
 * A syndicate's orchestrator with its subagents; a mounted syndicate is renamed by the entry that
 * mounts it. `inheritedCodeMode`: the mounting file's code_mode, for a mounted file that sets none.
 */
function buildOrchestrator(syndicate: ValidatedSyndicate, description: string, inheritedCodeMode: boolean, name?: string): AgentDefinition {
  const { config, file, mounts } = syndicate;
  const entries = config.subagents ?? [];
  const fileCodeMode = config.code_mode ?? inheritedCodeMode;
  const subagents = entries.map((entry, index): AgentDefinition => {
    const mounted = mounts.get(index);
    // The schema requires a description except on a remote agent, which may take its card's.
    const description = entry.description ?? '';
    if (mounted) return buildOrchestrator(mounted, description, fileCodeMode, entry.name);
    return { ...agentFields(entry, file, fileCodeMode), name: entry.name, description, subagents: [], dispatch: undefined, remote: remoteOf(entry) };
  });
  const dispatch = config.dispatch && canonicalRoutes(config.dispatch, entries.map((entry) => entry.name));
  return { ...agentFields(config.orchestrator, file, fileCodeMode), name: name ?? config.orchestrator.name, description, subagents, dispatch, remote: undefined };
}

function remoteOf(entry: SubagentConfig): AgentDefinition['remote'] {
  const url = entry.a2a_url ?? entry.a2a_agent_url;
  return url === undefined ? undefined : { cardUrl: url, authEnv: entry.a2a_auth_env };
}

type AgentFields = Omit<AgentDefinition, 'name' | 'description' | 'subagents' | 'dispatch' | 'remote'>;

function agentFields(agent: OrchestratorConfig | SubagentConfig, file: string, fileCodeMode: boolean): AgentFields {
  return {
    model: agent.model,
    // The schema refuses a subagent without an instruction unless it is mounted, so '' never reaches the runtime.
    instruction: agent.instruction ?? '',
    globalInstruction: agent.globalInstruction,
    tools: (agent.tools ?? []).map(currentToolName),
    customTools: [],
    generateContentConfig: agent.generateContentConfig ?? {},
    outputSchema: agent.outputSchema,
    mcpServerUrl: agent.mcp_server_url,
    mcpServers: agent.mcp_servers ?? [],
    script: agent.script,
    includeContents: agent.includeContents ?? 'default',
    file,
    // Remote agents and dispatching orchestrators call no tools of ours, so it has no effect on them.
    codeMode: agent.code_mode ?? fileCodeMode,
    skills: agent.skills ?? [],
  };
}

/** Routes are written loosely (`drafter_agent`); the runtime gets the declared names and explicit flags. */
function canonicalRoutes(dispatch: DispatchConfig, names: readonly string[]): DispatchConfig {
  const route = (written: string): string => findRoute(written, names) ?? written;
  return {
    ...dispatch,
    default_route: route(dispatch.default_route),
    route_overrides: dispatch.route_overrides?.map((override) => ({
      ...override,
      route: route(override.route),
      flags: override.flags ?? DEFAULT_ROUTE_FLAGS,
    })),
  };
}
