import type { JSONSchema7, LanguageModelV3CallOptions, LanguageModelV3Message, LanguageModelV3ReasoningPart, LanguageModelV3TextPart } from '@ai-sdk/provider';
import { renderTurnVariables } from '../config/variables.js';
import { callModel, type ModelStep } from './callModel.js';
import { functionToolOf, type CompiledAgent } from './compileSyndicate.js';
import { errorMessage } from '../core/errors.js';
import { TurnError } from './errors.js';
import { executeToolCall, toolResultOutput } from './executeToolCall.js';
import { projectTranscript } from './projectTranscript.js';
import { parseStructuredOutput } from './structuredOutput.js';
import type { TurnContext } from './turnContext.js';
import { runDispatch } from './runDispatch.js';
import { inCodeMode } from './codeMode/codeModeTools.js';
import { ASK_USER, UserInputRequired } from '../tools/builtin/askUser.js';
import type { AnyTool, ToolResult } from '../core/tool.js';
import type { ModelToolCall } from './callModel.js';

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
  turn.flush();
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

/** The question of a successful ask_user call in this step, if the agent has the tool. */
function askedQuestion(agent: CompiledAgent, calls: readonly ModelToolCall[], results: readonly ToolResult[]): string | undefined {
  if (!agent.tools.has(ASK_USER)) return undefined;
  const index = calls.findIndex((call, i) => call.toolName === ASK_USER && !results[i]!.isError);
  return index === -1 ? undefined : (results[index]!.output as { question: string }).question;
}

/**
 * The agent with its MCP servers' tools joined for this run. A server that is down leaves out
 * only its own tools, and the turn says so in a warning naming it.
 */
async function withMcpTools(turn: TurnContext, agent: CompiledAgent, depth: number): Promise<CompiledAgent> {
  if (!agent.mcp) return agent;
  // Names the file declares win: subagents, its tools (web_search included) and the memory tools joined after these.
  const reserved = new Set([...agent.subagents.keys(), ...agent.tools.keys(), ...agent.toolSpecs.map((spec) => spec.name), ...agent.memoryTools, ...agent.backgroundTools]);
  const { tools, warnings } = await agent.mcp.forTurn(reserved, turn.signal);
  for (const message of warnings) turn.emit(agent.name, depth, { type: 'warning', message });
  if (tools.length === 0) return agent;
  return {
    ...agent,
    toolSpecs: [...agent.toolSpecs, ...tools.map(({ tool, inputSchema }) => ({ type: 'function' as const, name: tool.name, description: tool.description, inputSchema: inputSchema as JSONSchema7 }))],
    tools: new Map([...agent.tools, ...tools.map(({ tool }) => [tool.name, tool] as const)]),
  };
}

/** The agent with the memory tools it lists, bound to this turn's silo. */
function withMemoryTools(turn: TurnContext, agent: CompiledAgent, depth: number): CompiledAgent {
  if (agent.memoryTools.length === 0) return agent;
  const memory = turn.memory;
  if (!memory) {
    turn.emit(agent.name, depth, { type: 'warning', message: `${agent.name}'s memory tools (${agent.memoryTools.join(', ')}) are unavailable: no long-term memory was opened for this turn.` });
    return agent;
  }
  const tools = agent.memoryTools.map((name) => memory.tools.get(name)!);
  return { ...agent, toolSpecs: [...agent.toolSpecs, ...tools.map(functionToolOf)], tools: new Map([...agent.tools, ...tools.map((tool) => [tool.name, tool] as const)]) };
}

/** The agent with the unattended-work tools it lists (background jobs, scheduled tasks), bound to this run by the face. */
function withBackgroundTools(turn: TurnContext, agent: CompiledAgent, depth: number): CompiledAgent {
  if (agent.backgroundTools.length === 0) return agent;
  const bound = turn.background?.tools({ syndicate: turn.syndicate, sessionId: turn.sessionId, agent }) ?? new Map<string, AnyTool>();
  const missing = agent.backgroundTools.filter((name) => !bound.has(name));
  if (missing.length > 0) {
    turn.emit(agent.name, depth, { type: 'warning', message: `${agent.name}'s tools ${missing.join(', ')} are unavailable here: this face does not run that unattended work (background jobs run in \`syndicate chat\` and the server; scheduled tasks in the server).` });
  }
  const tools = agent.backgroundTools.flatMap((name) => bound.get(name) ?? []);
  if (tools.length === 0) return agent;
  return { ...agent, toolSpecs: [...agent.toolSpecs, ...tools.map(functionToolOf)], tools: new Map([...agent.tools, ...tools.map((tool) => [tool.name, tool] as const)]) };
}

