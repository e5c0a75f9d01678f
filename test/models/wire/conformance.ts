import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../../src/core/events.js';
import { ofType, turnEnd } from '../../runtime/fixtures.js';
import type { FakeProvider, RecordedRequest } from './fakes/server.js';
import {
  CALCULATOR_RESULT,
  runWireTurn,
  SECRET_THOUGHT,
  SIX_TIMES_SEVEN,
  STREAMING,
  textDeltas,
  thinkingDeltas,
  thinkingText,
  VERDICT,
  VERDICT_SCHEMA,
  type WireTurn,
} from './turns.js';

// The behaviour every provider family must show on its own wire, written once. Each family file
// describes its wire in a WireFamily (how to start its fake, how to point the runtime at it, and
// how the common behaviours look in its requests) and calls describeWireConformance; what only
// one provider does stays in that family's file. Test titles that name wire details come from
// the descriptor, so each family's report still reads in its own terms.

/** A recorded request body: provider JSON, read freely. */
type RequestBody = RecordedRequest['body'];

export interface WireFamily {
  /** Names the family's describe blocks, e.g. `claude-* on the Anthropic Messages wire`. */
  title: string;
  /** The model id as a syndicate file names it, e.g. `openai-compatible:localbox/qwen3-8b`. */
  model: string;
  /** The model id the provider itself sees and reports, e.g. `qwen3-8b`. */
  wireModel: string;
  /** The provider id the runtime names in usage and errors, e.g. `anthropic.messages`. */
  provider: string;
  start(): Promise<FakeProvider>;
  /** The environment that points the runtime at a fake listening on `url`. */
  env(url: string): NodeJS.ProcessEnv;
  /** One non-streamed answer: the single request it takes. */
  plainAnswer: {
    title: string;
    path: string;
    /** Headers the request must carry, by lower-case name. */
    headers: Record<string, string>;
    /** Matched partly against the request body. */
    body: Record<string, unknown>;
    /** What `body.stream` holds when no stream is asked for (left out unless the wire says `false`). */
    stream?: false;
  };
  /** One streamed answer: the chunks the fake sends and what marks the request as streamed. */
  streamedAnswer: {
    title: string;
    chunks: readonly string[];
    /** Matched partly against the recorded request (path, body). */
    request: Partial<RecordedRequest>;
  };
  /** One calculator round trip, asked for as SIX_TIMES_SEVEN. */
  toolLoop: {
    /** Ends with ` (%s)`: the case runs streamed and not. */
    title: string;
    /** Whether the wire carries the call id, so the runtime reports SIX_TIMES_SEVEN.id; if not, the SDK makes one up. */
    keepsCallId: boolean;
    /** The `tools` of the first request, exactly. */
    declaredTools: unknown;
    /** The part of the second request's body that replays the call and carries its result. */
    continuation(body: RequestBody): unknown;
    /** What that part must equal, given the call id the runtime reported. */
    expectedContinuation(callId: string | undefined): unknown;
  };
  /** An agent with VERDICT_SCHEMA as its outputSchema. */
  outputSchema: {
    title: string;
    /** The first request's body field that carries the schema, and what it must equal. */
    field: string;
    expected: unknown;
  };
  /** Thinking before a calculator call; left out by a family whose thinking works differently (it tests its own). */
  thinking?: {
    /** Ends with ` (%s)`: the case runs streamed and not. */
    title: string;
    /** Whether a non-streamed answer still yields one thinking delta per piece rather than one whole delta. */
    chunkedWhenNotStreamed: boolean;
    /** Whether the thought stays out of the request that carries the tool result. */
    keptOutOfFollowUp: boolean;
    /** What else the request that carries the tool result must show. */
    followUp?(body: RequestBody): void;
  };
  usage: {
    title: string;
    /** Whether the wire reports thinking tokens; if not, the usage event counts none. */
    reportsReasoning: boolean;
  };
  /** The provider's own words for a 429 and a 500, and a part of each the error message must quote. */
  rateLimited: { message: string; quoted: string };
  serverError: { message: string; quoted: string };
}

export interface WireHarness {
  /** The fake started for the running test. */
  readonly fake: FakeProvider;
  /** Runs one turn of an Analyst agent on the family's model against the fake; streams unless told not to. */
  run(options: Partial<WireTurn> & { input: string }): Promise<TurnEvent[]>;
}

