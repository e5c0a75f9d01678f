import path from 'node:path';
import { z } from 'zod';
import type { JSONSchema7, LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3ProviderTool } from '@ai-sdk/provider';
import type { AgentDefinition, RemoteAgentSpec, SyndicateDefinition } from '../config/definition.js';
import { findRoute } from '../config/routes.js';
import { SyndicateConfigError } from '../config/errors.js';
import type { ProvidersConfig } from '../config/projectConfig.js';
import type { Concurrency, DispatchConfig, MemorySystem, ScriptStep } from '../config/schema.js';
import { callSettingsFor, neutralCallSettings, type CallSettings, type MappedCallSettings } from '../models/callSettings.js';
import { parseModelId, type ProviderFamily } from '../config/modelIds.js';
import { unknownModelError } from '../models/modelIds.js';
import { resolveModel } from '../models/resolveModel.js';
import { GENERATE_IMAGE_TOOL, INSPECT_IMAGE_TOOL, WEB_SEARCH_TOOL, XAI_ONLY_TOOLS } from '../config/builtinToolNames.js';
import { webSearchTool } from '../models/webSearch.js';
import { loadImageModel } from '../models/imageModels.js';
import { defaultDataDir } from '../store/location.js';
import { generateImageTool } from '../tools/images/generateImage.js';
import { inspectImageTool } from '../tools/images/inspectImage.js';
import { OUTPUTS_FOLDER } from '../tools/images/outputsFolder.js';
import { readXaiSearchEnv, xaiProviderTool, type XaiSearchSettings } from '../models/xaiSearch.js';
import { builtinTools, type ToolRegistry } from '../tools/registry.js';
import { createAgentMcpTools, type AgentMcpTools } from '../tools/mcp/agentMcpTools.js';
import { serverSpecsOf } from '../tools/mcp/serverSpec.js';
import { mcpSettings, type McpClientSettings } from '../tools/mcp/settings.js';
import type { AnyTool } from '../core/tool.js';
import type { DelegateKind } from '../core/events.js';
import { agentModel, DEFAULT_ROOT_MODEL, modelFamily, modelInheritedFrom, modelLabel, type AgentModel, type ModelChoice } from './agentModel.js';
import { placedAgents, webSearchProblems } from './webSearchProblems.js';
import { MEMORY_TOOL_NAMES, PRELOAD_MEMORY } from '../config/memoryTools.js';
import { BACKGROUND_TOOL_NAMES } from '../config/backgroundTools.js';
import type { DreamsConfig } from '../config/dreams.js';
import type { RemoteConversation } from './projectTranscript.js';
import type { TurnContext } from './turnContext.js';
import { createEmbeddingRouter, type EmbeddingRouter } from './embeddingRouter.js';
import type { Embedder } from '../memory/embeddings/embedder.js';
import { localEmbedder } from '../memory/embeddings/localEmbedder.js';
import { resolveEmbedder } from '../memory/embeddings/resolveEmbedder.js';
import type { ToolFunction } from './codeMode/toolFunctions.js';
import { defaultSkillFolders, resolveSkills, type SkillFolders } from '../tools/skills/resolveSkills.js';
import { createSkillTools, skillCatalog } from '../tools/skills/skillTools.js';
import { sortIssues, type ConfigIssue } from '../config/errors.js';

// Turns a validated definition into live agents: models resolved, tool schemas converted
// to JSON Schema once, output schemas compiled to validators once. Nothing here calls a
// model, so a missing API key surfaces only when that agent first runs.

export interface CompiledOutputSchema {
  jsonSchema: JSONSchema7;
  validator: z.ZodType;
}

export interface CompiledDispatch {
  config: DispatchConfig;
  routeKey: string;
  reasonKey: string;
  overrides: Array<{ route: CompiledAgent; regex: RegExp; reason: string | undefined }>;
  defaultRoute: CompiledAgent;
  classifierSchema: JSONSchema7;
  /** Set with `classifier: embedding`: routes by similarity instead of asking the model. */
  router: EmbeddingRouter | undefined;
}

