import type { JSONSchema7 } from '@ai-sdk/provider';
import { expect } from 'vitest';
import type { AgentDefinition } from '../../../src/config/definition.js';
import type { TurnEvent } from '../../../src/core/events.js';
import type { RunTurnOptions } from '../../../src/runtime/runTurn.js';
import { agent, collect, compile, ofType } from '../../runtime/fixtures.js';
import type { ToolCallScript } from './fakes/server.js';

// What the wire tests share: one agent on a real provider, run through the real runtime.

export interface WireTurn {
  /** The model id as a syndicate file names it, e.g. `claude-sonnet-4-5`. */
  model: string;
  env: NodeJS.ProcessEnv;
  input: string;
  stream: boolean;
  agent?: Partial<AgentDefinition>;
  turn?: Partial<RunTurnOptions>;
}

export function runWireTurn(options: WireTurn): Promise<TurnEvent[]> {
  const root = agent('Analyst', { model: options.model, ...options.agent });
  return collect(compile(root, { env: options.env }), { input: options.input, stream: options.stream, ...options.turn });
}

export const STREAMING = [
  ['streaming', true],
  ['non-streaming', false],
] as const;

export const SIX_TIMES_SEVEN: ToolCallScript = { id: 'call_6x7', name: 'calculator', args: { expression: '6*7' } };

/** What the built-in calculator answers for SIX_TIMES_SEVEN. */
export const CALCULATOR_RESULT = { expression: '6*7', result: 42 };

export const VERDICT_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['approve', 'reject'] }, confidence: { type: 'integer' } },
  required: ['verdict', 'confidence'],
  additionalProperties: false,
};

export const VERDICT = { verdict: 'approve', confidence: 90 };

export const SECRET_THOUGHT = 'The user wants 6*7; I should use the calculator.';

export function textDeltas(events: readonly TurnEvent[]): string[] {
  return ofType(events, 'text-delta').map((event) => event.delta);
}

/** Anthropic's thinking signature arrives as an empty reasoning delta, which the runtime passes on; this reads the ones with text. */
export function thinkingDeltas(events: readonly TurnEvent[]): string[] {
  return ofType(events, 'thinking-delta')
    .map((event) => event.delta)
    .filter((delta) => delta !== '');
}

export function thinkingText(events: readonly TurnEvent[]): string {
  return ofType(events, 'thinking')
    .map((event) => event.text)
    .join('');
}

/** The calculator as the chat completions style declares it (xAI, OpenAI-compatible servers, Ollama). */
export const CALCULATOR_FUNCTION_TOOLS = [
  { type: 'function', function: expect.objectContaining({ name: 'calculator', parameters: expect.objectContaining({ required: ['expression'] }) }) },
];

/** The assistant message replaying SIX_TIMES_SEVEN and the tool message answering it, in the chat completions style. */
export function calculatorToolMessages(callId: string | undefined, assistant: { content: string | null; arguments: unknown }): unknown[] {
  return [
    { role: 'assistant', content: assistant.content, tool_calls: [{ id: callId, type: 'function', function: { name: 'calculator', arguments: assistant.arguments } }] },
    { role: 'tool', tool_call_id: callId, content: JSON.stringify(CALCULATOR_RESULT) },
  ];
}
