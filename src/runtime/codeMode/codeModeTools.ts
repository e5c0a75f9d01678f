import { z } from 'zod';
import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import type { ModelToolCall } from '../callModel.js';
import type { CompiledAgent } from '../compileSyndicate.js';
import { isTurnFatal } from '../errors.js';
import { contextWithSignal, type TurnContext } from '../turnContext.js';
import { closestMatch } from '../../config/suggest.js';
import { DEFAULT_SANDBOX_LIMITS } from '../../tools/sandbox/limits.js';
import { runScript, type HostFunction, type ScriptOutcome } from '../../tools/sandbox/runScript.js';
import type { ToolResult } from '../../core/tool.js';
import { functionDoc, functionSummary } from './functionDoc.js';
import { DIRECT_ONLY, toolFunctionsOf, type ToolFunction } from './toolFunctions.js';

// Code mode: instead of one tool call per model step, the model writes a script that calls the
// agent's tools as functions, and gets one result back. Each call the script makes is run by
// executeToolCall, exactly as a model's call would be: same events (nested under the
// execute_code call by parentCallId), ledger, tracing, guards, silo and cancellation.

export const EXECUTE_CODE = 'execute_code';
export const LIST_TOOL_FUNCTIONS = 'list_tool_functions';
export const DESCRIBE_TOOL_FUNCTION = 'describe_tool_function';

const CODE_MODE_TOOLS: ReadonlySet<string> = new Set([EXECUTE_CODE, LIST_TOOL_FUNCTIONS, DESCRIBE_TOOL_FUNCTION]);

const executeInput = z.object({ code: z.string().min(1).describe('The body of an async JavaScript function: use await, end with return <value>.') }).strict();
const describeInput = z.object({ name: z.string().min(1).describe('The function, as list_tool_functions names it.') }).strict();
const listInput = z.object({}).strict();

/** Runs one call a script made, the way a model's call runs (executeToolCall). */
export type RunNestedCall = (turn: TurnContext, call: ModelToolCall) => Promise<ToolResult>;

export function isCodeModeTool(name: string): boolean {
  return CODE_MODE_TOOLS.has(name);
}

// Made once: toLocaleString and zod's JSON Schema conversion were a visible part of every code-mode turn.
const LIMITS_LINE = ((): string => {
  const { cpuMs, memoryBytes, hostCalls, outputChars } = DEFAULT_SANDBOX_LIMITS;
  return `Limits: ${cpuMs / 1000} s of CPU, ${memoryBytes / (1024 * 1024)} MiB of memory, ${hostCalls} tool calls, ${outputChars.toLocaleString('en-US')} characters of output.`;
})();

function executeDescription(functions: readonly ToolFunction[]): string {
  const names = functions.length > 0 ? functions.map((fn) => fn.name).join(', ') : 'none';
  return [
    'Runs a JavaScript script in a sandbox with no network, files or timers, and returns what it returns (as JSON) with its console.log output.',
    'The script is the body of an async function: use await, end with `return <value>`.',
    'Each tool function is async and takes one object argument; a tool\'s error is thrown as an Error. Run independent calls together with Promise.all.',
    LIMITS_LINE,
    `Tool functions: ${names}. describe_tool_function gives one's input; list_tool_functions summarises them all.`,
  ].join('\n');
}

function specOf(name: string, description: string, schema: z.ZodType): LanguageModelV3FunctionTool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { type: 'function', name, description, inputSchema: inputSchema as LanguageModelV3FunctionTool['inputSchema'] };
}

const EXECUTE_INPUT_SCHEMA = specOf(EXECUTE_CODE, '', executeInput).inputSchema;
const LIST_SPEC = specOf(LIST_TOOL_FUNCTIONS, 'Lists the tool functions execute_code scripts can call, one line each.', listInput);
const DESCRIBE_SPEC = specOf(DESCRIBE_TOOL_FUNCTION, 'Describes one tool function: its input as a TypeScript declaration, and what it does.', describeInput);

/**
 * The agent as the model sees it in code mode: the three code-mode tools instead of its own,
 * which become the script's functions. Tools a script cannot call (ask_user) and the provider's
 * own tools (web_search) stay direct.
 */
export function inCodeMode(agent: CompiledAgent): CompiledAgent {
  const functions = toolFunctionsOf(agent);
  const direct = agent.toolSpecs.filter((spec) => spec.type === 'provider' || DIRECT_ONLY.has(spec.name));
  return {
    ...agent,
    scriptFunctions: functions,
    toolSpecs: [
      { type: 'function', name: EXECUTE_CODE, description: executeDescription(functions), inputSchema: EXECUTE_INPUT_SCHEMA },
      LIST_SPEC,
      DESCRIBE_SPEC,
      ...direct,
    ],
  };
}

function invalid(tool: string, error: z.ZodError): ToolResult {
  return { isError: true, output: `Invalid arguments for ${tool}: ${error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ')}` };
}

