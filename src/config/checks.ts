import { isRecord, type Path, type Problem } from './problem.js';
import { DEFAULT_ROUTE_FLAGS, findRoute } from './routes.js';
import { subagentSchema } from './schema.js';
import { DEFAULT_MEMORY_SYSTEM } from './definition.js';
import { MEMORY_TOOL_NAMES } from './memoryTools.js';
import { closestMatch } from './suggest.js';
import { currentToolName, LEGACY_TOOLS } from './legacyTools.js';
import { parseModelId, unknownModelAdvice } from './modelIds.js';

// Checks the schema cannot express: they need the tool list or look across fields.
// They read the raw (interpolated) data so they still report when the schema found other problems.

interface RawAgent {
  path: Path;
  fields: Record<string, unknown>;
}

interface RawSubagent extends RawAgent {
  index: number;
}

/** Fields a subagent entry may carry besides the mount itself. */
const MOUNT_FIELDS = new Set(['name', 'description', 'yaml_reference']);
/** Fields of a remote A2A agent: everything else is the remote agent's own business. */
const REMOTE_FIELDS = new Set(['name', 'description', 'a2a_url', 'a2a_agent_url', 'a2a_auth_env']);
const SUBAGENT_FIELDS = new Set(Object.keys(subagentSchema.shape));

export function fileAgents(data: unknown): RawAgent[] {
  if (!isRecord(data)) return [];
  const agents: RawAgent[] = isRecord(data['orchestrator']) ? [{ path: ['orchestrator'], fields: data['orchestrator'] }] : [];
  return agents.concat(subagentEntries(data));
}

export function subagentEntries(data: unknown): RawSubagent[] {
  const subagents = isRecord(data) ? data['subagents'] : undefined;
  if (!Array.isArray(subagents)) return [];
  return subagents.flatMap((fields: unknown, index) => (isRecord(fields) ? [{ index, path: ['subagents', index], fields }] : []));
}

export function toolProblems(data: unknown, knownTools: readonly string[]): Problem[] {
  return fileAgents(data).flatMap(({ path, fields }) => {
    const tools = fields['tools'];
    if (!Array.isArray(tools)) return [];
    return tools.flatMap((tool: unknown, index): Problem[] => {
      if (typeof tool !== 'string' || knownTools.includes(tool) || LEGACY_TOOLS.includes(tool)) return [];
      return [{ path: [...path, 'tools', index], message: `unknown tool '${tool}' — ${suggestion(tool, knownTools, 'known tools')}` }];
    });
  });
}

/** Memory tools in a file whose memory_system is not long-term (the root's default is session-only). */
export function memoryToolProblems(data: unknown, isRoot: boolean): Problem[] {
  const declared = isRecord(data) ? data['memory_system'] : undefined;
  const memorySystem = declared ?? (isRoot ? DEFAULT_MEMORY_SYSTEM : undefined);
  if (memorySystem === undefined || memorySystem === 'long-term') return [];
  const why = declared === undefined ? `this file leaves it at the default, ${DEFAULT_MEMORY_SYSTEM}` : `this file sets ${String(declared)}`;
  return fileAgents(data).flatMap(({ path, fields }) => {
    const tools = fields['tools'];
    if (!Array.isArray(tools)) return [];
    return tools.flatMap((tool: unknown, index): Problem[] =>
      typeof tool === 'string' && MEMORY_TOOL_NAMES.includes(tool)
        ? [{ path: [...path, 'tools', index], message: `${tool} needs memory_system: long-term (${why}) — set memory_system: long-term at the top of the file` }]
        : [],
    );
  });
}

export function dispatchProblems(data: unknown): Problem[] {
  const dispatch = isRecord(data) ? data['dispatch'] : undefined;
  if (!isRecord(dispatch)) return [];
  const names = subagentEntries(data).flatMap(({ fields }) => (typeof fields['name'] === 'string' ? [fields['name']] : []));
  const overrides: unknown[] = Array.isArray(dispatch['route_overrides']) ? dispatch['route_overrides'] : [];
  const overrideProblems = overrides.flatMap((override, index): Problem[] => {
    if (!isRecord(override)) return [];
    const path = ['dispatch', 'route_overrides', index];
    return [...routeProblem(override['route'], [...path, 'route'], names), ...patternProblems(override, path)];
  });
  return [...routeProblem(dispatch['default_route'], ['dispatch', 'default_route'], names), ...overrideProblems];
}

