import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { isPersisted, type TurnEvent, type TurnEventBody } from '../../../src/core/events.js';
import { createAgUiMapper } from '../../../src/server/turns/formats/agUi.js';
import { ownEventsMessage } from '../../../src/server/turns/formats/ownEvents.js';
import { createUiMessageMapper } from '../../../src/server/turns/formats/uiMessageStream.js';
import { createLiveTurn, type StreamedEvent } from '../../../src/server/turns/liveTurn.js';

// Each wire format is a pure function of the turn's event stream; these pin the mappings.

function event(body: TurnEventBody, where: { agent?: string; depth?: number; delegationId?: string } = {}): TurnEvent {
  return { turnId: 't1', agent: where.agent ?? 'Moderator', depth: where.depth ?? 0, at: 0, delegationId: where.delegationId, ...body } as TurnEvent;
}

const SPEAKS = [event({ type: 'turn-start', syndicate: 'Council', input: 'Hi' }), event({ type: 'text-delta', delta: 'Hel' }), event({ type: 'text-delta', delta: 'lo' }), event({ type: 'message', text: 'Hello' })];
const DELEGATES = [
  event({ type: 'delegation-start', to: 'Advocate', request: 'Hi', callId: 'c1', kind: 'syndicate' }),
  event({ type: 'delegation-start', to: 'Researcher', request: 'Hi', callId: 'c2', kind: 'remote' }, { agent: 'Advocate', depth: 1, delegationId: 'c1' }),
  event({ type: 'text-delta', delta: 'inner' }, { agent: 'Researcher', depth: 2, delegationId: 'c2' }),
  event({ type: 'delegation-end', to: 'Researcher', callId: 'c2', output: 'facts', isError: false }, { agent: 'Advocate', depth: 1, delegationId: 'c1' }),
  event({ type: 'delegation-end', to: 'Advocate', callId: 'c1', output: 'case', isError: false }),
];
const END = event({ type: 'turn-end', status: 'completed', output: 'Hello' });
const RESEARCHER = { agent: 'Researcher', depth: 2, delegationId: 'c2' };
const USAGE = { type: 'usage', provider: 'p', model: 'm', latencyMs: 1, outcome: 'ok', inputTokens: 1, outputTokens: 1, reasoningTokens: 0, cachedInputTokens: 0 } as const;
/** The Researcher thinks, calls a tool, then answers: live (with deltas) as a stream sees it. */
const RESEARCHES = [
  event({ type: 'thinking-delta', delta: 'Let me count' }, RESEARCHER),
  event(USAGE, RESEARCHER),
  event({ type: 'thinking', text: 'Let me count' }, RESEARCHER),
  event({ type: 'tool-call', tool: 'calculator', callId: 'k1', input: { expression: '6*7' } }, RESEARCHER),
  event({ type: 'tool-result', tool: 'calculator', callId: 'k1', output: 42, isError: false }, RESEARCHER),
  event({ type: 'text-delta', delta: 'It is 42' }, RESEARCHER),
  event(USAGE, RESEARCHER),
  event({ type: 'message', text: 'It is 42' }, RESEARCHER),
];
/** The council with the Researcher's work inside its delegation. */
const NESTED = [SPEAKS[0]!, ...DELEGATES.slice(0, 2), ...RESEARCHES, ...DELEGATES.slice(3)];
const stored = (events: readonly TurnEvent[]): TurnEvent[] => events.filter(isPersisted);