function listFunctions(functions: readonly ToolFunction[]): ToolResult {
  if (functions.length === 0) return { isError: false, output: 'This agent has no tool functions: a script can only compute.' };
  return { isError: false, output: `${functions.map(functionSummary).join('\n')}\n\nCall describe_tool_function with {"name": "<function>"} for one's input.` };
}

function describeFunction(functions: readonly ToolFunction[], name: string): ToolResult {
  const fn = functions.find((candidate) => candidate.name === name || candidate.toolName === name);
  if (fn) return { isError: false, output: functionDoc(fn) };
  const names = functions.map((candidate) => candidate.name);
  const match = closestMatch(name, names);
  return { isError: true, output: `There is no tool function '${name}'. ${match ? `Did you mean '${match}'? ` : ''}Functions: ${names.join(', ') || 'none'}.` };
}

function located(outcome: Extract<ScriptOutcome, { ok: false }>): string {
  return outcome.line === undefined ? '' : ` (line ${outcome.line}: \`${outcome.source ?? ''}\`)`;
}

function resultOf(outcome: ScriptOutcome): ToolResult {
  const logs = outcome.logs.length > 0 ? { logs: outcome.logs } : {};
  const unfinished =
    outcome.unfinishedCalls > 0
      ? { note: `${outcome.unfinishedCalls} tool call(s) were still running when the script returned: they were stopped and their results dropped. Await every call whose result you need.` }
      : {};
  if (outcome.ok) return { isError: false, output: { result: outcome.value, ...logs, ...unfinished } };
  const what = outcome.kind === 'syntax' ? 'The script did not compile' : outcome.kind === 'exception' ? 'The script threw' : `The script was stopped (${outcome.kind})`;
  const printed = outcome.logs.length > 0 ? `\nIts console output before that:\n${outcome.logs.join('\n')}` : '';
  return { isError: true, output: `${what}: ${outcome.message}${located(outcome)}.${printed}` };
}

/** Closes the events of a call the script left running, which its end aborted. */
function emitDropped(turn: TurnContext, agent: CompiledAgent, depth: number, call: ModelToolCall): void {
  const output = 'stopped: the script ended before this call finished';
  const parentCallId = call.parentCallId!;
  if (agent.subagents.has(call.toolName)) turn.emit(agent.name, depth, { type: 'delegation-end', to: call.toolName, callId: call.toolCallId, output, isError: true, parentCallId });
  else turn.emit(agent.name, depth, { type: 'tool-result', tool: call.toolName, callId: call.toolCallId, output, isError: true, parentCallId });
}

async function executeCode(turn: TurnContext, agent: CompiledAgent, call: ModelToolCall, code: string, depth: number, runNested: RunNestedCall): Promise<ToolResult> {
  // A turn-ending error from inside the script (a cancel, a question for the user, a model that
  // cannot run) stops the script and then ends the turn, as it would outside code mode.
  const stop = new AbortController();
  let fatal: { error: unknown } | undefined;
  let calls = 0;
  // The nested calls' context: runScript gives every call of the script the same signal, which
  // aborts with the turn or when the script ends.
  let nestedTurn: TurnContext | undefined;
  const hostFunction =
    (fn: ToolFunction): HostFunction =>
    async (input, signal) => {
      const nested: ModelToolCall = { toolCallId: `${call.toolCallId}.${++calls}`, toolName: fn.toolName, input: JSON.stringify(input), args: { ok: true, value: input }, parentCallId: call.toolCallId };
      if (nestedTurn?.signal !== signal) nestedTurn = contextWithSignal(turn, signal);
      let result: ToolResult;
      try {
        result = await runNested(nestedTurn, nested);
      } catch (error) {
        if (signal.aborted && !turn.signal.aborted) emitDropped(turn, agent, depth, nested);
        else if (isTurnFatal(error, turn.signal)) {
          fatal ??= { error };
          stop.abort();
        }
        throw error;
      }
      if (result.isError) throw new Error(result.output);
      return result.output;
    };
  const functions = new Map((agent.scriptFunctions ?? []).map((fn) => [fn.name, hostFunction(fn)]));
  const outcome = await runScript({ code, functions, signal: AbortSignal.any([turn.signal, stop.signal]) });
  if (fatal) throw fatal.error;
  turn.signal.throwIfAborted();
  return resultOf(outcome);
}

export async function runCodeModeTool(turn: TurnContext, agent: CompiledAgent, call: ModelToolCall, args: unknown, depth: number, runNested: RunNestedCall): Promise<ToolResult> {
  const functions = agent.scriptFunctions ?? [];
  switch (call.toolName) {
    case EXECUTE_CODE: {
      const input = executeInput.safeParse(args);
      return input.success ? executeCode(turn, agent, call, input.data.code, depth, runNested) : invalid(EXECUTE_CODE, input.error);
    }
    case LIST_TOOL_FUNCTIONS: {
      const input = listInput.safeParse(args);
      return input.success ? listFunctions(functions) : invalid(LIST_TOOL_FUNCTIONS, input.error);
    }
    default: {
      const input = describeInput.safeParse(args);
      return input.success ? describeFunction(functions, input.data.name) : invalid(DESCRIBE_TOOL_FUNCTION, input.error);
    }
  }
}