/** Starts the family's fake before each test of the enclosing describe and closes it after. */
export function useWireFake(family: WireFamily): WireHarness {
  let current: FakeProvider | undefined;
  beforeEach(async () => {
    current = await family.start();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const harness: WireHarness = {
    get fake(): FakeProvider {
      if (!current) throw new Error('The wire fake runs only inside a test.');
      return current;
    },
    run: (options) => runWireTurn({ model: family.model, env: family.env(harness.fake.url), stream: true, ...options }),
  };
  return harness;
}

export function describeWireConformance(family: WireFamily): void {
  describe(`Wire conformance: ${family.title}`, () => {
    const wire = useWireFake(family);

    it(family.plainAnswer.title, async () => {
      wire.fake.answer({ text: ['Paris.'] });

      const events = await wire.run({ input: 'Capital of France?', stream: false });

      expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Paris.' });
      expect(wire.fake.requests).toHaveLength(1);
      const [request] = wire.fake.requests;
      expect(request?.path).toBe(family.plainAnswer.path);
      for (const [name, value] of Object.entries(family.plainAnswer.headers)) expect(request?.headers[name]).toBe(value);
      expect(request?.body).toMatchObject(family.plainAnswer.body);
      expect(request?.body.stream).toBe(family.plainAnswer.stream);
    });

    it(family.streamedAnswer.title, async () => {
      const { chunks } = family.streamedAnswer;
      wire.fake.answer({ text: chunks });

      const events = await wire.run({ input: 'Capital of France?' });

      expect(wire.fake.requests[0]).toMatchObject(family.streamedAnswer.request);
      expect(textDeltas(events)).toEqual(chunks);
      expect(turnEnd(events).output).toBe('The capital of France is Paris.');
    });

    it.each(STREAMING)(family.toolLoop.title, async (_mode, stream) => {
      const { toolLoop } = family;
      wire.fake.answer({ toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['6 × 7 = 42.'] });

      const events = await wire.run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

      const [call] = ofType(events, 'tool-call');
      expect(call).toMatchObject({ tool: 'calculator', input: SIX_TIMES_SEVEN.args });
      expect(call?.callId).toEqual(toolLoop.keepsCallId ? SIX_TIMES_SEVEN.id : expect.any(String));
      expect(ofType(events, 'tool-result')[0]).toMatchObject({ output: CALCULATOR_RESULT, isError: false });
      expect(turnEnd(events).output).toBe('6 × 7 = 42.');
      const [first, second] = wire.fake.requests;
      expect(first?.body.tools).toEqual(toolLoop.declaredTools);
      expect(toolLoop.continuation(second?.body)).toEqual(toolLoop.expectedContinuation(call?.callId));
    });

    it(family.outputSchema.title, async () => {
      wire.fake.answer({ text: [JSON.stringify(VERDICT)] });

      const events = await wire.run({ input: 'Approve the offsite?', stream: false, agent: { outputSchema: VERDICT_SCHEMA } });

      expect(wire.fake.requests[0]?.body[family.outputSchema.field]).toEqual(family.outputSchema.expected);
      expect(JSON.parse(turnEnd(events).output)).toEqual(VERDICT);
    });

    const { thinking } = family;
    if (thinking) {
      it.each(STREAMING)(thinking.title, async (_mode, stream) => {
        const pieces = ['The user wants 6*7; ', 'I should use the calculator.'];
        wire.fake.answer({ thinking: pieces, toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['42.'] });

        const events = await wire.run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

        expect(thinkingText(events)).toBe(SECRET_THOUGHT);
        expect(thinkingDeltas(events)).toEqual(stream || thinking.chunkedWhenNotStreamed ? pieces : [SECRET_THOUGHT]);
        expect(ofType(events, 'message').map((event) => event.text)).toEqual(['42.']);
        const followUp = wire.fake.requests[1]?.body;
        if (thinking.keptOutOfFollowUp) expect(JSON.stringify(followUp)).not.toContain('I should use the calculator');
        thinking.followUp?.(followUp);
      });
    }

    it(family.usage.title, async () => {
      const { reportsReasoning } = family.usage;
      const usage = reportsReasoning ? { input: 120, output: 80, reasoning: 50 } : { input: 120, output: 80 };
      wire.fake.answer({ thinking: ['Easy.'], text: ['42.'], usage });

      const events = await wire.run({ input: 'What is 6*7?' });

      expect(ofType(events, 'usage')).toEqual([
        expect.objectContaining({
          provider: family.provider,
          model: family.wireModel,
          outcome: 'ok',
          inputTokens: 120,
          outputTokens: 80,
          reasoningTokens: reportsReasoning ? 50 : 0,
        }),
      ]);
    });

    it('fails the turn naming the provider and the status when rate limited (429 with Retry-After)', async () => {
      wire.fake.fail(429, family.rateLimited.message, { 'retry-after': '7' });

      const events = await wire.run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

      expect(turnEnd(events).status).toBe('failed');
      const [error] = ofType(events, 'error');
      expect(error?.code).toBe('model_error');
      expect(error?.message).toContain(family.provider);
      expect(error?.message).toContain('429');
      expect(error?.message).toContain(family.rateLimited.quoted);
      expect(ofType(events, 'usage')[0]).toMatchObject({ provider: family.provider, outcome: 'error' });
    });

    it('fails the turn naming the provider and the status on a 500', async () => {
      wire.fake.fail(500, family.serverError.message);

      const events = await wire.run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

      expect(turnEnd(events).status).toBe('failed');
      const [error] = ofType(events, 'error');
      expect(error?.message).toContain(family.provider);
      expect(error?.message).toContain('500');
      expect(error?.message).toContain(family.serverError.quoted);
    });

    it('fails the turn naming the provider when the server accepts the request and never answers', async () => {
      wire.fake.hang();

      const events = await wire.run({ input: 'Hello', turn: { retry: { maxRetries: 0, attemptTimeoutMs: 300 } } });

      expect(turnEnd(events).status).toBe('failed');
      const [error] = ofType(events, 'error');
      expect(error?.message).toContain(family.provider);
      expect(error?.message).toMatch(/timed out/);
      await wire.fake.settled();
      expect(wire.fake.requests).toHaveLength(1);
      expect(wire.fake.requests[0]?.abandoned).toBe(true);
    });
  });
}
