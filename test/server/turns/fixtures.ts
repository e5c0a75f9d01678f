import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { Concurrency } from '../../../src/config/schema.js';
import { resolveModel } from '../../../src/models/resolveModel.js';
import type { CompileOptions } from '../../../src/runtime/compileSyndicate.js';
import type { LoadedSyndicate } from '../../../src/server/context.js';
import { createGate, testTools } from '../../a2a/fixtures.js';
import { agent } from '../../runtime/fixtures.js';
import { served } from './harness.js';

// The syndicates the turn route tests serve, all on the scripted model.

export const QUESTION = 'Which city should the offsite be in?';

/** One agent: waits at the gate on "wait", asks a question on "offsite", answers "Lisbon", "hello" and a declined question. */
export function waiter(concurrency: Concurrency = 'enqueue'): { syndicate: LoadedSyndicate; gate: ReturnType<typeof createGate> } {
  const gate = createGate();
  const root = agent('Assistant', {
    tools: ['gate', 'ask_user'],
    script: [
      { match: 'wait', tool_calls: [{ tool: 'gate', args: {} }], repeat: true },
      { match: 'gate opened', reply: 'Done waiting.', repeat: true },
      { match: 'offsite', tool_calls: [{ tool: 'ask_user', args: { question: QUESTION } }], repeat: true },
      { match: 'lisbon', reply: 'Lisbon booked.', repeat: true },
      { match: 'hello', reply: 'Hi there.', repeat: true },
      { match: 'declined', reply: 'Booking nothing, then.', repeat: true },
    ],
  });
  return { syndicate: served(root, { tools: testTools(gate.tool) }, { name: 'Waiter', concurrency }), gate };
}

/** Delegations two deep: the Moderator consults the Advocate, who consults a Researcher, then the Skeptic. */
export function council(): LoadedSyndicate {
  const advocate = agent('Advocate', { description: 'Builds the case for a claim.', subagents: [agent('Researcher', { description: 'Finds supporting facts.' })] });
  const root = agent('Moderator', { subagents: [advocate, agent('Skeptic', { description: 'Builds the case against a claim.' })] });
  return served(root, {}, { name: 'Council' });
}

export const RESEARCHER_THINKS = 'Count the designers first.';

/** The council whose Researcher thinks, calls the calculator, then answers with the result. */
export function calculatingCouncil(): LoadedSyndicate {
  const researcher = agent('Researcher', {
    description: 'Finds supporting facts.',
    tools: ['calculator'],
    script: [
      { match: 'designer', thinking: RESEARCHER_THINKS, tool_calls: [{ tool: 'calculator', args: { expression: '6*7' } }] },
      { match: '42', reply: '42 designers are looking for work.' },
    ],
  });
  const advocate = agent('Advocate', { description: 'Builds the case for a claim.', subagents: [researcher] });
  return served(agent('Moderator', { subagents: [advocate, agent('Skeptic', { description: 'Builds the case against a claim.' })] }), { tools: testTools() }, { name: 'Council' });
}

/** An Organizer whose Planner asks the user a question on "offsite". */
export function planningTeam(): LoadedSyndicate {
  const planner = agent('Planner', { description: 'Plans events.', tools: ['ask_user'], script: [{ match: 'offsite', tool_calls: [{ tool: 'ask_user', args: { question: QUESTION } }], repeat: true }] });
  return served(agent('Organizer', { subagents: [planner] }), { tools: testTools() }, { name: 'Team' });
}

/** A Triage agent that routes each message to the specialist its classifier names. */
export function triageDesk(): LoadedSyndicate {
  const specialists = [agent('Billing', { description: 'Invoices, charges, payments and refunds.' }), agent('Technical', { description: 'Errors, crashes, login problems and bugs.' })];
  return served(agent('Triage', { subagents: specialists, dispatch: { default_route: 'Technical' } }), {}, { name: 'Triage' });
}

/** A Lead whose Researcher thinks, then waits at the gate: a subagent's call a cancel can cut short. */
export function waitingTeam(): { syndicate: LoadedSyndicate; gate: ReturnType<typeof createGate> } {
  const gate = createGate();
  const researcher = agent('Researcher', { description: 'Finds facts.', tools: ['gate'], script: [{ thinking: 'Let me wait for the data.', tool_calls: [{ tool: 'gate', args: {} }], repeat: true }] });
  return { syndicate: served(agent('Lead', { subagents: [researcher] }), { tools: testTools(gate.tool) }, { name: 'Team' }), gate };
}

/** One agent that waits at the gate on "wait", in a syndicate whose turns stop failed after `deadlineMs`. */
export function lateWaiter(deadlineMs: number): { syndicate: LoadedSyndicate; gate: ReturnType<typeof createGate> } {
  const gate = createGate();
  const root = agent('Assistant', { tools: ['gate'], script: [{ match: 'wait', tool_calls: [{ tool: 'gate', args: {} }], repeat: true }] });
  return { syndicate: served(root, { tools: testTools(gate.tool) }, { name: 'Late', deadlineMs }), gate };
}

export const DROPPED = 'the provider dropped the connection';

/**
 * `agentName`'s model as a provider whose connection drops mid-answer: the scripted model's stream,
 * cut by a stream error right after its first part of type `after`. Other agents get the scripted model.
 */
function droppingConnection(agentName: string, after: 'text-delta' | 'reasoning-delta'): NonNullable<CompileOptions['resolveModel']> {
  return (id, context, env) => {
    const model = resolveModel(id, context, env);
    if (context.agentName !== agentName) return model;
    const dropping: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: model.provider,
      modelId: model.modelId,
      supportedUrls: model.supportedUrls,
      doGenerate: (options) => model.doGenerate(options),
      async doStream(options) {
        const result = await model.doStream(options);
        const cut = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            controller.enqueue(part);
            if (part.type !== after) return;
            controller.enqueue({ type: 'error', error: new Error(DROPPED) });
            controller.terminate();
          },
        });
        return { ...result, stream: result.stream.pipeThrough(cut) };
      },
    };
    return dropping;
  };
}

/** A Writer that thinks, then starts its answer, when its model's connection drops. */
export function brokenWriter(): LoadedSyndicate {
  const writer = agent('Writer', { script: [{ thinking: 'Outline the answer first.', reply: 'The answer is to ship it on Friday.', repeat: true }] });
  return served(writer, { resolveModel: droppingConnection('Writer', 'text-delta') }, { name: 'Writer' });
}

/** A Lead whose Researcher's model drops the connection mid-thought; the Lead then calculates and answers. */
export function shakyTeam(): LoadedSyndicate {
  const researcher = agent('Researcher', { description: 'Finds facts.', script: [{ thinking: 'Count the designers first.', reply: 'Unused.', repeat: true }] });
  const lead = agent('Lead', {
    subagents: [researcher],
    tools: ['calculator'],
    script: [
      { match: 'designer', tool_calls: [{ tool: 'Researcher', args: { request: 'How many designers?' } }] },
      { match: 'failed', tool_calls: [{ tool: 'calculator', args: { expression: '6*7' } }] },
      { match: '42', reply: 'About 42 designers.' },
    ],
  });
  return served(lead, { tools: testTools(), resolveModel: droppingConnection('Researcher', 'reasoning-delta') }, { name: 'Shaky' });
}