describe('AI SDK UI message chunks', () => {
  it("makes the main run's deltas one text part in a step, closed by its message", () => {
    const map = createUiMessageMapper();

    expect(SPEAKS.flatMap(map).map((chunk) => chunk.type)).toEqual(['start', 'start-step', 'text-start', 'text-delta', 'text-delta', 'text-end']);
  });

  it('sends a message that came without deltas whole', () => {
    const map = createUiMessageMapper();

    const chunks = [SPEAKS[0]!, event({ type: 'message', text: 'Hello' })].flatMap(map);

    expect(chunks).toContainEqual({ type: 'text-delta', id: 'root:0', delta: 'Hello' });
  });

  it("keeps subagents' text out of the answer and nests delegations by their parent's callId, each saying what it went to", () => {
    const map = createUiMessageMapper();

    const chunks = [SPEAKS[0]!, ...DELEGATES].flatMap(map);

    expect(chunks.some((chunk) => chunk.type === 'text-delta')).toBe(false);
    expect(chunks.filter((chunk) => chunk.type === 'data-delegation').at(-2)).toMatchObject({ id: 'c2', data: { agent: 'Researcher', kind: 'remote', parent: 'c1', depth: 2, status: 'completed', output: 'facts' } });
    expect(chunks.filter((chunk) => chunk.type === 'data-delegation').at(-1)).toMatchObject({ id: 'c1', data: { agent: 'Advocate', kind: 'syndicate', parent: null, depth: 1 } });
    expect(chunks.filter((chunk) => chunk.type === 'tool-output-available').map((chunk) => chunk.toolCallId)).toEqual(['c2', 'c1']);
  });

  it('starts a new step for the model call after the previous one', () => {
    const map = createUiMessageMapper();

    const chunks = [...SPEAKS, event(USAGE), event({ type: 'tool-call', tool: 'calc', callId: 'k1', input: { a: 1 } })].flatMap(map);

    expect(chunks.map((chunk) => chunk.type).slice(-3)).toEqual(['finish-step', 'start-step', 'tool-input-available']);
  });

  it("names, in a subagent's tool part, the agent that made the call and the delegation it made it in", () => {
    const map = createUiMessageMapper();

    const chunks = NESTED.flatMap(map);

    expect(chunks.filter((chunk) => chunk.type === 'tool-input-available')).toEqual([
      expect.objectContaining({ toolCallId: 'c1', toolName: 'Advocate', toolMetadata: { agent: 'Moderator', delegation: null, depth: 0 } }),
      expect.objectContaining({ toolCallId: 'c2', toolName: 'Researcher', toolMetadata: { agent: 'Advocate', delegation: 'c1', depth: 1 } }),
      expect.objectContaining({ toolCallId: 'k1', toolName: 'calculator', input: { expression: '6*7' }, toolMetadata: { agent: 'Researcher', delegation: 'c2', depth: 2 } }),
    ]);
    expect(chunks).toContainEqual({ type: 'tool-output-available', toolCallId: 'k1', output: 42, dynamic: true });
  });

  it("shows a subagent's thinking as a reasoning part whose providerMetadata names its agent and delegation", () => {
    const map = createUiMessageMapper();

    const chunks = NESTED.flatMap(map);

    expect(chunks.filter((chunk) => chunk.type.startsWith('reasoning-'))).toEqual([
      { type: 'reasoning-start', id: 'c2:0:reasoning', providerMetadata: { syndicate: { agent: 'Researcher', delegation: 'c2', depth: 2 } } },
      { type: 'reasoning-delta', id: 'c2:0:reasoning', delta: 'Let me count' },
      { type: 'reasoning-end', id: 'c2:0:reasoning' },
    ]);
  });

  it('streams thinking followed by text once each, and a replay of the stored events makes the same chunks', () => {
    const step = [SPEAKS[0]!, event({ type: 'thinking-delta', delta: 'hmm' }), event({ type: 'text-delta', delta: 'Hello' }), event(USAGE), event({ type: 'thinking', text: 'hmm' }), event({ type: 'message', text: 'Hello' }), END];

    const live = step.flatMap(createUiMessageMapper());
    const replayed = stored(step).flatMap(createUiMessageMapper());

    expect(live.map((chunk) => chunk.type)).toEqual(['start', 'start-step', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish']);
    expect(replayed).toEqual(live);
  });

  it('maps thinking to a reasoning part, the route to a data part, and a cancel to abort before finish', () => {
    const map = createUiMessageMapper();

    const chunks = [
      SPEAKS[0]!,
      event({ type: 'route', route: 'Billing', reason: 'refund', source: 'override' }),
      event({ type: 'thinking-delta', delta: 'hmm' }),
      event({ type: 'error', message: 'the turn was cancelled', code: 'cancelled' }),
      event({ type: 'turn-end', status: 'cancelled', output: '', error: 'the turn was cancelled' }),
    ].flatMap(map);

    expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'data-route', 'start-step', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'finish-step', 'abort', 'finish']);
    expect(chunks.at(-1)).toMatchObject({ finishReason: 'other', messageMetadata: { status: 'cancelled', turnId: 't1' } });
  });

  it("ends a failed turn's text and unanswered calls, then finishes, and only then sends its error (where useChat stops reading)", () => {
    const map = createUiMessageMapper();

    const chunks = [
      SPEAKS[0]!,
      event({ type: 'text-delta', delta: 'Half an' }),
      event({ type: 'error', message: 'the model is down', code: 'model_error' }),
      event({ type: 'turn-end', status: 'failed', output: '', error: 'the model is down' }),
    ].flatMap(map);

    expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish', 'error']);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'the model is down' });
  });

  it('ends the tool calls and delegations a cancelled turn cut short as output errors, and a delegation waiting for the user as answered with the question', () => {
    const cancelled = [
      SPEAKS[0]!,
      DELEGATES[0]!,
      event({ type: 'tool-call', tool: 'wait', callId: 'k1', input: {} }, { agent: 'Advocate', depth: 1, delegationId: 'c1' }),
      event({ type: 'turn-end', status: 'cancelled', output: '', error: 'the turn was cancelled' }),
    ].flatMap(createUiMessageMapper());
    const waiting = [SPEAKS[0]!, DELEGATES[0]!, event({ type: 'turn-end', status: 'input-required', output: 'Which city?' })].flatMap(createUiMessageMapper());

    expect(cancelled.filter((chunk) => chunk.type === 'tool-output-error').map((chunk) => chunk.toolCallId).sort()).toEqual(['c1', 'k1']);
    expect(cancelled).toContainEqual(expect.objectContaining({ type: 'tool-output-error', toolCallId: 'k1', errorText: 'the turn ended cancelled before this call answered' }));
    expect(waiting.filter((chunk) => chunk.type === 'tool-output-error')).toEqual([]);
    expect(waiting).toContainEqual({ type: 'tool-output-available', toolCallId: 'c1', output: 'Which city?', dynamic: true });
    expect(waiting).toContainEqual(expect.objectContaining({ type: 'data-delegation', data: expect.objectContaining({ callId: 'c1', status: 'input-required' }) }));
  });
});

