import { context as otelContext, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { emptyResource } from '@opentelemetry/resources';
import { StackContextManager, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/config/schema.js';
import { resolveModel } from '../../src/models/resolveModel.js';
import type { CompileOptions } from '../../src/runtime/compileSyndicate.js';
import type { TurnEvent, TurnEventBody } from '../../src/core/events.js';
import { createTracingObserver } from '../../src/telemetry/tracingObserver.js';
import { agent, collect, compile, ofType, turnEnd } from '../runtime/fixtures.js';
import { attributesOf, council, COUNCIL_INPUT, memoryTracing, nodesOf, SKEPTIC_ANSWER, spanNamed } from './fixtures.js';
import { COUNCIL_TREE, renderTree } from './spanTree.js';

const CONTENT_KEYS = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];

/** Scripted models, except that `agentName`'s calls fail with an error no retry can fix. */
function failingFor(agentName: string): NonNullable<CompileOptions['resolveModel']> {
  return (id, context, env) => {
    const model = resolveModel(id, context, env);
    if (context.agentName !== agentName) return model;
    const refuse = (): Promise<never> => Promise.reject(new Error('the request was refused'));
    return { ...model, doGenerate: refuse, doStream: refuse };
  };
}

function millis(time: ReadableSpan['startTime']): number {
  return time[0] * 1e3 + time[1] / 1e6;
}

describe('tracing observer: a delegating turn', () => {
  it('nests delegations, model calls and tool calls under the agent that made them', async () => {
    const tracing = memoryTracing({ conversationId: 'session-1' });

    await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observer] });

    const spans = tracing.spans();
    expect(renderTree(nodesOf(spans))).toEqual(COUNCIL_TREE);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('keeps every child span inside its parent’s time range', async () => {
    const tracing = memoryTracing();

    await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observer] });

    const spans = tracing.spans();
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    for (const span of spans) {
      const parent = span.parentSpanContext && byId.get(span.parentSpanContext.spanId);
      if (!parent) continue;
      expect(millis(span.startTime)).toBeGreaterThanOrEqual(millis(parent.startTime));
      expect(millis(span.endTime)).toBeLessThanOrEqual(millis(parent.endTime));
    }
  });

  it('describes agents with the GenAI conventions', async () => {
    const tracing = memoryTracing({ conversationId: 'session-1' });

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observer] });

    const root = spanNamed(tracing.spans(), 'invoke_agent Moderator');
    expect(root.kind).toBe(SpanKind.INTERNAL);
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.status.code).toBe(SpanStatusCode.UNSET);
    expect(attributesOf(root)).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Moderator',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted',
      'gen_ai.conversation.id': 'session-1',
      'syndicate.turn.id': events[0]?.turnId,
    });
    expect(attributesOf(spanNamed(tracing.spans(), 'invoke_agent Skeptic'))).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Skeptic' });
  });

  it('records each model call as a chat client span with its usage, timed by its latency', async () => {
    const tracing = memoryTracing({ conversationId: 'session-1' });

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observer] });

    const usage = ofType(events, 'usage').filter((e) => e.agent === 'Skeptic');
    const chats = tracing.spans().filter((span) => span.name === 'chat scripted' && span.attributes['gen_ai.agent.name'] === 'Skeptic');
    expect(chats.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(chats.map((span) => attributesOf(span))).toEqual(
      usage.map((e) => ({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'scripted',
        'gen_ai.response.model': 'scripted',
        'gen_ai.agent.name': 'Skeptic',
        'gen_ai.conversation.id': 'session-1',
        'gen_ai.usage.input_tokens': e.inputTokens,
        'gen_ai.usage.output_tokens': e.outputTokens,
        'gen_ai.response.finish_reasons': [e.finishReason === 'tool-calls' ? 'tool_call' : 'stop'],
      })),
    );
    expect(chats.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toEqual([['tool_call'], ['stop']]);
    const last = usage[1]!;
    expect(millis(chats[1]!.endTime)).toBe(last.at);
    expect(millis(chats[1]!.startTime)).toBeCloseTo(Math.max(last.at - last.latencyMs, millis(spanNamed(tracing.spans(), 'invoke_agent Skeptic').startTime)), 3);
  });

  it('records each tool call as an execute_tool span with its call id', async () => {
    const tracing = memoryTracing();

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observer] });

    const tool = spanNamed(tracing.spans(), 'execute_tool calculator');
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(attributesOf(tool)).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'calculator',
      'gen_ai.tool.call.id': ofType(events, 'tool-call')[0]?.callId,
      'gen_ai.tool.type': 'function',
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
  });
});