export interface CompiledAgent {
  name: string;
  /** What it is to the agent that hands it work (undefined on the root, which none does); the events that start its runs carry it. */
  kind: DelegateKind | undefined;
  description: string;
  instruction: string;
  modelId: string;
  model: LanguageModelV3;
  /** Tools offered to the model: subagents first, then its tools in order (web_search as the provider's own tool). */
  toolSpecs: Array<LanguageModelV3FunctionTool | LanguageModelV3ProviderTool>;
  tools: ReadonlyMap<string, AnyTool>;
  /** The agent's MCP servers (`mcp_server_url`, `mcp_servers`): their tools join toolSpecs/tools turn by turn. */
  mcp: AgentMcpTools | undefined;
  /** Set on a remote A2A agent (`a2a_url`): runAgent hands its runs to it instead of a model. */
  remote: RemoteAgent | undefined;
  subagents: ReadonlyMap<string, CompiledAgent>;
  outputSchema: CompiledOutputSchema | undefined;
  jsonMode: boolean;
  settings: CallSettings;
  includeHistory: boolean;
  dispatch: CompiledDispatch | undefined;
  /** Memory tools it lists (config/memoryTools.ts): bound to the turn's silo, they join its tools turn by turn. */
  memoryTools: readonly string[];
  /** Background-job tools it lists (config/backgroundTools.ts): the face's job runner binds them turn by turn. */
  backgroundTools: readonly string[];
  /** `preload_memory`: facts recalled for the request are attached to it as reference data. */
  preloadMemory: boolean;
  /** `code_mode`: the model is offered execute_code, and its tools become the script's functions. */
  codeMode: boolean;
  /** Set on a code-mode run (runtime/codeMode): the functions its scripts call, from all its tools of this turn. */
  scriptFunctions: readonly ToolFunction[] | undefined;
}

export interface CompiledSyndicate {
  name: string;
  description: string | undefined;
  file: string;
  memorySystem: MemorySystem;
  maxSteps: number;
  /** The file's `timeout` (per model call attempt) and `deadline` (per turn), when it sets them. */
  attemptTimeoutMs: number | undefined;
  deadlineMs: number | undefined;
  /** The file's `concurrency`: what a server does with a message while the session's turn runs. */
  concurrency: Concurrency;
  root: CompiledAgent;
  /** `dreams:` as the file declares them (scheduler/dreams runs them). */
  dreams: DreamsConfig | undefined;
  /** Every agent by name, for lookups from stored events. */
  agents: ReadonlyMap<string, CompiledAgent>;
  /** The embedder `memory_embedding` names (offline: the built-in local one), created on first use. */
  embedder(): Embedder;
  /** `memory_extraction_rules`. */
  memoryExtractionRules: string | undefined;
  /** Distils sessions into facts (memory_system: long-term only). Its scripted stand-in follows scripts['memory-extraction']. */
  extractionModel: LanguageModelV3 | undefined;
  /** Settings an agent's provider cannot honour, one line each, naming the agent. */
  warnings: string[];
  /** Starts connecting every agent's MCP servers in the background (runTurn does, at each turn's start). Compiling alone connects nothing. */
  openConnections(): void;
  /** Closes what the agents hold open (MCP connections, stdio server processes). Free without MCP servers. */
  close(): Promise<void>;
}

/**
 * A subagent that runs elsewhere: a remote A2A agent. The runtime only calls it; the A2A client
 * (src/a2a/client) implements it and is passed in as CompileOptions.remoteAgents, so the runtime
 * never imports a face.
 */
export interface RemoteAgent {
  /** The remote agent's own description (its card's), fetched once. Rejects saying what went wrong and how to fix it. */
  describe(signal: AbortSignal): Promise<string>;
  /** Runs one request as `depth`, its progress emitted as this agent's events; resolves to its answer (or its question when it needs input). */
  run(turn: TurnContext, input: string, depth: number): Promise<string>;
  /**
   * The user withdrew the question `conversation`'s waiting task asked in this session: that task
   * is cancelled (best effort, within the client's cancel timeout) and the session's next request
   * starts a new one. Never rejects: resolves to a warning when the task could not be cancelled.
   */
  withdraw(sessionId: string, conversation: RemoteConversation): Promise<string | undefined>;
}

export type RemoteAgentFactory = (name: string, spec: RemoteAgentSpec, env: NodeJS.ProcessEnv) => RemoteAgent;

/** What a remote agent does when the program compiled the syndicate without an A2A client. */
function remoteAgentsMissing(name: string, spec: RemoteAgentSpec): RemoteAgent {
  const refuse = (): Promise<never> =>
    Promise.reject(new Error(`${name} is a remote A2A agent (${spec.cardUrl}), and this program compiled the syndicate without an A2A client: pass remoteAgents: a2aRemoteAgents() to compileSyndicate`));
  return { describe: refuse, run: refuse, withdraw: async () => undefined };
}