describe('AG-UI events', () => {
  const run = { threadId: 'th', runId: 'r1' };

  it('maps a turn to events the AG-UI schemas accept, from RUN_STARTED to RUN_FINISHED', () => {
    const map = createAgUiMapper(run);

    const events = [...SPEAKS, ...DELEGATES, event({ type: 'thinking', text: 'hmm' }), END].flatMap(map);

    for (const each of events) expect(EventSchemas.safeParse(each).success, JSON.stringify(each)).toBe(true);
    expect(events.map((each) => each.type)).toEqual([
      'RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
      'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'STEP_STARTED', 'SUBAGENT_STARTED',
      'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'STEP_STARTED', 'SUBAGENT_STARTED',
      'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
      'SUBAGENT_FINISHED', 'TOOL_CALL_RESULT', 'STEP_FINISHED', 'SUBAGENT_FINISHED', 'TOOL_CALL_RESULT', 'STEP_FINISHED',
      'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
      'RUN_FINISHED',
    ]);
  });

  it('makes each delegation a subagent spawned by the tool call of the agent that delegated, its metadata saying what it went to', () => {
    const map = createAgUiMapper(run);

    const events = NESTED.flatMap(map);

    expect(events.filter((each) => each.type === 'SUBAGENT_STARTED')).toEqual([
      { type: 'SUBAGENT_STARTED', subagentRunId: 'c1', name: 'Advocate', metadata: { syndicate: { kind: 'syndicate' } }, parentToolCallId: 'c1', parentMessageId: 'r1:root:0' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'c2', name: 'Researcher', metadata: { syndicate: { kind: 'remote' } }, parentToolCallId: 'c2', parentMessageId: 'r1:c1:0', parentSubagentRunId: 'c1' },
    ]);
    expect(events.find((each) => each.type === 'TOOL_CALL_START' && (each as { toolCallId?: string }).toolCallId === 'c2')).toMatchObject({ toolCallName: 'Researcher', subagentRunId: 'c1' });
    expect(events.filter((each) => each.type === 'SUBAGENT_FINISHED')).toEqual([
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'c2', result: 'facts' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'c1', result: 'case' },
    ]);
  });

  it("attributes a subagent's thinking, tool call and text to its run, the call to the message of the model call that made it", () => {
    const map = createAgUiMapper(run);

    const events = NESTED.flatMap(map);
    const researcher = events.filter((each) => (each as { subagentRunId?: string }).subagentRunId === 'c2' && !each.type.startsWith('SUBAGENT'));

    expect(researcher.map((each) => each.type)).toEqual([
      'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
      'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
    ]);
    expect(researcher[5]).toMatchObject({ toolCallId: 'k1', toolCallName: 'calculator', parentMessageId: 'r1:c2:0' });
    expect(researcher[6]).toMatchObject({ delta: JSON.stringify({ expression: '6*7' }) });
    expect(researcher[8]).toMatchObject({ toolCallId: 'k1', content: '42' });
    expect(researcher[9]).toMatchObject({ messageId: 'r1:c2:1' });
  });

  it('gives a replay of the stored events the messages of the live stream, with the same ids, where parallel runs interleave', () => {
    const starts = (events: readonly TurnEvent[]): string[] =>
      events
        .flatMap(createAgUiMapper(run))
        .filter((each) => each.type.endsWith('_START'))
        .map((each) => JSON.stringify(each))
        .sort();
    const other = { agent: 'Researcher', depth: 2, delegationId: 'c3' };
    const parallel = [...NESTED.slice(0, 3), event({ type: 'text-delta', delta: 'other' }, other), ...NESTED.slice(3, -2), event(USAGE, other), event({ type: 'message', text: 'other' }, other), ...NESTED.slice(-2)];

    expect(starts(stored(parallel))).toEqual(starts(parallel));
    expect(starts(parallel)).toContainEqual(JSON.stringify({ type: 'TEXT_MESSAGE_START', messageId: 'r1:c3:0', role: 'assistant', subagentRunId: 'c3' }));
  });

  it('reports a failed delegation as SUBAGENT_ERROR with what went wrong, and its tool call as answered with that', () => {
    const map = createAgUiMapper(run);

    const events = [SPEAKS[0]!, DELEGATES[0]!, event({ type: 'delegation-end', to: 'Advocate', callId: 'c1', output: 'Advocate failed: the model is down', isError: true })].flatMap(map);

    expect(events.slice(-3)).toEqual([
      { type: 'SUBAGENT_ERROR', subagentRunId: 'c1', message: 'Advocate failed: the model is down' },
      { type: 'TOOL_CALL_RESULT', messageId: 'c1-result', toolCallId: 'c1', role: 'tool', content: 'Advocate failed: the model is down' },
      { type: 'STEP_FINISHED', stepName: 'Advocate c1' },
    ]);
  });

  const ANSWER_SCHEMA = { type: 'string', minLength: 1, description: 'The answer to the question, as text' };

  it('suspends the delegations a turn ends in when a subagent asked the user, their calls answered with the question, the asker naming the interrupt RUN_FINISHED carries', () => {
    const map = createAgUiMapper(run);
    const asks = event({ type: 'message', text: 'Which city?' }, RESEARCHER);

    const events = [SPEAKS[0]!, ...DELEGATES.slice(0, 2), asks, event({ type: 'turn-end', status: 'input-required', output: 'Which city?' })].flatMap(map);

    for (const each of events) expect(EventSchemas.safeParse(each).success, JSON.stringify(each)).toBe(true);
    expect(events.slice(-7)).toEqual([
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'c2', outcome: { type: 'suspended', interruptIds: ['t1'] } },
      { type: 'TOOL_CALL_RESULT', messageId: 'c2-result', toolCallId: 'c2', role: 'tool', content: 'Which city?', subagentRunId: 'c1' },
      { type: 'STEP_FINISHED', stepName: 'Researcher c2', subagentRunId: 'c1' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'c1', outcome: { type: 'suspended' } },
      { type: 'TOOL_CALL_RESULT', messageId: 'c1-result', toolCallId: 'c1', role: 'tool', content: 'Which city?' },
      { type: 'STEP_FINISHED', stepName: 'Advocate c1' },
      {
        type: 'RUN_FINISHED',
        threadId: 'th',
        runId: 'r1',
        outcome: {
          type: 'interrupt',
          interrupts: [{ id: 't1', reason: 'input_required', message: 'Which city?', responseSchema: ANSWER_SCHEMA, subagentRunId: 'c2', metadata: { syndicate: { agent: 'Researcher' } } }],
        },
      },
    ]);
  });

  it('ends a turn whose root agent asked the user with RUN_FINISHED carrying the question as an interrupt of the run itself, named by the turn id', () => {
    const map = createAgUiMapper(run);

    const events = [SPEAKS[0]!, event({ type: 'message', text: 'Which city?' }), event({ type: 'turn-end', status: 'input-required', output: 'Which city?' })].flatMap(map);

    for (const each of events) expect(EventSchemas.safeParse(each).success, JSON.stringify(each)).toBe(true);
    expect(events.at(-1)).toEqual({
      type: 'RUN_FINISHED',
      threadId: 'th',
      runId: 'r1',
      outcome: { type: 'interrupt', interrupts: [{ id: 't1', reason: 'input_required', message: 'Which city?', responseSchema: ANSWER_SCHEMA, metadata: { syndicate: { agent: 'Moderator' } } }] },
    });
  });

  it('ends a failed turn with RUN_ERROR, and the route is a CUSTOM event', () => {
    const map = createAgUiMapper(run);

    const events = [SPEAKS[0]!, event({ type: 'route', route: 'Billing', reason: 'refund', source: 'override' }), event({ type: 'turn-end', status: 'failed', output: '', error: 'the model is down' })].flatMap(map);

    expect(events.slice(1)).toEqual([
      { type: 'CUSTOM', name: 'syndicate.route', value: { route: 'Billing', reason: 'refund', source: 'override' } },
      { type: 'RUN_ERROR', message: 'the model is down', code: 'failed' },
    ]);
  });

  it('closes, innermost first, what a cancelled turn cut short, then RUN_FINISHED with the cancelled outcome and no result; a replay of the stored events ends the same', () => {
    const cut = [
      SPEAKS[0]!,
      ...DELEGATES.slice(0, 2),
      event({ type: 'thinking-delta', delta: 'hmm' }, RESEARCHER),
      event({ type: 'tool-call', tool: 'wait', callId: 'k1', input: {} }, RESEARCHER),
      event({ type: 'error', message: 'the turn was cancelled', code: 'cancelled' }),
      event({ type: 'turn-end', status: 'cancelled', output: '', error: 'the turn was cancelled' }),
    ];
    const unanswered = 'the turn ended cancelled before this call answered';

    const events = cut.flatMap(createAgUiMapper(run));

    for (const each of events) expect(EventSchemas.safeParse(each).success, JSON.stringify(each)).toBe(true);
    expect(events.slice(-8)).toEqual([
      { type: 'TOOL_CALL_RESULT', messageId: 'k1-result', toolCallId: 'k1', role: 'tool', content: unanswered, subagentRunId: 'c2' },
      { type: 'SUBAGENT_ERROR', subagentRunId: 'c2', message: unanswered, code: 'cancelled' },
      { type: 'TOOL_CALL_RESULT', messageId: 'c2-result', toolCallId: 'c2', role: 'tool', content: unanswered, subagentRunId: 'c1' },
      { type: 'STEP_FINISHED', stepName: 'Researcher c2', subagentRunId: 'c1' },
      { type: 'SUBAGENT_ERROR', subagentRunId: 'c1', message: unanswered, code: 'cancelled' },
      { type: 'TOOL_CALL_RESULT', messageId: 'c1-result', toolCallId: 'c1', role: 'tool', content: unanswered },
      { type: 'STEP_FINISHED', stepName: 'Advocate c1' },
      { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1', outcome: { type: 'cancelled' } },
    ]);
    expect(stored(cut).flatMap(createAgUiMapper(run)).slice(-8)).toEqual(events.slice(-8));
  });
});

