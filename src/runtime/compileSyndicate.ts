import { z } from 'zod';
import type { JSONSchema7, LanguageModelV3, LanguageModelV3FunctionTool, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { AgentDefinition, SyndicateDefinition } from '../config/definition.js';
import type { DispatchConfig, GenerateContentConfig, MemorySystem, ScriptStep } from '../config/schema.js';
import { resolveModel } from '../models/resolveModel.js';
import { builtinTools, type ToolRegistry } from '../tools/registry.js';
import type { AnyTool } from '../tools/tool.js';

// Turns a validated definition into live agents: models resolved, tool schemas converted
// to JSON Schema once, output schemas compiled to validators once. Nothing here calls a
// model, so a missing API key surfaces only when that agent first runs.

export interface CallSettings {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  providerOptions?: SharedV3ProviderOptions;
}

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
  /** Function tools offered to the model: subagents first, then regular tools. */
  toolSpecs: LanguageModelV3FunctionTool[];
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
}

export interface CompileOptions {
  /** Run every agent on the built-in scripted model. */
  offline?: boolean;
  /** Run every agent on this model id. */
  modelOverride?: string;
  /** Scripts for the scripted model by agent name; "*" applies to agents without their own. */
  scripts?: Record<string, ScriptStep[]>;
  tools?: ToolRegistry;
  env?: NodeJS.ProcessEnv;
  /** Replaces the model resolver: custom providers, or recording models in tests. */
  resolveModel?: typeof resolveModel;
}

const DELEGATION_INPUT: JSONSchema7 = {
  type: 'object',
  properties: { request: { type: 'string', description: 'What you need from this agent, with all the context it needs.' } },
  required: ['request'],
  additionalProperties: false,
};

export function normalizeRouteName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function callSettingsOf(config: GenerateContentConfig): CallSettings {
  const settings: CallSettings = {
    maxOutputTokens: config.maxOutputTokens,
    temperature: config.temperature,
    topP: config.topP,
    topK: config.topK,
    stopSequences: config.stopSequences,
    seed: config.seed,
    presencePenalty: config.presencePenalty,
    frequencyPenalty: config.frequencyPenalty,
  };
  const thinking = config.thinkingConfig;
  if (thinking) {
    // Each provider reads only its own key, so one agent line works on any of them.
    settings.providerOptions = {
      google: { thinkingConfig: { ...thinking } },
      ...(thinking.thinkingBudget !== undefined && thinking.thinkingBudget > 0
        ? { anthropic: { thinking: { type: 'enabled', budgetTokens: thinking.thinkingBudget } } }
        : {}),
      ...(thinking.thinkingLevel ? { openai: { reasoningEffort: thinking.thinkingLevel } } : {}),
    };
  }
  for (const key of Object.keys(settings) as Array<keyof CallSettings>) {
    if (settings[key] === undefined) delete settings[key];
  }
  return settings;
}

function toolSpecOf(tool: AnyTool): LanguageModelV3FunctionTool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as JSONSchema7 & { $schema?: string };
  return { type: 'function', name: tool.name, description: tool.description, inputSchema };
}

function compileDispatch(config: DispatchConfig, subagents: ReadonlyMap<string, CompiledAgent>): CompiledDispatch {
  const byRoute = new Map([...subagents.values()].map((agent) => [normalizeRouteName(agent.name), agent]));
  const routeOf = (name: string): CompiledAgent => {
    const agent = byRoute.get(normalizeRouteName(name));
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

export function compileSyndicate(definition: SyndicateDefinition, options: CompileOptions = {}): CompiledSyndicate {
  const registry = options.tools ?? builtinTools;
  const agents = new Map<string, CompiledAgent>();
  // Only the root's globalInstruction takes effect, and it applies to every agent in the tree.
  const globalInstruction = definition.root.globalInstruction;

  const modelIdFor = (agent: AgentDefinition, inherited: string): string => {
    if (options.offline) return 'scripted';
    return options.modelOverride ?? agent.model ?? inherited;
  };

  const compileAgent = (agent: AgentDefinition, inheritedModel: string): CompiledAgent => {
    const modelId = modelIdFor(agent, inheritedModel);
    const subagents = new Map(agent.subagents.map((sub) => [sub.name, compileAgent(sub, agent.model ?? inheritedModel)]));
    const tools = new Map<string, AnyTool>();
    for (const name of agent.tools) {
      const tool = registry.get(name);
      if (!tool) throw new Error(`agent '${agent.name}' uses unknown tool '${name}' (the loader should have refused this file)`);
      tools.set(name, tool);
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
      },
      options.env,
    );
    const toolSpecs: LanguageModelV3FunctionTool[] = dispatch
      ? []
      : [
          ...[...subagents.values()].map((sub): LanguageModelV3FunctionTool => ({ type: 'function', name: sub.name, description: sub.description, inputSchema: DELEGATION_INPUT })),
          ...[...tools.values()].map(toolSpecOf),
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
      settings: callSettingsOf(agent.generateContentConfig),
      includeHistory: agent.includeContents !== 'none',
      dispatch,
    };
    agents.set(agent.name, compiled);
    return compiled;
  };

  const root = compileAgent(definition.root, definition.root.model ?? 'scripted');
  return {
    name: definition.name,
    description: definition.description,
    file: definition.file,
    memorySystem: definition.memorySystem,
    maxSteps: definition.maxSteps,
    root,
    agents,
  };
}