export interface CompileOptions extends ModelChoice {
  /** Scripts for the scripted model by agent name; "*" applies to agents without their own. */
  scripts?: Record<string, ScriptStep[]>;
  tools?: ToolRegistry;
  env?: NodeJS.ProcessEnv;
  /** The project config file's openai-compatible servers (see config/projectConfig.ts). */
  providers?: ProvidersConfig;
  /** Replaces the model resolver: custom providers, or recording models in tests. */
  resolveModel?: typeof resolveModel;
  /** Replaces the embedder `memory_embedding` names (offline: the built-in local one). */
  embedder?: Embedder;
  /** MCP client behaviour: the SSRF policy (default from ALLOW_PRIVATE_MCP / SYNDICATE_ALLOWED_HOSTS in `env`), timeouts, TTL. */
  mcp?: Partial<McpClientSettings>;
  /** Where skills named in `skills:` are looked up (default: ./.agents/skills, then ~/.agents/skills). */
  skillFolders?: SkillFolders;
  /** How remote A2A subagents (`a2a_url`) are reached: a2aRemoteAgents() from src/a2a/client. */
  remoteAgents?: RemoteAgentFactory;
  /** Where generate_image saves and inspect_image reads; default `outputs/` in the data directory. */
  outputsFolder?: string;
}

const DELEGATION_INPUT: JSONSchema7 = {
  type: 'object',
  properties: { request: { type: 'string', description: 'What you need from this agent, with all the context it needs.' } },
  required: ['request'],
  additionalProperties: false,
};

function settingsFor(agent: AgentDefinition, family: ProviderFamily | undefined): MappedCallSettings {
  // An id only a custom resolver knows gets the settings as written.
  if (family === undefined) return { settings: neutralCallSettings(agent.generateContentConfig), warnings: [] };
  return callSettingsFor(family, agent.generateContentConfig, { hasOutputSchema: agent.outputSchema !== undefined });
}

export function functionToolOf(tool: AnyTool): LanguageModelV3FunctionTool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as JSONSchema7 & { $schema?: string };
  return { type: 'function', name: tool.name, description: tool.description, inputSchema };
}

// The local embedder (USE-lite) scores low and close together: against the triage example's routes,
// questions scored 0.19-0.44 with the right route and an off-topic one at most 0.09. Files set
// min_similarity for their own routes and embedder.
const DEFAULT_MIN_SIMILARITY = 0.15;

const EXTRACTION_AGENT = 'memory-extraction';
// Unscripted, the scripted model answers a JSON request with a placeholder instance of the schema:
// a made-up fact. Offline, memory stays empty unless a script says what to extract.
const NO_FACTS: ScriptStep[] = [{ json: { facts: [] }, repeat: true }];

function compileDispatch(config: DispatchConfig, subagents: ReadonlyMap<string, CompiledAgent>, embedder: () => Embedder): CompiledDispatch {
  const routeOf = (name: string): CompiledAgent => {
    const declared = findRoute(name, [...subagents.keys()]);
    const agent = declared === undefined ? undefined : subagents.get(declared);
    if (!agent) throw new Error(`dispatch route '${name}' names no subagent (the loader should have refused this file)`);
    return agent;
  };
  const routeKey = config.route_key ?? 'route';
  const reasonKey = config.reason_key ?? 'reason';
  return {
    config,
    routeKey,
    reasonKey,
    defaultRoute: routeOf(config.default_route),
    overrides: (config.route_overrides ?? []).map((o) => ({ route: routeOf(o.route), regex: new RegExp(o.pattern, o.flags ?? 'i'), reason: o.reason })),
    router:
      config.classifier === 'embedding'
        ? createEmbeddingRouter(
            embedder(),
            [...subagents.values()].map((sub) => ({ name: sub.name, description: sub.description })),
            config.min_similarity ?? DEFAULT_MIN_SIMILARITY,
          )
        : undefined,
    classifierSchema: {
      type: 'object',
      properties: {
        [routeKey]: { type: 'string', enum: [...subagents.keys()], description: 'The specialist who should answer.' },
        [reasonKey]: { type: 'string', description: 'One short sentence: why this specialist.' },
      },
      required: [routeKey, reasonKey],
      additionalProperties: false,
    },
  };
}

/** A mounted syndicate's orchestrator is declared in the file yaml_reference names, not in its parent's. */
function kindOf(agent: AgentDefinition, parent: AgentDefinition | undefined): DelegateKind | undefined {
  if (parent === undefined) return undefined;
  if (agent.remote) return 'remote';
  return agent.file === parent.file ? 'subagent' : 'syndicate';
}