/**
 * The request, with preload_memory's recalled facts attached as labelled reference data: on the
 * user message, not the system prompt, so a provider's prompt cache stays valid.
 */
async function requestContent(turn: TurnContext, agent: CompiledAgent, input: string, depth: number): Promise<LanguageModelV3TextPart[]> {
  if (!agent.preloadMemory || !turn.memory) return [{ type: 'text', text: input }];
  let recalled: string | undefined;
  try {
    recalled = await turn.memory.preload(input, turn.signal);
  } catch (error) {
    turn.signal.throwIfAborted();
    turn.emit(agent.name, depth, { type: 'warning', message: `Memory recall failed, so ${agent.name} answers without it: ${errorMessage(error)}` });
    return [{ type: 'text', text: input }];
  }
  if (recalled === undefined) return [{ type: 'text', text: input }];
  turn.emit(agent.name, depth, { type: 'status', message: 'Recalled facts from long-term memory' });
  return [
    { type: 'text', text: recalled },
    { type: 'text', text: input },
  ];
}

/**
 * The agent with its remote subagents described: those the file gives no description offer their
 * card's. A remote agent whose card cannot be fetched is left out of this run (a warning says
 * why), never offered with an empty description.
 */
async function withRemoteDescriptions(turn: TurnContext, agent: CompiledAgent, depth: number): Promise<CompiledAgent> {
  const undescribed = [...agent.subagents.values()].filter((sub) => sub.remote && sub.description === '');
  if (undescribed.length === 0) return agent;
  const subagents = new Map(agent.subagents);
  await Promise.all(
    undescribed.map(async (sub) => {
      try {
        subagents.set(sub.name, { ...sub, description: await sub.remote!.describe(turn.signal) });
      } catch (error) {
        turn.signal.throwIfAborted();
        subagents.delete(sub.name);
        turn.emit(agent.name, depth, { type: 'warning', message: `The remote agent ${sub.name} is left out of this turn: ${errorMessage(error)}` });
      }
    }),
  );
  const toolSpecs = agent.toolSpecs.flatMap((spec) => {
    const sub = agent.subagents.get(spec.name);
    if (!sub?.remote || spec.type !== 'function') return [spec];
    const described = subagents.get(spec.name);
    return described ? [{ ...spec, description: described.description }] : [];
  });
  return { ...agent, subagents, toolSpecs };
}

export async function runAgent(turn: TurnContext, declared: CompiledAgent, input: string, depth: number): Promise<string> {
  if (declared.remote) return declared.remote.run(turn, input, depth);
  const described = await withRemoteDescriptions(turn, declared, depth);
  if (described.dispatch) return runDispatch(turn, described, input, depth, runAgent);
  const equipped = withBackgroundTools(turn, withMemoryTools(turn, await withMcpTools(turn, described, depth), depth), depth);
  const agent = equipped.codeMode ? inCodeMode(equipped) : equipped;
  const prompt: LanguageModelV3Message[] = [systemPrompt(turn, agent)];
  if (agent.includeHistory && turn.history.length > 0) prompt.push(...projectTranscript(turn.history, agent.name));
  prompt.push({ role: 'user', content: await requestContent(turn, agent, input, depth) });
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
    // A call that ends the turn (a question for the user, a turn error) waits for its siblings:
    // the turn must not end while they still run and emit.
    const settled = await Promise.allSettled(
      step.toolCalls.map(async (call) => {
        const result = await executeToolCall(turn, agent, call, depth, runAgent);
        turn.flush();
        return result;
      }),
    );
    const results = settled.map((outcome) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    });
    const question = askedQuestion(agent, step.toolCalls, results);
    if (question !== undefined) {
      // Stored as the agent's message, so the next turn (the user's answer) sees what was asked.
      turn.emit(agent.name, depth, { type: 'message', text: question });
      throw new UserInputRequired(agent.name, question);
    }
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
