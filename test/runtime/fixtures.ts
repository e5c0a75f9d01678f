import { join } from 'node:path';
import { scratchDir } from '../support/scratchDir.js';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { defineAgent, defineSyndicate } from '../../src/config/define.js';
import type { AgentDefinition, SyndicateDefinition } from '../../src/config/definition.js';
import { resolveModel } from '../../src/models/resolveModel.js';
import { compileSyndicate, type CompileOptions, type CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import type { TurnEvent, TurnEventOf, TurnEventType } from '../../src/core/events.js';
import { runTurn, type RunTurnOptions } from '../../src/runtime/runTurn.js';

/** Agents in these tests run on the scripted model unless they say otherwise. */
export function agent(name: string, overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return defineAgent(name, { model: 'scripted', file: 'test.yaml', ...overrides });
}

export function syndicate(root: AgentDefinition, overrides: Partial<SyndicateDefinition> = {}): SyndicateDefinition {
  return defineSyndicate(root, { name: 'Test', file: 'test.yaml', memorySystem: 'session-only', ...overrides });
}

export function compile(root: AgentDefinition, options: CompileOptions = {}, overrides: Partial<SyndicateDefinition> = {}): CompiledSyndicate {
  return compileSyndicate(syndicate(root, overrides), options);
}

export async function collect(compiled: CompiledSyndicate, options: RunTurnOptions): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of runTurn(compiled, options)) events.push(event);
  return events;
}

export function ofType<T extends TurnEventType>(events: readonly TurnEvent[], type: T): Array<TurnEventOf<T>> {
  return events.filter((event): event is TurnEventOf<T> => event.type === type);
}

export function turnEnd(events: readonly TurnEvent[]): TurnEventOf<'turn-end'> {
  const end = events[events.length - 1];
  if (end?.type !== 'turn-end') throw new Error(`the stream did not end with turn-end: ${JSON.stringify(end)}`);
  return end;
}

export function tempDbPath(): string {
  return join(scratchDir('runtime'), 'test.db');
}

export interface ModelCall {
  agent: string;
  options: LanguageModelV3CallOptions;
}

/** A model resolver that records every call's options, then defers to the real model. */
export function recordCalls(calls: ModelCall[]): NonNullable<CompileOptions['resolveModel']> {
  return (id, context, env) => {
    const model = resolveModel(id, context, env);
    const recorded: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: model.provider,
      modelId: model.modelId,
      supportedUrls: model.supportedUrls,
      doGenerate: (options) => {
        calls.push({ agent: context.agentName, options });
        return model.doGenerate(options);
      },
      doStream: (options) => {
        calls.push({ agent: context.agentName, options });
        return model.doStream(options);
      },
    };
    return recorded;
  };
}
