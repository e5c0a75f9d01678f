import type { LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import type { CompiledAgent } from './compileSyndicate.js';
import type { ModelToolCall } from './callModel.js';
import { errorMessage } from '../core/errors.js';
import { isTurnFatal } from './errors.js';
import { delegatedContext, type TurnContext } from './turnContext.js';
import type { ToolReportedEvent, ToolResult } from '../core/tool.js';
import { isCodeModeTool, runCodeModeTool } from './codeMode/codeModeTools.js';

// Runs one tool call the model asked for. Every outcome short of a turn-ending error comes
// back as a result the model can read: bad arguments, an unknown tool, a throwing tool,
// a failed subagent.

export type RunSubagent = (turn: TurnContext, agent: CompiledAgent, request: string, depth: number) => Promise<string>;

/** A script's call names the execute_code call it ran in; a model's call has nothing to add. */
function nesting(call: ModelToolCall): { parentCallId?: string } {
  return call.parentCallId === undefined ? {} : { parentCallId: call.parentCallId };
}

async function delegate(turn: TurnContext, parent: CompiledAgent, sub: CompiledAgent, call: ModelToolCall, args: unknown, depth: number, runSubagent: RunSubagent): Promise<ToolResult> {
  const request = (args as { request?: unknown } | null)?.request;
  if (typeof request !== 'string' || request.trim() === '') {
    return { isError: true, output: `To consult ${sub.name}, call it with {"request": "<what you need>"}.` };
  }
  const parentCallId = nesting(call);
  turn.emit(parent.name, depth, { type: 'delegation-start', to: sub.name, request, callId: call.toolCallId, kind: sub.kind, ...parentCallId });
  try {
    // Parallel calls of one subagent are told apart by their delegation's id (telemetry needs it).
    const output = await runSubagent(delegatedContext(turn, call.toolCallId), sub, request, depth + 1);
    turn.emit(parent.name, depth, { type: 'delegation-end', to: sub.name, callId: call.toolCallId, output, isError: false, ...parentCallId });
    return { isError: false, output };
  } catch (error) {
    if (isTurnFatal(error, turn.signal)) throw error;
    const output = `${sub.name} failed: ${errorMessage(error)}`;
    turn.emit(parent.name, depth, { type: 'delegation-end', to: sub.name, callId: call.toolCallId, output, isError: true, ...parentCallId });
    return { isError: true, output };
  }
}

async function invokeTool(turn: TurnContext, agent: CompiledAgent, call: ModelToolCall, args: unknown, depth: number): Promise<ToolResult> {
  const tool = agent.tools.get(call.toolName);
  if (!tool) {
    const available = [...agent.subagents.keys(), ...agent.tools.keys()];
    return { isError: true, output: `There is no tool '${call.toolName}'. Available: ${available.join(', ') || 'none'}.` };
  }
  const input = tool.inputSchema.safeParse(args);
  if (!input.success) {
    const problems = input.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`);
    return { isError: true, output: `Invalid arguments for ${tool.name}: ${problems.join('; ')}` };
  }
  try {
    const report = (event: ToolReportedEvent): void => turn.emit(agent.name, depth, event);
    const output = await tool.execute(input.data, { agent: agent.name, turnId: turn.turnId, sessionId: turn.sessionId, signal: turn.signal, notes: turn.notes, report });
    return { isError: false, output: output ?? null };
  } catch (error) {
    if (turn.signal.aborted) throw error;
    return { isError: true, output: `${tool.name} failed: ${errorMessage(error)}` };
  }
}

export async function executeToolCall(turn: TurnContext, agent: CompiledAgent, call: ModelToolCall, depth: number, runSubagent: RunSubagent): Promise<ToolResult> {
  const { args } = call;
  const sub = agent.subagents.get(call.toolName);
  if (sub) {
    if (!args.ok) return { isError: true, output: `Could not consult ${sub.name}: ${args.problem}.` };
    return delegate(turn, agent, sub, call, args.value, depth, runSubagent);
  }
  const parentCallId = nesting(call);
  turn.emit(agent.name, depth, { type: 'tool-call', tool: call.toolName, callId: call.toolCallId, input: args.ok ? args.value : call.input, ...parentCallId });
  let result: ToolResult;
  if (!args.ok) result = { isError: true, output: `Invalid arguments for ${call.toolName}: ${args.problem}` };
  else if (agent.scriptFunctions !== undefined && isCodeModeTool(call.toolName)) {
    // Each call the script makes comes back through here, as one the model made would.
    result = await runCodeModeTool(turn, agent, call, args.value, depth, (nestedTurn, nested) => executeToolCall(nestedTurn, agent, nested, depth, runSubagent));
  } else result = await invokeTool(turn, agent, call, args.value, depth);
  turn.emit(agent.name, depth, { type: 'tool-result', tool: call.toolName, callId: call.toolCallId, output: result.output, isError: result.isError, ...parentCallId });
  return result;
}

export function toolResultOutput(result: ToolResult): LanguageModelV3ToolResultOutput {
  if (result.isError) return { type: 'error-text', value: result.output };
  if (typeof result.output === 'string') return { type: 'text', value: result.output };
  return { type: 'json', value: result.output as never };
}
