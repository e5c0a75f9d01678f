import { z } from 'zod';
import type { JSONSchema7, LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3ProviderTool } from '@ai-sdk/provider';
import type { AgentDefinition, SyndicateDefinition } from '../config/definition.js';
import { findRoute } from '../config/routes.js';
import { SyndicateConfigError } from '../config/errors.js';
import type { ProvidersConfig } from '../config/projectConfig.js';
import type { DispatchConfig, MemorySystem, ScriptStep } from '../config/schema.js';
import { callSettingsFor, neutralCallSettings, type CallSettings, type MappedCallSettings } from '../models/callSettings.js';
import { parseModelId, type ProviderFamily } from '../models/modelIds.js';
import { resolveModel } from '../models/resolveModel.js';
import { WEB_SEARCH_TOOL, webSearchTool } from '../models/webSearch.js';
import { builtinTools, type ToolRegistry } from '../tools/registry.js';
import type { AnyTool } from '../tools/tool.js';
import { agentModelId, DEFAULT_ROOT_MODEL, modelInheritedFrom, type ModelChoice } from './agentModel.js';
import { webSearchProblems } from './webSearchProblems.js';

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
}

export interface CompiledAgent {
  name: string;
  description: string;
  instruction: string;
  modelId: string;
  model: LanguageModelV3;
  /** Tools offered to the model: subagents first, then its tools in order (web_search as the provider's own tool). */
  toolSpecs: Array<LanguageModelV3FunctionTool | LanguageModelV3ProviderTool>;
  tools: ReadonlyMap<string, AnyTool>;
  subagents: ReadonlyMap<string, CompiledAgent>;
  outputSchema: CompiledOutputSchema | undefined;
  jsonMode: boolean;
  settings: CallSettings;
  includeHistory: boolean;
  dispatch: CompiledDispatch | undefined;
}

export interface CompiledSyndicate {
  name: string;
  description: string | undefined;
  file: string;
  memorySystem: MemorySystem;
  maxSteps: number;
  root: CompiledAgent;
  /** Every agent by name, for lookups from stored events. */
  agents: ReadonlyMap<string, CompiledAgent>;
  /** Settings an agent's provider cannot honour, one line each, naming the agent. */
  warnings: string[];
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

function functionToolOf(tool: AnyTool): LanguageModelV3FunctionTool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as JSONSchema7 & { $schema?: string };
  return { type: 'function', name: tool.name, description: tool.description, inputSchema };
}

function compileDispatch(config: DispatchConfig, subagents: ReadonlyMap<string, CompiledAgent>): CompiledDispatch {
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

/** Throws SyndicateConfigError when an agent lists web_search on a model without native search. */
export function compileSyndicate(definition: SyndicateDefinition, options: CompileOptions = {}): CompiledSyndicate {
  const registry = options.tools ?? builtinTools;
  const problems = webSearchProblems(definition, options);
  if (problems.length > 0) throw new SyndicateConfigError(problems);
  const agents = new Map<string, CompiledAgent>();
  const warnings: string[] = [];
  // Only the root's globalInstruction takes effect, and it applies to every agent in the tree.
  const globalInstruction = definition.root.globalInstruction;

  const compileAgent = (agent: AgentDefinition, inheritedModel: string): CompiledAgent => {
    const modelId = agentModelId(agent, inheritedModel, options);
    const family = parseModelId(modelId)?.family;
    // Before the subagents, so that warnings come in tree order.
    const mapped = settingsFor(agent, family);
    warnings.push(...mapped.warnings.map((warning) => `Agent '${agent.name}': ${warning}`));
    const subagents = new Map(agent.subagents.map((sub) => [sub.name, compileAgent(sub, modelInheritedFrom(agent, inheritedModel))]));
    const tools = new Map<string, AnyTool>();
    const toolList: Array<LanguageModelV3FunctionTool | LanguageModelV3ProviderTool> = [];
    for (const name of agent.tools) {
      const tool = registry.get(name);
      if (tool) {
        tools.set(name, tool);
        toolList.push(functionToolOf(tool));
        continue;
      }
      if (name !== WEB_SEARCH_TOOL) throw new Error(`agent '${agent.name}' uses unknown tool '${name}' (the loader should have refused this file)`);
      // Undefined for the scripted model, which never searches; webSearchProblems refused the rest.
      const search = family === undefined ? undefined : webSearchTool(family);
      if (search) toolList.push(search);
    }
    const dispatch = agent.dispatch ? compileDispatch(agent.dispatch, subagents) : undefined;
    const subagentList = [...subagents.values()].map((sub) => ({ name: sub.name, description: sub.description }));
    const script = options.scripts?.[agent.name] ?? agent.script ?? options.scripts?.['*'];
    const model = (options.resolveModel ?? resolveModel)(
      modelId,
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
      description: agent.description,
      instruction: globalInstruction ? `${globalInstruction}\n\n${agent.instruction}` : agent.instruction,
      modelId,
      model,
      toolSpecs,
      tools,
      subagents,
      outputSchema: agent.outputSchema ? { jsonSchema: agent.outputSchema, validator: z.fromJSONSchema(agent.outputSchema as never) } : undefined,
      jsonMode: agent.generateContentConfig.responseMimeType === 'application/json',
      settings: mapped.settings,
      includeHistory: agent.includeContents !== 'none',
      dispatch,
    };
    agents.set(agent.name, compiled);
    return compiled;
  };

  const root = compileAgent(definition.root, modelInheritedFrom(definition.root, DEFAULT_ROOT_MODEL));
  return {
    name: definition.name,
    description: definition.description,
    file: definition.file,
    memorySystem: definition.memorySystem,
    maxSteps: definition.maxSteps,
    root,
    agents,
    warnings,
  };
}
