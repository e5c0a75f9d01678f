import type { ScriptStep } from '../../config/schema.js';
import { ModelConfigError } from '../errors.js';
import type { ScriptedReply } from './reply.js';
import { throwSimulatedError } from './simulatedErrors.js';

/** Returns the step to answer `latestInput` with, marking it used; undefined when none matches. */
export type StepPicker = (latestInput: string) => ScriptStep | undefined;

const MALFORMED_JSON = '{"route": "Bill';

interface CompiledStep {
  step: ScriptStep;
  needle: string | undefined;
  regex: RegExp | undefined;
}

// `g` and `y` make RegExp.test stateful, which would make matching depend on history.
const STATEFUL_FLAGS = /[gy]/g;

function compile(step: ScriptStep, index: number, agentName: string): CompiledStep {
  let regex: RegExp | undefined;
  if (step.regex !== undefined) {
    try {
      regex = new RegExp(step.regex, (step.flags ?? '').replace(STATEFUL_FLAGS, ''));
    } catch (error) {
      throw new ModelConfigError(`Script step ${index + 1} of agent '${agentName}' has an invalid regex: ${(error as Error).message}`);
    }
  }
  return { step, needle: step.match?.toLowerCase(), regex };
}

export function createStepPicker(steps: readonly ScriptStep[], agentName: string): StepPicker {
  const compiled = steps.map((step, index) => compile(step, index, agentName));
  const used = new Set<number>();
  return (latestInput) => {
    let lowered: string | undefined;
    for (let i = 0; i < compiled.length; i++) {
      if (used.has(i)) continue;
      const { step, needle, regex } = compiled[i]!;
      const matches =
        (needle === undefined && regex === undefined) ||
        (needle !== undefined && (lowered ??= latestInput.toLowerCase()).includes(needle)) ||
        (regex !== undefined && regex.test(latestInput));
      if (!matches) continue;
      if (!step.repeat) used.add(i);
      return step;
    }
    return undefined;
  };
}

/**
 * The reply a step scripts, or undefined when it scripts no output of its own (the default
 * behaviour then answers, after the step's thinking). Simulated errors are thrown.
 */
export function replyFromStep(step: ScriptStep, agentName: string, nextCallId: () => string): ScriptedReply | undefined {
  if (step.error === 'malformed') return { reasoning: step.thinking, text: MALFORMED_JSON };
  if (step.error !== undefined) throwSimulatedError(step.error, agentName);
  const reply: ScriptedReply = { reasoning: step.thinking };
  if (step.json !== undefined) reply.text = JSON.stringify(step.json);
  else if (step.reply !== undefined) reply.text = step.reply;
  if (step.tool_calls?.length) {
    reply.toolCalls = step.tool_calls.map((call) => ({ toolCallId: nextCallId(), toolName: call.tool, input: JSON.stringify(call.args) }));
  }
  return reply.text === undefined && reply.toolCalls === undefined ? undefined : reply;
}
