import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamResult } from '@ai-sdk/provider';
import type { ModelContext } from '../context.js';
import { indexRoutes } from './classifier.js';
import { defaultReply, type ScriptedAgent } from './defaultReply.js';
import { readPrompt } from './promptView.js';
import { finishReasonOf, toContent, usageOf, type ScriptedReply } from './reply.js';
import { createStepPicker, replyFromStep } from './script.js';
import { streamOf, toStreamParts } from './stream.js';

/**
 * A deterministic, keyless, offline model for tests, demos and benchmarks. It follows the agent's
 * script when a step matches, and otherwise delegates, classifies, fills JSON schemas or answers
 * as a leaf. Each instance keeps its own script cursor, so build one per agent.
 */
export function createScriptedModel(context: ModelContext): LanguageModelV3 {
  let calls = 0;
  const agent: ScriptedAgent = {
    name: context.agentName,
    subagents: context.subagents.map((subagent) => subagent.name),
    classifier: context.classifier && { ...context.classifier, routes: indexRoutes(context.classifier.routes) },
    nextCallId: () => `${context.agentName}-call-${++calls}`,
  };
  const pickStep = context.script?.length ? createStepPicker(context.script, context.agentName) : undefined;

  function respond(options: LanguageModelV3CallOptions): { reply: ScriptedReply; promptChars: number } {
    const view = readPrompt(options.prompt);
    const step = pickStep?.(view.latestInput);
    const scripted = step && replyFromStep(step, agent.name, agent.nextCallId);
    const reply = scripted ?? { reasoning: step?.thinking, ...defaultReply(agent, options, view) };
    return { reply, promptChars: view.chars };
  }

  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate(options): Promise<LanguageModelV3GenerateResult> {
      const { reply, promptChars } = respond(options);
      return { content: toContent(reply), finishReason: finishReasonOf(reply), usage: usageOf(promptChars, reply), warnings: [] };
    },
    async doStream(options): Promise<LanguageModelV3StreamResult> {
      const { reply, promptChars } = respond(options);
      return { stream: streamOf(toStreamParts(reply, promptChars)) };
    },
  };
}