describe('tracing observer: message content', () => {
  it('records no inputs, outputs, arguments or results by default', async () => {
    const tracing = memoryTracing();

    await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observer] });

    const recorded = tracing.spans().flatMap((span) => Object.keys(span.attributes));
    for (const key of CONTENT_KEYS) expect(recorded).not.toContain(key);
    expect(JSON.stringify(tracing.spans().map((span) => span.attributes))).not.toContain('offsite');
  });

  it('records them as GenAI message JSON when content capture is on', async () => {
    const tracing = memoryTracing({ captureContent: true });

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observer] });

    const spans = tracing.spans();
    const root = spanNamed(spans, 'invoke_agent Moderator');
    expect(JSON.parse(String(root.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: COUNCIL_INPUT }] }]);
    expect(JSON.parse(String(root.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: turnEnd(events).output }], finish_reason: 'stop' },
    ]);
    const tool = spanNamed(spans, 'execute_tool calculator');
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual({ expression: '4800 / 12' });
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.result']))).toMatchObject({ result: 400 });
    const skeptic = spanNamed(spans, 'invoke_agent Skeptic');
    expect(String(skeptic.attributes['gen_ai.output.messages'])).toContain(SKEPTIC_ANSWER);
    const answer = spans.find((span) => span.name === 'chat scripted' && String(span.attributes['gen_ai.output.messages']).includes(SKEPTIC_ANSWER));
    expect(answer?.parentSpanContext?.spanId).toBe(skeptic.spanContext().spanId);
  });
});

describe('tracing observer: failures', () => {
  it('marks a failed turn ERROR from the failing model call up to the root', async () => {
    const tracing = memoryTracing();
    const root = agent('Moderator', { subagents: [agent('Advocate', { model: 'claude-sonnet-4-5' })] });

    const events = await collect(compile(root, { env: {} }), { input: 'Should we?', observers: [tracing.observer] });

    expect(turnEnd(events).status).toBe('failed');
    const spans = tracing.spans();
    for (const name of ['invoke_agent Moderator', 'invoke_agent Advocate', 'chat claude-sonnet-4-5']) {
      const span = spanNamed(spans, name);
      expect(span.status.code, name).toBe(SpanStatusCode.ERROR);
      expect(span.status.message, name).toContain('ANTHROPIC_API_KEY');
    }
    expect(spanNamed(spans, 'invoke_agent Moderator').attributes['error.type']).toBe('model_config');
    expect(spanNamed(spans, 'chat claude-sonnet-4-5').attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'error.type': '_OTHER' });
    expect(spanNamed(spans, 'chat claude-sonnet-4-5').attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(renderTree(nodesOf(spans))).toEqual(['invoke_agent Moderator', '  chat scripted', '  invoke_agent Advocate', '    chat claude-sonnet-4-5']);
  });

  it('marks a failed delegation ERROR while the turn, which goes on, stays unset', async () => {
    const tracing = memoryTracing();
    const root = agent('Moderator', { subagents: [agent('Advocate')] });

    await collect(compile(root, { resolveModel: failingFor('Advocate') }), { input: 'Should we?', observers: [tracing.observer] });

    const advocate = spanNamed(tracing.spans(), 'invoke_agent Advocate');
    expect(advocate.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringContaining('Advocate failed') });
    expect(advocate.attributes['error.type']).toBe('agent_error');
    expect(spanNamed(tracing.spans(), 'invoke_agent Moderator').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks a failing tool call ERROR with the message the model was given', async () => {
    const tracing = memoryTracing();
    const script: ScriptStep[] = [{ tool_calls: [{ tool: 'calculator', args: { expression: '1 / 0' } }] }, { reply: 'That cannot be computed.' }];

    await collect(compile(agent('Quartermaster', { tools: ['calculator'], script })), { input: 'compute', observers: [tracing.observer] });

    const tool = spanNamed(tracing.spans(), 'execute_tool calculator');
    expect(tool.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringContaining('calculator failed') });
    expect(tool.attributes['error.type']).toBe('tool_error');
  });

  it('marks a cancelled turn ERROR with error.type cancelled', async () => {
    const tracing = memoryTracing();
    const controller = new AbortController();
    const cancelAtFirstDelegation = (event: { type: string }): void => {
      if (event.type === 'delegation-start') controller.abort();
    };

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, signal: controller.signal, observers: [tracing.observer, cancelAtFirstDelegation] });

    expect(turnEnd(events).status).toBe('cancelled');
    const spans = tracing.spans();
    expect(spanNamed(spans, 'invoke_agent Moderator').attributes['error.type']).toBe('cancelled');
    expect(spans.every((span) => span.ended)).toBe(true);
  });
});

