import type { LanguageModelV3CallOptions, LanguageModelV3Message, LanguageModelV3ReasoningPart } from '@ai-sdk/provider';
import { renderTurnVariables } from '../config/variables.js';
import { callModel, type ModelStep } from './callModel.js';
import type { CompiledAgent } from './compileSyndicate.js';
import { TurnError } from './errors.js';
import { executeToolCall, toolResultOutput } from './executeToolCall.js';
import { projectTranscript } from './projectTranscript.js';
import { parseStructuredOutput } from './structuredOutput.js';
import type { TurnContext } from './turnContext.js';
import { runDispatch } from './runDispatch.js';

// The tool loop of one agent: call the model, run the tools it asked for, feed the results
// back, until it answers in text. Delegation is a tool call whose tool is another agent.

function responseFormatOf(agent: CompiledAgent): LanguageModelV3CallOptions['responseFormat'] {
  if (agent.outputSchema) return { type: 'json', schema: agent.outputSchema.jsonSchema, name: agent.name };
  return agent.jsonMode ? { type: 'json' } : undefined;
}

export function systemPrompt(turn: TurnContext, agent: CompiledAgent): LanguageModelV3Message {
  return { role: 'system', content: renderTurnVariables(agent.instruction, turn.now) };
}

function recordStep(turn: TurnContext, agent: CompiledAgent, depth: number, step: ModelStep): void {
  if (step.reasoning) turn.emit(agent.name, depth, { type: 'thinking', text: step.reasoning });
  if (step.text) turn.emit(agent.name, depth, { type: 'message', text: step.text });
}

/**
 * Thinking goes back to the model only inside this agent's own tool loop, and only the blocks a
 * provider signed or indexed: Anthropic rejects a tool result whose signed thinking block is
 * missing, and OpenAI reasoning models continue from their reasoning item. It never enters the
 * session, a later turn, or another agent's prompt.
 */
function replayableReasoning(step: ModelStep): LanguageModelV3ReasoningPart[] {
  return step.reasoningBlocks
    .filter((block) => block.providerMetadata !== undefined)
    .map((block) => ({ type: 'reasoning', text: block.text, providerOptions: block.providerMetadata }));
}

/** An orchestrator that ends with nothing, or only a tool's name, has dropped its answer. */
function isHollow(text: string, agent: CompiledAgent): boolean {
  const trimmed = text.trim();
  return trimmed === '' || agent.subagents.has(trimmed) || agent.tools.has(trimmed);
}

async function enforceOutputSchema(turn: TurnContext, agent: CompiledAgent, depth: number, prompt: LanguageModelV3Message[], text: string): Promise<string> {
  const schema = agent.outputSchema;
  if (!schema) return text;
  const first = parseStructuredOutput(schema, text);
  if (first.ok) return first.text;
  turn.emit(agent.name, depth, { type: 'warning', message: `${agent.name}'s reply did not match its outputSchema: ${first.problem}. Asking once for a repair.` });
  await turn.flush();
  prompt.push(
    { role: 'assistant', content: [{ type: 'text', text }] },
    { role: 'user', content: [{ type: 'text', text: `Your reply could not be used: ${first.problem}. Reply again with only the JSON value, matching the required schema exactly.` }] },
  );
  const repair = await callModel(turn, { agent, prompt, depth, withTools: false, responseFormat: responseFormatOf(agent), emitText: true });
  recordStep(turn, agent, depth, repair);
  const second = parseStructuredOutput(schema, repair.text);
  if (second.ok) return second.text;
  throw new TurnError('output_schema', `${agent.name} did not produce output matching its outputSchema after one repair attempt: ${second.problem}.`);
}

export async function runAgent(turn: TurnContext, agent: CompiledAgent, input: string, depth: number): Promise<string> {
  if (agent.dispatch) return runDispatch(turn, agent, input, depth, runAgent);
  const prompt: LanguageModelV3Message[] = [systemPrompt(turn, agent)];
  if (agent.includeHistory && turn.history.length > 0) prompt.push(...projectTranscript(turn.history, agent.name));
  prompt.push({ role: 'user', content: [{ type: 'text', text: input }] });
  const responseFormat = responseFormatOf(agent);
  const maxSteps = turn.syndicate.maxSteps;
  let lastDelegated: string | undefined;

  for (let stepIndex = 0; ; stepIndex++) {
    if (stepIndex >= maxSteps) {
      throw new TurnError('max_steps', `${agent.name} was still calling tools after ${maxSteps} steps, so the turn was stopped. Raise max_steps in the syndicate file if the task really needs more, or tighten the agent's instruction.`);
    }
    turn.signal.throwIfAborted();
    const step = await callModel(turn, { agent, prompt, depth, withTools: true, responseFormat, emitText: true });
    recordStep(turn, agent, depth, step);
    if (step.toolCalls.length === 0) {
      // No flush here: the caller commits right after (the parent's tool-result boundary or
      // turn-end), with nothing awaited in between, so one commit covers both.
      if (lastDelegated !== undefined && isHollow(step.text, agent)) {
        turn.emit(agent.name, depth, { type: 'warning', message: `${agent.name} ended without an answer of its own, so the last delegated answer is returned.` });
        return lastDelegated;
      }
      return enforceOutputSchema(turn, agent, depth, prompt, step.text);
    }
    prompt.push({
      role: 'assistant',
      content: [
        ...replayableReasoning(step),
        ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
        ...step.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.toolCallId, toolName: call.toolName, input: call.args.ok ? call.args.value : call.input })),
      ],
    });
    // Each result is committed as it lands, so a slow sibling call never holds a finished one back.
    const results = await Promise.all(
      step.toolCalls.map(async (call) => {
        const result = await executeToolCall(turn, agent, call, depth, runAgent);
        await turn.flush();
        return result;
      }),
    );
    prompt.push({
      role: 'tool',
      content: step.toolCalls.map((call, i) => ({ type: 'tool-result' as const, toolCallId: call.toolCallId, toolName: call.toolName, output: toolResultOutput(results[i]!) })),
    });
    step.toolCalls.forEach((call, i) => {
      const result = results[i]!;
      if (!result.isError && agent.subagents.has(call.toolName)) lastDelegated = result.output as string;
    });
  }
}