/** Throws SyndicateConfigError when an agent lists web_search on a model without native search, or xAI's search settings are wrong. */
export function compileSyndicate(definition: SyndicateDefinition, options: CompileOptions = {}): CompiledSyndicate {
  const registry = options.tools ?? builtinTools;
  // Checked in tree order before any agent compiles: subagents compile first, so resolving would blame
  // a subagent for the model its parent (or the override) names.
  const unknown = options.resolveModel ? undefined : placedAgents(definition, options).find(({ model }) => typeof model === 'string' && parseModelId(model) === undefined);
  if (unknown) throw unknownModelError(modelLabel(unknown.model), unknown.agent.name);
  const problems = webSearchProblems(definition, options);
  if (problems.length > 0) throw new SyndicateConfigError(problems);
  const agents = new Map<string, CompiledAgent>();
  const warnings: string[] = [];
  // Only the root's globalInstruction takes effect, and it applies to every agent in the tree.
  const globalInstruction = definition.root.globalInstruction;
  let settings: McpClientSettings | undefined;
  // Checked by webSearchProblems above; read once for every grok agent.
  let xaiSearch: XaiSearchSettings | undefined;
  const skillIssues: ConfigIssue[] = [];

  // Resolved only if some dispatch routes by embedding, and once for all of them.
  let sharedEmbedder: Embedder | undefined;
  const embedder = (): Embedder =>
    (sharedEmbedder ??= options.embedder ?? (options.offline ? localEmbedder() : resolveEmbedder(definition.memoryEmbedding, options.env, options.providers)));

  const outputs = options.outputsFolder ?? path.join(defaultDataDir(options.env ?? process.env), OUTPUTS_FOLDER);
  const imageTool = (name: string, agentName: string, modelId: string, model: () => LanguageModelV3): AnyTool | undefined => {
    if (name === GENERATE_IMAGE_TOOL) return generateImageTool({ folder: outputs, imageModel: () => loadImageModel(modelId, agentName, options.env ?? process.env) });
    if (name === INSPECT_IMAGE_TOOL) return inspectImageTool({ folder: outputs, model });
    return undefined;
  };

  /** `parent`: the agent that hands it work; undefined for the root. */
  const compileAgent = (agent: AgentDefinition, inheritedModel: AgentModel, parent?: AgentDefinition): CompiledAgent => {
    const chosen = agentModel(agent, inheritedModel, options);
    const modelId = modelLabel(chosen);
    const family = modelFamily(chosen);
    // Before the subagents, so that warnings come in tree order.
    const mapped = settingsFor(agent, family);
    warnings.push(...mapped.warnings.map((warning) => `Agent '${agent.name}': ${warning}`));
    const subagents = new Map(agent.subagents.map((sub) => [sub.name, compileAgent(sub, modelInheritedFrom(agent, inheritedModel), agent)]));
    const tools = new Map<string, AnyTool>();
    const toolList: Array<LanguageModelV3FunctionTool | LanguageModelV3ProviderTool> = [];
    const memoryTools: string[] = [];
    const backgroundTools: string[] = [];
    for (const name of agent.tools) {
      if (BACKGROUND_TOOL_NAMES.includes(name)) {
        backgroundTools.push(name);
        continue;
      }
      if (MEMORY_TOOL_NAMES.includes(name)) {
        if (name !== PRELOAD_MEMORY) memoryTools.push(name);
        continue;
      }
      const tool = agent.customTools.find((own) => own.name === name) ?? registry.get(name) ?? imageTool(name, agent.name, modelId, () => model);
      if (tool) {
        tools.set(name, tool);
        toolList.push(functionToolOf(tool));
        continue;
      }
      if (name !== WEB_SEARCH_TOOL && !XAI_ONLY_TOOLS.includes(name)) throw new Error(`agent '${agent.name}' uses unknown tool '${name}' (the loader should have refused this file)`);
      if (family === 'xai') {
        toolList.push(xaiProviderTool(name, (xaiSearch ??= readXaiSearchEnv(options.env ?? process.env).settings)));
        continue;
      }
      if (XAI_ONLY_TOOLS.includes(name)) {
        // The scripted model stands in for any model, so offline runs of a grok file stay quiet.
        if (family !== 'scripted') warnings.push(`Agent '${agent.name}': ${name} has no effect on ${modelId}: it is xAI's own search, on grok-* models only — remove it or use a grok model`);
        continue;
      }
      if (typeof chosen !== 'string') {
        warnings.push(`Agent '${agent.name}': ${name} has no effect on its model given in code (${modelId}): provider search needs a model id such as gpt-4o, or define a ${name} tool of your own`);
        continue;
      }
      // Undefined for the scripted model, which never searches; webSearchProblems refused the rest.
      const search = family === undefined ? undefined : webSearchTool(family);
      if (search) toolList.push(search);
    }
    const { skills, issues } = agent.skills.length > 0 ? resolveSkills(agent.skills, agent.file, options.skillFolders ?? defaultSkillFolders()) : { skills: [], issues: [] };
    skillIssues.push(...issues);
    if (skills.length > 0) {
      for (const tool of createSkillTools(skills)) {
        tools.set(tool.name, tool);
        toolList.push(functionToolOf(tool));
      }
    }
    const dispatch = agent.dispatch ? compileDispatch(agent.dispatch, subagents, embedder) : undefined;
    const mcpServers = serverSpecsOf(agent);
    // A dispatching orchestrator offers no tools, so it would never use its servers.
    if (mcpServers.length > 0 && dispatch) warnings.push(`Agent '${agent.name}': its MCP servers are not connected: a plan-dispatch orchestrator calls no tools (give them to a specialist)`);
    const mcp = mcpServers.length > 0 && !dispatch ? createAgentMcpTools(mcpServers, (settings ??= mcpSettings(options.mcp, options.env))) : undefined;
    const subagentList = [...subagents.values()].map((sub) => ({ name: sub.name, description: sub.description }));
    const script = options.scripts?.[agent.name] ?? agent.script ?? options.scripts?.['*'];
    // A model object given in code is used as it is; an id is resolved to its provider's model.
    const model =
      typeof chosen !== 'string'
        ? chosen
        : (options.resolveModel ?? resolveModel)(
            chosen,
            {
              agentName: agent.name,
              subagents: dispatch ? [] : subagentList,
              script,
              classifier: dispatch ? { routes: subagentList, routeKey: dispatch.routeKey, reasonKey: dispatch.reasonKey } : undefined,
              webSearch: toolList.some((tool) => tool.type === 'provider'),
            },
            options.env,
            options.providers,
          );
    const toolSpecs: CompiledAgent['toolSpecs'] = dispatch
      ? []
      : [
          ...[...subagents.values()].map((sub): LanguageModelV3FunctionTool => ({ type: 'function', name: sub.name, description: sub.description, inputSchema: DELEGATION_INPUT })),
          ...toolList,
        ];
    const compiled: CompiledAgent = {
      name: agent.name,
      kind: kindOf(agent, parent),
      description: agent.description,
      instruction: [globalInstruction, agent.instruction, skills.length > 0 ? skillCatalog(skills) : undefined].filter(Boolean).join('\n\n'),
      modelId,
      model,
      toolSpecs,
      tools,
      mcp,
      remote: agent.remote && (options.remoteAgents ?? remoteAgentsMissing)(agent.name, agent.remote, options.env ?? process.env),
      subagents,
      outputSchema: agent.outputSchema ? { jsonSchema: agent.outputSchema, validator: z.fromJSONSchema(agent.outputSchema as never) } : undefined,
      jsonMode: agent.generateContentConfig.responseMimeType === 'application/json',
      settings: mapped.settings,
      includeHistory: agent.includeContents !== 'none',
      dispatch,
      memoryTools,
      backgroundTools,
      preloadMemory: agent.tools.includes(PRELOAD_MEMORY),
      codeMode: agent.codeMode,
      scriptFunctions: undefined,
    };
    agents.set(agent.name, compiled);
    return compiled;
  };

  const root = compileAgent(definition.root, modelInheritedFrom(definition.root, DEFAULT_ROOT_MODEL));
  if (skillIssues.length > 0) throw new SyndicateConfigError(sortIssues(skillIssues));
  const extraction: AgentModel = options.offline ? 'scripted' : (options.modelOverride ?? definition.memoryExtractionModel ?? agentModel(definition.root, DEFAULT_ROOT_MODEL, options));
  const extractionModel =
    definition.memorySystem !== 'long-term'
      ? undefined
      : typeof extraction !== 'string'
        ? extraction
        : (options.resolveModel ?? resolveModel)(
            extraction,
            { agentName: EXTRACTION_AGENT, subagents: [], script: [...(options.scripts?.[EXTRACTION_AGENT] ?? []), ...NO_FACTS] },
            options.env,
            options.providers,
          );
  return {
    name: definition.name,
    description: definition.description,
    file: definition.file,
    memorySystem: definition.memorySystem,
    maxSteps: definition.maxSteps,
    attemptTimeoutMs: definition.attemptTimeoutMs,
    deadlineMs: definition.deadlineMs,
    concurrency: definition.concurrency,
    root,
    dreams: definition.dreams,
    agents,
    embedder,
    memoryExtractionRules: definition.memoryExtractionRules,
    extractionModel,
    warnings,
    openConnections: () => {
      for (const agent of agents.values()) agent.mcp?.open();
    },
    close: async () => {
      await Promise.all([...agents.values()].map((agent) => agent.mcp?.close()));
    },
  };
}
