import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineAgent, defineSyndicate } from '../../src/config/define.js';
import { LOCAL_USER, siloFor } from '../../src/core/silo.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import type { CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import { runDream, startDreams } from '../../src/scheduler/dreams/index.js';
import { DREAM_INTERRUPTED_ERROR } from '../../src/store/backgroundJobs.js';
import type { Store } from '../../src/store/store.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { scratchDir } from '../support/scratchDir.js';
import { eventually } from './jobsFixtures.js';

// A dream on a real SQLite store through the platform's memory, on the scripted model: it reads the
// user's sessions since the last dream, writes a dated journal and facts, and skips unattended sessions.

const fact = (text: string): unknown => ({ text, tag: 'FACT', date: null, source: 'user', keys: ['trip'], turn: 'whichever' });
const DAY = new Date('2026-12-02T03:00:00Z');

describe('dreams', () => {
  let platform: Platform;
  let store: Store;
  let syndicate: CompiledSyndicate;

  beforeEach(async () => {
    const dir = scratchDir('dreams');
    platform = await createPlatform({ store: join(dir, 'dreams.db'), documentsDir: join(dir, 'documents'), env: {} });
    store = await platform.store();
    const root = defineAgent('Concierge', {
      model: 'scripted',
      script: [
        { match: 'Conversations since', reply: 'The user is planning a trip to Porto in May.' },
        { reply: 'Noted.', repeat: true },
      ],
    });
    syndicate = platform.compile(defineSyndicate(root, { name: 'concierge', memorySystem: 'long-term', dreams: { every: 86_400_000, agent: 'Concierge' } }), {
      embedder: fakeEmbedder(),
      scripts: { 'memory-extraction': [{ match: 'planning a trip to Porto', json: { facts: [fact('The user plans a trip to Porto in May.')] } }] },
    });
  });
  afterEach(async () => platform.close());

  async function say(sessionId: string, input: string): Promise<void> {
    for await (const event of runTurn(syndicate, { input, sessionId, store })) void event;
  }

  it('writes a dated journal document and facts into the silo, from the user’s sessions', async () => {
    await say('trip-1', 'I want to go to Porto in May.');
    const memory = (await platform.memory(syndicate))!;

    const run = await runDream({ store, syndicate, memory, user: LOCAL_USER, now: () => DAY });

    expect(run).toMatchObject({ status: 'answered', silo: siloFor('concierge'), journalPath: 'journal/2026-12-02.md', sessions: 1, facts: 1, error: null });
    const journal = await memory.documents.read(siloFor('concierge'), 'journal', '2026-12-02.md');
    expect(journal.content).toContain('# Dream of 2026-12-02');
    expect(journal.content).toContain('The user is planning a trip to Porto in May.');
    const recalled = await memory.facts.recall('Porto trip');
    expect(recalled.map((found) => found.fact.text)).toContain('The user plans a trip to Porto in May.');
    expect(await store.dreamRuns.list('concierge', siloFor('concierge'), 5)).toEqual([run]);
  });

  it('dreams with the memory tools and the tools dreams: lists only: not ask_user, nor the agent’s other tools, nor its subagents', async () => {
    const root = defineAgent('Concierge', {
      model: 'scripted',
      tools: ['calculator', 'current_time', 'ask_user'],
      subagents: [defineAgent('Helper', { model: 'scripted', description: 'Helps.' })],
      script: [
        {
          match: 'Conversations since',
          tool_calls: [
            { tool: 'ask_user', args: { question: 'Anyone there?' } },
            { tool: 'current_time', args: {} },
            { tool: 'Helper', args: { request: 'help me dream' } },
            { tool: 'calculator', args: { expression: '2 + 2' } },
            { tool: 'memory_search', args: { query: 'Porto' } },
          ],
        },
        { reply: 'The user is planning a trip to Porto in May.' },
      ],
    });
    const dreamer = platform.compile(defineSyndicate(root, { name: 'concierge', memorySystem: 'long-term', dreams: { every: 86_400_000, agent: 'Concierge', tools: ['calculator'] } }), {
      embedder: fakeEmbedder(),
      scripts: { 'memory-extraction': [{ json: { facts: [] }, repeat: true }] },
    });
    for await (const event of runTurn(dreamer, { input: 'I want to go to Porto in May.', sessionId: 'trip-1', store })) void event;

    const run = await runDream({ store, syndicate: dreamer, memory: (await platform.memory(dreamer))!, user: LOCAL_USER, now: () => DAY });

    const results = (await store.readEvents(run.sessionId)).flatMap(({ event }) => (event.type === 'tool-result' ? [[event.tool, event.isError]] : []));
    expect(Object.fromEntries(results)).toEqual({ ask_user: true, current_time: true, Helper: true, calculator: false, memory_search: false });
    expect(run).toMatchObject({ status: 'answered', journalPath: 'journal/2026-12-02.md' });
  });

  it('never reflects on background, task or dream sessions, nor on another user’s', async () => {
    await say('trip-1', 'I want to go to Porto in May.');
    await say('bg:job-1:0', 'a background piece');
    await say('task:brief:1', 'a scheduled task');
    await say('api:bob:chat-1', 'bob’s conversation');
    const memory = (await platform.memory(syndicate))!;

    // Sessions are stamped with the real clock, so the dreams' clock follows it here.
    const dreamedAt = new Date();
    const first = await runDream({ store, syndicate, memory, user: LOCAL_USER, now: () => dreamedAt });
    const dreamInput = (await store.readEvents(first.sessionId)).find(({ event }) => event.type === 'turn-start')?.event;

    expect(first.sessions).toBe(1);
    expect(dreamInput).toMatchObject({ input: expect.stringContaining('Session trip-1') });
    expect(JSON.stringify(dreamInput)).not.toMatch(/background piece|scheduled task|bob’s conversation/);
    // The dream's own session is not reflected on by the next dream either.
    const second = await runDream({ store, syndicate, memory, user: LOCAL_USER, now: () => new Date(dreamedAt.getTime() + 86_400_000) });
    expect(second).toMatchObject({ status: 'answered', sessions: 0, journalPath: null, since: dreamedAt.getTime() });
  });

  it('dreams on a cron pattern in one process, without a shared queue', async () => {
    await say('trip-1', 'I want to go to Porto in May.');
    const root = defineAgent('Concierge', { model: 'scripted', script: [{ match: 'Conversations since', reply: 'The user is planning a trip to Porto in May.', repeat: true }] });
    const dreamer = platform.compile(defineSyndicate(root, { name: 'concierge', memorySystem: 'long-term', dreams: { cron: '* * * * * *', agent: 'Concierge' } }), {
      embedder: fakeEmbedder(),
      scripts: { 'memory-extraction': [{ json: { facts: [] }, repeat: true }] },
    });
    const silo = siloFor('concierge', LOCAL_USER);

    const schedule = startDreams({ store, syndicates: [dreamer], users: async () => [LOCAL_USER], memory: async () => platform.memory(dreamer), now: () => DAY });
    try {
      await eventually(async () => (await store.dreamRuns.list('concierge', silo, 10)).some((run) => run.status !== 'running'), 'the cron dream');
    } finally {
      await schedule.stop();
    }

    const first = (await store.dreamRuns.list('concierge', silo, 100)).at(-1);
    expect(first).toMatchObject({ status: 'answered', sessions: 1, journalPath: 'journal/2026-12-02.md' });
  });

  it('records a dream its process died running interrupted when dreams next start, and dreams over its sessions again', async () => {
    const silo = siloFor('concierge', LOCAL_USER);
    const dead = { id: 'dead-dream', syndicate: 'concierge', silo, sessionId: `dream:${silo}:dead-dream`, since: 0, startedAt: DAY.getTime() - 86_400_000 };
    await store.dreamRuns.start({ ...dead, runner: 'a-process-that-died', leaseExpiresAt: dead.startedAt + 30_000 });

    const schedule = startDreams({ store, syndicates: [syndicate], users: async () => [LOCAL_USER], memory: async () => platform.memory(syndicate), now: () => DAY });
    try {
      await eventually(async () => (await store.dreamRuns.list('concierge', silo, 10)).some((run) => run.id !== dead.id && run.status !== 'running'), 'the next dream');
    } finally {
      await schedule.stop();
    }

    const [next, interrupted] = await store.dreamRuns.list('concierge', silo, 10);
    expect(interrupted).toMatchObject({ id: dead.id, status: 'interrupted', error: DREAM_INTERRUPTED_ERROR });
    expect(next).toMatchObject({ status: 'answered', since: 0 });
  });
});
