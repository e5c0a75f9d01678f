import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupTracing, tracesEndpoint } from '../../src/telemetry/setupTracing.js';
import { agent, collect, compile, ofType, turnEnd } from '../runtime/fixtures.js';
import { council, COUNCIL_INPUT } from './fixtures.js';
import { OTLP_KIND, OTLP_STATUS, receivedNodes, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlpReceiver.js';
import { COUNCIL_TREE, renderTree } from './spanTree.js';

function named(spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] {
  return spans.filter((span) => span.name === name);
}

function only(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = named(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
}

describe('OTLP/HTTP export of a delegating turn (loopback receiver)', () => {
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });

  afterEach(async () => {
    await receiver.close();
  });

  it('delivers the whole span tree, linked by span ids, with the GenAI attributes', async () => {
    const warnings: string[] = [];
    const tracing = await setupTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'council-test' }, { warn: (m) => warnings.push(m) });
    expect(tracing).toBeDefined();

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing!.observer('session-42')] });
    await tracing!.shutdown();

    expect(warnings).toEqual([]);
    expect(receiver.requests.every((r) => r.method === 'POST' && r.path === '/v1/traces' && r.contentType?.startsWith('application/json'))).toBe(true);
    const spans = receiver.spans;
    expect(renderTree(receivedNodes(spans))).toEqual(COUNCIL_TREE);

    const root = only(spans, 'invoke_agent Moderator');
    expect(root.parentSpanId).toBeUndefined();
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([root.traceId]));
    expect(root.resource['service.name']).toBe('council-test');
    expect(root.kind).toBe(OTLP_KIND.internal);
    expect(root.status.code).toBe(OTLP_STATUS.unset);
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Moderator',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.conversation.id': 'session-42',
      'syndicate.turn.id': turnEnd(events).turnId,
    });

    const skeptic = only(spans, 'invoke_agent Skeptic');
    const advocate = only(spans, 'invoke_agent Advocate');
    expect(skeptic.parentSpanId).toBe(root.spanId);
    expect(advocate.parentSpanId).toBe(root.spanId);
    expect(skeptic.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Skeptic' });

    const tool = only(spans, 'execute_tool calculator');
    expect(tool.parentSpanId).toBe(skeptic.spanId);
    expect(tool.kind).toBe(OTLP_KIND.internal);
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'calculator',
      'gen_ai.tool.call.id': ofType(events, 'tool-call')[0]?.callId,
      'gen_ai.tool.type': 'function',
    });

    const chats = named(spans, 'chat scripted');
    expect(chats.map((span) => span.kind)).toEqual(chats.map(() => OTLP_KIND.client));
    const parentAgent = new Map(spans.map((span) => [span.spanId, span.attributes['gen_ai.agent.name']]));
    expect(chats.map((span) => parentAgent.get(span.parentSpanId!)).sort()).toEqual(['Advocate', 'Moderator', 'Moderator', 'Moderator', 'Skeptic', 'Skeptic']);
    for (const name of ['Moderator', 'Advocate', 'Skeptic']) {
      const usage = ofType(events, 'usage').filter((e) => e.agent === name);
      const mine = chats.filter((span) => span.attributes['gen_ai.agent.name'] === name);
      const total = (key: string): number => mine.reduce((sum, span) => sum + Number(span.attributes[key]), 0);
      expect(total('gen_ai.usage.input_tokens'), name).toBe(usage.reduce((sum, e) => sum + e.inputTokens, 0));
      expect(total('gen_ai.usage.output_tokens'), name).toBe(usage.reduce((sum, e) => sum + e.outputTokens, 0));
    }
    expect(chats.find((span) => span.attributes['gen_ai.agent.name'] === 'Skeptic')?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted',
      'gen_ai.response.model': 'scripted',
      'gen_ai.conversation.id': 'session-42',
    });
    expect(chats.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toContainEqual(['tool_call']);
    const contentKeys = spans.flatMap((span) => Object.keys(span.attributes)).filter((key) => key.endsWith('.messages') || key.startsWith('gen_ai.tool.call.a') || key === 'gen_ai.tool.call.result');
    expect(contentKeys).toEqual([]);
  });

  it('exports message content only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true', async () => {
    const tracing = await setupTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' });

    await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing!.observer()] });
    await tracing!.shutdown();

    const root = only(receiver.spans, 'invoke_agent Moderator');
    expect(JSON.parse(String(root.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: COUNCIL_INPUT }] }]);
    expect(String(only(receiver.spans, 'execute_tool calculator').attributes['gen_ai.tool.call.arguments'])).toContain('4800 / 12');
  });

  it('exports a failed turn with ERROR status and error.type', async () => {
    const tracing = await setupTracing({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces` });
    const root = agent('Moderator', { subagents: [agent('Advocate', { model: 'claude-sonnet-4-5' })] });

    await collect(compile(root, { env: {} }), { input: 'Should we?', observers: [tracing!.observer()] });
    await tracing!.shutdown();

    const moderator = only(receiver.spans, 'invoke_agent Moderator');
    expect(moderator.status.code).toBe(OTLP_STATUS.error);
    expect(moderator.status.message).toContain('ANTHROPIC_API_KEY');
    expect(moderator.attributes['error.type']).toBe('model_config');
    expect(only(receiver.spans, 'chat claude-sonnet-4-5').parentSpanId).toBe(only(receiver.spans, 'invoke_agent Advocate').spanId);
  });
});

describe('setupTracing', () => {
  it('is off, importing nothing, without an OTLP endpoint or when disabled', async () => {
    expect(await setupTracing({})).toBeUndefined();
    expect(await setupTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(await setupTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('says so, and stays off, when the endpoint is not a URL', async () => {
    const warnings: string[] = [];

    expect(await setupTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost 4318' }, { warn: (m) => warnings.push(m) })).toBeUndefined();

    expect(warnings.join()).toContain('not a URL');
  });

  it('takes the traces endpoint as given, and appends /v1/traces to the base endpoint', () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/custom' })).toBe('http://b/custom');
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
  });

  it('warns once when the collector cannot be reached, and neither fails the turn nor holds up the shutdown', async () => {
    const closed = await startOtlpReceiver();
    await closed.close();
    const warnings: string[] = [];
    const tracing = await setupTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: closed.endpoint }, { warn: (m) => warnings.push(m), shutdownTimeoutMs: 300 });

    const events = await collect(compile(council()), { input: COUNCIL_INPUT, observers: [tracing!.observer()] });
    const started = Date.now();
    await tracing!.shutdown();

    expect(Date.now() - started).toBeLessThan(2000);
    expect(turnEnd(events).status).toBe('completed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`could not be exported to ${closed.endpoint}/v1/traces`);
  });
});