describe("Syndicate's own events", () => {
  it('names the message by the event type and gives a stored event its seq as id and in the data', () => {
    expect(ownEventsMessage({ event: END, seq: 7 })).toBe(`event: turn-end\nid: 7\ndata: ${JSON.stringify({ ...END, seq: 7 })}\n\n`);
    expect(ownEventsMessage({ event: SPEAKS[1]!, seq: undefined })).toBe(`event: text-delta\ndata: ${JSON.stringify(SPEAKS[1])}\n\n`);
  });
});

describe('a live turn', () => {
  function follow(turn: ReturnType<typeof createLiveTurn>): StreamedEvent[] {
    const seen: StreamedEvent[] = [];
    turn.subscribe(undefined, { event: (streamed) => seen.push(streamed), end: () => undefined });
    return seen;
  }

  it('holds events until the first batch commits, then streams stored ones with predicted seqs at once', () => {
    const turn = createLiveTurn('s', true);
    const seen = follow(turn);
    const [start, delta, , message] = SPEAKS;

    turn.push(start!);
    turn.push(delta!);
    expect(seen).toEqual([]);
    turn.committed([start!], 11);
    turn.push(message!);

    expect(seen).toEqual([{ event: start, seq: 11 }, { event: delta, seq: undefined }, { event: message, seq: 12 }]);
  });

  it('falls back to waiting for commits, with a warning, when the store gives another seq than predicted', () => {
    const warnings: string[] = [];
    const turn = createLiveTurn('s', true, (message) => warnings.push(message));
    const seen = follow(turn);
    const [start, , , message] = SPEAKS;
    turn.push(start!);
    turn.committed([start!], 11);
    turn.push(message!);

    turn.committed([message!], 20);
    turn.push(END);

    expect(warnings).toHaveLength(1);
    expect(seen.map((streamed) => streamed.event.type)).toEqual(['turn-start', 'message']);
    turn.committed([END], 21);
    expect(seen.at(-1)).toEqual({ event: END, seq: 21 });
  });
});