describe('tracing observer: dispatch', () => {
  it('nests the specialist a dispatcher routes to under the dispatcher', async () => {
    const tracing = memoryTracing();
    const specialists = [agent('Billing', { description: 'Invoices and refunds.' }), agent('General', { description: 'Anything else.' })];
    const root = agent('Triage', { subagents: specialists, dispatch: { default_route: 'General' } });

    await collect(compile(root), { input: 'Where is my invoice?', observers: [tracing.observer] });

    expect(renderTree(nodesOf(tracing.spans()))).toEqual(['invoke_agent Triage', '  chat scripted', '  invoke_agent Billing', '    chat scripted']);
    const triage = spanNamed(tracing.spans(), 'invoke_agent Triage');
    expect(triage.events.map((e) => [e.name, e.attributes?.['syndicate.route']])).toEqual([['syndicate.route', 'Billing']]);
  });
});

describe('tracing observer: many turns', () => {
  it('gives each turn of a conversation its own trace, sharing the conversation id', async () => {
    const tracing = memoryTracing({ conversationId: 'session-9' });
    const compiled = compile(council());

    await collect(compiled, { input: 'first', observers: [tracing.observer] });
    await collect(compiled, { input: 'second', observers: [tracing.observer] });

    const roots = tracing.spans().filter((span) => span.name === 'invoke_agent Moderator');
    expect(roots).toHaveLength(2);
    expect(roots[0]!.spanContext().traceId).not.toBe(roots[1]!.spanContext().traceId);
    expect(roots.map((span) => span.attributes['gen_ai.conversation.id'])).toEqual(['session-9', 'session-9']);
  });
});

/**
 * The events of one turn, written by hand: for event shapes a scripted turn cannot produce
 * (the runtime's delegationId) or contexts it cannot run in (a host application's span).
 */
function handWritten(turnId = 'turn-1'): (agent: string, depth: number, body: TurnEventBody, delegationId?: string) => TurnEvent {
  let at = Date.now();
  return (agent, depth, body, delegationId) => ({ turnId, agent, depth, at: at++, ...(delegationId === undefined ? {} : { delegationId }), ...body }) as TurnEvent;
}

function modelCall(model: string): TurnEventBody {
  return { type: 'usage', provider: 'scripted', model, latencyMs: 0, outcome: 'ok', inputTokens: 3, outputTokens: 2, reasoningTokens: 0, cachedInputTokens: 0, finishReason: 'stop' };
}

function childNames(spans: readonly ReadableSpan[], parent: ReadableSpan): string[] {
  return spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId).map((span) => span.name).sort();
}

describe('tracing observer: parallel runs of one subagent', () => {
  it('gives each run its own model and tool calls, told apart by the events’ delegationId', () => {
    const tracing = memoryTracing();
    const event = handWritten();

    for (const e of [
      event('Moderator', 0, { type: 'turn-start', syndicate: 'Council', input: 'Should we?' }),
      event('Moderator', 0, { type: 'delegation-start', to: 'Advocate', request: 'first', callId: 'call-1' }),
      event('Moderator', 0, { type: 'delegation-start', to: 'Advocate', request: 'second', callId: 'call-2' }),
      event('Advocate', 1, modelCall('model-two'), 'call-2'),
      event('Advocate', 1, modelCall('model-one'), 'call-1'),
      event('Advocate', 1, { type: 'tool-call', tool: 'calculator', callId: 'tool-1', input: { expression: '1 + 1' } }, 'call-1'),
      event('Advocate', 1, { type: 'tool-result', tool: 'calculator', callId: 'tool-1', output: { result: 2 }, isError: false }, 'call-1'),
      event('Moderator', 0, { type: 'delegation-end', to: 'Advocate', callId: 'call-1', output: 'one', isError: false }),
      event('Moderator', 0, { type: 'delegation-end', to: 'Advocate', callId: 'call-2', output: 'two', isError: false }),
      event('Moderator', 0, { type: 'turn-end', status: 'completed', output: 'done' }),
    ]) {
      tracing.observer(e);
    }

    const spans = tracing.spans();
    const root = spanNamed(spans, 'invoke_agent Moderator');
    const [first, second] = [spanNamed(spans, 'invoke_agent Advocate', 0), spanNamed(spans, 'invoke_agent Advocate', 1)];
    expect([first.parentSpanContext?.spanId, second.parentSpanContext?.spanId]).toEqual([root.spanContext().spanId, root.spanContext().spanId]);
    expect(childNames(spans, first)).toEqual(['chat model-one', 'execute_tool calculator']);
    expect(childNames(spans, second)).toEqual(['chat model-two']);
  });

  it('finds a routed specialist’s run through the delegationId of the dispatcher that routed to it', () => {
    const tracing = memoryTracing();
    const event = handWritten();

    for (const e of [
      event('Moderator', 0, { type: 'turn-start', syndicate: 'Desk', input: 'Two invoices' }),
      event('Moderator', 0, { type: 'delegation-start', to: 'Triage', request: 'invoice 1', callId: 'call-1' }),
      event('Moderator', 0, { type: 'delegation-start', to: 'Triage', request: 'invoice 2', callId: 'call-2' }),
      event('Triage', 1, { type: 'route', route: 'Billing', reason: 'an invoice', source: 'override' }, 'call-1'),
      event('Triage', 1, { type: 'route', route: 'Billing', reason: 'an invoice', source: 'override' }, 'call-2'),
      event('Billing', 2, modelCall('model-two'), 'call-2'),
      event('Billing', 2, modelCall('model-one'), 'call-1'),
      event('Moderator', 0, { type: 'delegation-end', to: 'Triage', callId: 'call-1', output: 'one', isError: false }),
      event('Moderator', 0, { type: 'delegation-end', to: 'Triage', callId: 'call-2', output: 'two', isError: false }),
      event('Moderator', 0, { type: 'turn-end', status: 'completed', output: 'done' }),
    ]) {
      tracing.observer(e);
    }

    const spans = tracing.spans();
    expect(childNames(spans, spanNamed(spans, 'invoke_agent Billing', 0))).toEqual(['chat model-one']);
    expect(childNames(spans, spanNamed(spans, 'invoke_agent Billing', 1))).toEqual(['chat model-two']);
    expect(childNames(spans, spanNamed(spans, 'invoke_agent Triage', 0))).toEqual(['invoke_agent Billing']);
  });
});