/** A mounted entry takes everything but its name and description from the mounted file; a remote A2A agent brings its own model, instruction and tools. */
export function subagentEntryProblems(data: unknown): Problem[] {
  return subagentEntries(data).flatMap(({ path, fields }): Problem[] => {
    if (fields['a2a_url'] !== undefined || fields['a2a_agent_url'] !== undefined) {
      return Object.keys(fields)
        .filter((key) => SUBAGENT_FIELDS.has(key) && !REMOTE_FIELDS.has(key) && key !== 'yaml_reference')
        .map((key) => ({
          path: [...path, key],
          anchor: 'key',
          message: `not used with a2a_url: the remote agent runs its own model, instruction and tools — remove it`,
        }));
    }
    if (fields['yaml_reference'] === undefined) return [];
    return Object.keys(fields)
      .filter((key) => SUBAGENT_FIELDS.has(key) && !MOUNT_FIELDS.has(key))
      .map((key) => ({
        path: [...path, key],
        anchor: 'key',
        message: `not used with yaml_reference: the mounted file's orchestrator sets it — move it there or remove it`,
      }));
  });
}

function routeProblem(route: unknown, path: Path, names: readonly string[]): Problem[] {
  if (typeof route !== 'string' || findRoute(route, names) !== undefined) return [];
  return [{ path, message: `'${route}' is not a subagent of this syndicate — ${suggestion(route, names, 'declared subagents')}` }];
}

function patternProblems(override: Record<string, unknown>, path: Path): Problem[] {
  const { pattern, flags = DEFAULT_ROUTE_FLAGS } = override;
  if (typeof flags !== 'string' || typeof pattern !== 'string') return [];
  const flagsError = regexError('', flags);
  if (flagsError) return [{ path: [...path, 'flags'], message: `invalid regex flags '${flags}' — use letters from d, g, i, m, s, u, v, y` }];
  const patternError = regexError(pattern, flags);
  return patternError ? [{ path: [...path, 'pattern'], message: `does not compile as a regular expression: ${patternError}` }] : [];
}

function regexError(pattern: string, flags: string): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function suggestion(name: string, candidates: readonly string[], listLabel: string): string {
  const match = closestMatch(name, candidates);
  if (match) return `did you mean '${match}'?`;
  return candidates.length > 0 ? `${listLabel}: ${candidates.join(', ')}` : `there are no ${listLabel}`;
}

// Fields melchizedek-agents files may carry that this version accepts (so the files load
// unchanged) but does not act on. Each is reported as a warning: never silently ignored.
const INERT_AGENT_FIELDS: Record<string, string> = {
  disallowTransferToParent: 'has no effect: agents here only delegate downwards, to their own subagents',
  disallowTransferToPeers: 'has no effect: agents here only delegate downwards, to their own subagents',
  outputKey: 'has no effect: there is no session state keyed by agent output; read the stored session events instead',
  orchestration: 'has no effect: delegation follows the subagents list',
};
const INERT_FILE_FIELDS: Record<string, string> = {
  guards: 'has no effect: post-answer guards are not supported in this version',
  memory_namespace: 'has no effect yet: sessions are stored per session id',
};

export function inertFieldWarnings(data: unknown): Problem[] {
  if (!isRecord(data)) return [];
  const fileWarnings = Object.keys(INERT_FILE_FIELDS)
    .filter((key) => data[key] !== undefined)
    .map((key): Problem => ({ path: [key], anchor: 'key', message: INERT_FILE_FIELDS[key] as string }));
  const agentWarnings = fileAgents(data).flatMap(({ path, fields }) =>
    Object.keys(INERT_AGENT_FIELDS)
      .filter((key) => fields[key] !== undefined)
      .map((key): Problem => ({ path: [...path, key], anchor: 'key', message: INERT_AGENT_FIELDS[key] as string })),
  );
  return [...fileWarnings, ...agentWarnings];
}

export function legacyToolWarnings(data: unknown): Problem[] {
  return fileAgents(data).flatMap(({ path, fields }) => {
    const tools = fields['tools'];
    if (!Array.isArray(tools)) return [];
    return tools.flatMap((tool: unknown, index): Problem[] =>
      typeof tool === 'string' && LEGACY_TOOLS.includes(tool)
        ? [{ path: [...path, 'tools', index], message: `${tool} is a legacy name of ${currentToolName(tool)}, and loads as ${currentToolName(tool)} — write ${currentToolName(tool)} instead` }]
        : [],
    );
  });
}

/** Model ids no provider here knows; a program with its own resolver turns this off (LoadSyndicateOptions.customModels). */
export function modelProblems(data: unknown): Problem[] {
  return fileAgents(data).flatMap(({ path, fields }): Problem[] => {
    const model = fields['model'];
    if (typeof model !== 'string' || model === '' || parseModelId(model) !== undefined) return [];
    return [{ path: [...path, 'model'], message: `unknown model "${model}" — ${unknownModelAdvice(model)}` }];
  });
}
