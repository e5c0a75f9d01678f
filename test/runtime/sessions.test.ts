import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/core/tool.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import type { TurnEvent } from '../../src/core/events.js';
import { agent, collect, compile, ofType, recordCalls, tempDbPath, turnEnd, type ModelCall } from './fixtures.js';

const council = agent('Moderator', { subagents: [agent('Advocate')] });

describe('sessions', () => {
  it('stores every event of a turn except live deltas', async () => {
    const store = openSqliteStore(tempDbPath());

    const events = await collect(compile(council), { input: 'Hire a designer?', sessionId: 's1', store });

    const stored = (await store.readEvents('s1')).map((e) => e.event);
    expect(stored).toEqual(events.filter((e) => e.type !== 'text-delta' && e.type !== 'thinking-delta'));
    expect(stored.map((e) => e.type)).toContain('delegation-end');
    await store.close();
  });

  it('tells committed of every stored event once, with the seq the store gave it', async () => {
    const store = openSqliteStore(tempDbPath());
    const told: Array<{ seq: number; event: TurnEvent }> = [];
    const committed = (batch: readonly TurnEvent[], lastSeq: number): void => {
      batch.forEach((event, i) => told.push({ seq: lastSeq - batch.length + 1 + i, event }));
    };

    await collect(compile(council), { input: 'Hire a designer?', sessionId: 's1', store });
    await collect(compile(council), { input: 'And a writer?', sessionId: 's1', store, committed });

    const stored = (await store.readEvents('s1')).filter((row) => row.event.turnId === told[0]?.event.turnId);
    expect(told).toEqual(stored.map(({ seq, event }) => ({ seq, event })));
    expect(told[0]!.seq).toBeGreaterThan(1);
    await store.close();
  });

  it('stores nothing for memory_system internal-only', async () => {
    const store = openSqliteStore(tempDbPath());

    await collect(compile(council, {}, { memorySystem: 'internal-only' }), { input: 'Hire a designer?', sessionId: 's1', store });

    expect(await store.getSession('s1')).toBeUndefined();
    await store.close();
  });

  it('lets a resumed session see earlier turns after the store is reopened', async () => {
    const path = tempDbPath();
    const first = openSqliteStore(path);
    await collect(compile(council), { input: 'Hire a designer?', sessionId: 's1', store: first });
    await first.close();

    const calls: ModelCall[] = [];
    const second = openSqliteStore(path);
    await collect(compile(council, { resolveModel: recordCalls(calls) }), { input: 'And a second one?', sessionId: 's1', store: second });

    const moderatorPrompt = JSON.stringify(calls.find((c) => c.agent === 'Moderator')?.options.prompt);
    expect(moderatorPrompt).toContain('Hire a designer?');
    expect(moderatorPrompt).toContain('[Advocate]:');
    await second.close();
  });

  it('surfaces thinking as events and does not feed unsigned thinking back to the model', async () => {
    const calls: ModelCall[] = [];
    const root = agent('Thinker', {
      tools: ['calculator'],
      script: [{ thinking: 'secret reasoning', tool_calls: [{ tool: 'calculator', args: { expression: '2+2' } }] }, { reply: 'four' }],
    });

    const events = await collect(compile(root, { resolveModel: recordCalls(calls) }), { input: 'two plus two' });

    expect(ofType(events, 'thinking')[0]?.text).toBe('secret reasoning');
    expect(ofType(events, 'thinking-delta').map((e) => e.delta).join('')).toBe('secret reasoning');
    expect(JSON.stringify(calls[1]?.options.prompt)).not.toContain('secret reasoning');
  });

  it('keeps the events so far and marks the turn cancelled when aborted mid-tool', async () => {
    const store = openSqliteStore(tempDbPath());
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      inputSchema: z.object({}),
      execute: (_input, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
    });
    const root = agent('Waiter', { tools: ['wait'], script: [{ tool_calls: [{ tool: 'wait', args: {} }] }] });
    const compiled = compile(root, { tools: createToolRegistry([...builtinTools.values(), wait]) });
    const controller = new AbortController();

    const events: TurnEvent[] = [];
    for await (const event of runTurn(compiled, { input: 'wait', sessionId: 's1', store, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool-call') controller.abort();
    }

    expect(turnEnd(events)).toMatchObject({ status: 'cancelled' });
    const stored = (await store.readEvents('s1')).map((e) => e.event.type);
    expect(stored).toEqual(['turn-start', 'usage', 'tool-call', 'error', 'turn-end']);
    await store.close();
  });

  it('ends the stream with one turn-end even when the store fails', async () => {
    const store = openSqliteStore(tempDbPath());
    await store.openSession('s1', 'Test');
    const broken = { ...store, openSession: store.openSession.bind(store), getSession: store.getSession.bind(store), readEvents: store.readEvents.bind(store), appendEvents: () => Promise.reject(new Error('disk full')) } as typeof store;

    const events = await collect(compile(council), { input: 'x', sessionId: 's1', store: broken });

    expect(turnEnd(events)).toMatchObject({ status: 'failed' });
    expect(ofType(events, 'turn-end')).toHaveLength(1);
    expect(ofType(events, 'error').map((e) => e.message).join()).toContain('disk full');
    await store.close();
  });
});

describe('a session deleted and recreated under the same id', () => {
  it('starts with no history, even in the process that cached the old one', async () => {
    const store = openSqliteStore(tempDbPath());
    const calls: ModelCall[] = [];
    const compiled = compile(council, { resolveModel: recordCalls(calls) });
    await collect(compiled, { input: 'Old question?', sessionId: 's1', store });
    await collect(compiled, { input: 'Old follow-up?', sessionId: 's1', store });
    await store.deleteSession('s1');

    await collect(compiled, { input: 'New question?', sessionId: 's1', store });

    const lastModeratorCall = calls.filter((c) => c.agent === 'Moderator').at(-1);
    expect(JSON.stringify(lastModeratorCall?.options.prompt)).not.toContain('Old');
    await store.close();
  });
});

describe('session history within a turn', () => {
  it('shows a later subagent only earlier turns, never the current one', async () => {
    const store = openSqliteStore(tempDbPath());
    const calls: ModelCall[] = [];
    const compiled = compile(agent('Moderator', { subagents: [agent('Advocate'), agent('Skeptic')] }), { resolveModel: recordCalls(calls) });
    await collect(compiled, { input: 'First question?', sessionId: 's1', store });

    await collect(compiled, { input: 'Second question?', sessionId: 's1', store });

    const skepticPrompt = JSON.stringify(calls.filter((c) => c.agent === 'Skeptic').at(-1)?.options.prompt);
    expect(skepticPrompt).toContain('First question?');
    expect(skepticPrompt.match(/Second question\?/g)).toHaveLength(1);
    await store.close();
  });

  it('does not read back from the store what this process just wrote', async () => {
    const store = openSqliteStore(tempDbPath());
    const compiled = compile(council);
    await collect(compiled, { input: 'First question?', sessionId: 's1', store });
    let reads = 0;
    const readEvents = store.readEvents.bind(store);
    store.readEvents = (...args) => (reads++, readEvents(...args));

    await collect(compiled, { input: 'Second question?', sessionId: 's1', store });

    expect(reads).toBe(0);
    await store.close();
  });

  it('does not read the session before a turn when this process has it cached', async () => {
    const store = openSqliteStore(tempDbPath());
    const compiled = compile(council);
    await collect(compiled, { input: 'First question?', sessionId: 's1', store });
    let opened = 0;
    const openSession = store.openSession.bind(store);
    store.openSession = (...args) => (opened++, openSession(...args));

    await collect(compiled, { input: 'Second question?', sessionId: 's1', store });

    expect(opened).toBe(0);
    expect((await store.readEvents('s1')).filter(({ event }) => event.type === 'turn-start')).toHaveLength(2);
    await store.close();
  });

  it('shows the turns another writer added to the session since this process last cached it', async () => {
    const store = openSqliteStore(tempDbPath());
    const calls: ModelCall[] = [];
    const compiled = compile(council, { resolveModel: recordCalls(calls) });
    await collect(compiled, { input: 'First question?', sessionId: 's1', store });
    const elsewhere = { turnId: 'elsewhere', agent: 'Moderator', depth: 0, at: Date.now() };
    await store.appendEvents('s1', [
      { ...elsewhere, type: 'turn-start', syndicate: 'Test', input: 'Question asked elsewhere?' },
      { ...elsewhere, type: 'turn-end', status: 'completed', output: 'Answered elsewhere.' },
    ]);

    await collect(compiled, { input: 'Third question?', sessionId: 's1', store });

    const prompt = JSON.stringify(calls.filter((c) => c.agent === 'Moderator').at(-1)?.options.prompt);
    expect(prompt).toContain('First question?');
    expect(prompt).toContain('Question asked elsewhere?');
    // Asked once, as this turn's message: the turn is not in its own history.
    expect(prompt.match(/"text":"Third question\?"/g)).toHaveLength(1);
    await store.close();
  });
});
