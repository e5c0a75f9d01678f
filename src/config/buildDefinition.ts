import type { ConfigIssue } from './errors.js';
import { DEFAULT_MAX_STEPS, DEFAULT_MEMORY_SYSTEM, type AgentDefinition, type SyndicateDefinition } from './definition.js';
import { DEFAULT_ROUTE_FLAGS, findRoute } from './routes.js';
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
    variables: syndicate.variables,
    maxSteps: config.max_steps ?? DEFAULT_MAX_STEPS,
    root: buildOrchestrator(syndicate, config.orchestrator.description ?? config.description ?? config.syndicate_name),
    warnings,
  };
}

/** A syndicate's orchestrator with its subagents; a mounted syndicate is renamed by the entry that mounts it. */
function buildOrchestrator(syndicate: ValidatedSyndicate, description: string, name?: string): AgentDefinition {
  const { config, file, mounts } = syndicate;
  const subagents = config.subagents.map((entry, index) => {
    const mounted = mounts.get(index);
    if (mounted) return buildOrchestrator(mounted, entry.description, entry.name);
    return { ...agentFields(entry, file), name: entry.name, description: entry.description, subagents: [], dispatch: undefined };
  });
  const dispatch = config.dispatch && canonicalRoutes(config.dispatch, config.subagents.map((entry) => entry.name));
  return { ...agentFields(config.orchestrator, file), name: name ?? config.orchestrator.name, description, subagents, dispatch };
}

type AgentFields = Omit<AgentDefinition, 'name' | 'description' | 'subagents' | 'dispatch'>;

function agentFields(agent: OrchestratorConfig | SubagentConfig, file: string): AgentFields {
  return {
    model: agent.model,
    // The schema refuses a subagent without an instruction unless it is mounted, so '' never reaches the runtime.
    instruction: agent.instruction ?? '',
    globalInstruction: agent.globalInstruction,
    tools: agent.tools ?? [],
    generateContentConfig: agent.generateContentConfig ?? {},
    outputSchema: agent.outputSchema,
    mcpServerUrl: agent.mcp_server_url,
    script: agent.script,
    includeContents: agent.includeContents ?? 'default',
    file,
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