describe('tracing observer: inside a host application’s span', () => {
  const HOST = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

  afterEach(() => {
    otelContext.disable();
  });

  /** Starts a turn while the host's span is active (a context manager is what carries it), then ends it. */
  function turnInside(observe: (event: TurnEvent) => void, traceFlags: number): void {
    otelContext.setGlobalContextManager(new StackContextManager().enable());
    const event = handWritten();
    const hostContext = trace.setSpanContext(otelContext.active(), { ...HOST, traceFlags, isRemote: true });
    otelContext.with(hostContext, () => observe(event('Moderator', 0, { type: 'turn-start', syndicate: 'Council', input: 'Should we?' })));
    observe(event('Moderator', 0, modelCall('scripted')));
    observe(event('Moderator', 0, { type: 'turn-end', status: 'completed', output: 'done' }));
  }

  it('makes the turn a child of the host’s span, in the host’s trace', () => {
    const tracing = memoryTracing();

    turnInside(tracing.observer, TraceFlags.SAMPLED);

    const spans = tracing.spans();
    const root = spanNamed(spans, 'invoke_agent Moderator');
    expect(root.parentSpanContext?.spanId).toBe(HOST.spanId);
    expect(spans.map((span) => span.spanContext().traceId)).toEqual([HOST.traceId, HOST.traceId]);
  });

  it('records nothing when the host’s span is not sampled', () => {
    const tracing = memoryTracing();

    turnInside(tracing.observer, TraceFlags.NONE);

    expect(tracing.spans()).toEqual([]);
  });
});

describe('tracing observer: off the turn', () => {
  it('builds a turn’s spans on the next turn of the event loop, and reports a failure there through onError', async () => {
    const errors: unknown[] = [];
    const broken = { onEnd: (): void => { throw new Error('the processor broke'); } };
    const tracing = createTracingObserver({ processor: broken, resource: emptyResource(), scope: { name: 'test' }, onError: (error) => errors.push(error) });

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing.observe] });
    await new Promise((resolve) => setImmediate(resolve));

    expect(turnEnd(events).status).toBe('completed');
    expect(errors.map((error) => (error as Error).message)).toEqual(['the processor broke']);
  });
});

describe('tracing observer: code mode', () => {
  it('nests the tool calls and delegations a script makes under its execute_code span', async () => {
    const tracing = memoryTracing();
    const code = "const split = await calculator({ expression: '4800 / 12' });\nreturn await Advisor({ request: 'Lisbon?' }) + split.result;";
    const root = agent('Planner', {
      codeMode: true,
      tools: ['calculator'],
      subagents: [agent('Advisor')],
      script: [{ tool_calls: [{ tool: 'execute_code', args: { code } }] }, { reply: 'Planned.' }],
    });

    await collect(compile(root), { input: 'plan', observers: [tracing.observer] });

    expect(renderTree(nodesOf(tracing.spans()))).toEqual([
      'invoke_agent Planner',
      '  chat scripted',
      '  chat scripted',
      '  execute_tool execute_code',
      '    execute_tool calculator',
      '    invoke_agent Advisor',
      '      chat scripted',
    ]);
  });
});
