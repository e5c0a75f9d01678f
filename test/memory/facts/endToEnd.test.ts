import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { createFactMemory } from '../../../src/memory/facts/factMemory.js';
import { formatRecalledFacts } from '../../../src/memory/facts/formatRecalledFacts.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/index.js';
import { agent, collect, compile, tempDbPath } from '../../runtime/fixtures.js';
import { fakeEmbedder } from '../fakeEmbedder.js';
import { extractor } from './helpers.js';

// Real turns on the scripted model, stored in real SQLite, distilled by a scripted extraction
// model: the whole fact pipeline, offline.

const SILO = 'assistant--local';

const PARIS = { text: 'The user lives in Paris.', tag: 'FACT', date: null, source: 'user', keys: ['home', 'city'] };
const BERLIN = { text: 'Correction: the user lives in Berlin, not Paris.', tag: 'CORRECTION', date: null, source: 'user', keys: ['home', 'city'] };

const assistant = compile(agent('Assistant'));
let path: string;
let store: SqliteStore;

beforeEach(() => {
  path = tempDbPath();
  store = openSqliteStore(path);
});

afterEach(async () => {
  await store.close();
});

async function say(input: string): Promise<string> {
  const events = await collect(assistant, { input, sessionId: 'chat-1', store });
  return events[0]!.turnId;
}

describe('long-term facts end to end', () => {
  it('recalls a correction as current and the original fact as superseded', async () => {
    const firstTurn = await say('I live in Paris.');
    const model = extractor([{ match: 'I live in Paris.', json: { facts: [{ ...PARIS, turn: firstTurn }] } }]);
    const memory = createFactMemory({ store, embedder: fakeEmbedder(), silo: SILO, model });
    expect(await memory.ingestSession('chat-1')).toMatchObject({ turns: 1, extracted: 1, stored: 1, superseded: 0, warnings: [] });

    const secondTurn = await say('Sorry, I got that wrong: I moved to Berlin, I do not live in Paris.');
    // The correction's turn id is known only once the turn has run, so its script is written now.
    const scripted = extractor([{ match: 'I moved to Berlin', json: { facts: [{ ...BERLIN, turn: secondTurn }] } }]);
    const later = createFactMemory({ store, embedder: fakeEmbedder(), silo: SILO, model: scripted });
    expect(await later.ingestSession('chat-1')).toMatchObject({ turns: 1, stored: 1, superseded: 1 });

    await say('Where do I live?');
    const recalled = await later.recall('Where do I live? Which city is home?');
    expect(recalled.map((hit) => [hit.fact.text, hit.current])).toEqual([
      [BERLIN.text, true],
      [PARIS.text, false],
    ]);
    expect(recalled[0]!.fact.provenance).toEqual({ sessionId: 'chat-1', turnId: secondTurn });
    expect(recalled[1]!.fact).toMatchObject({ status: 'superseded', supersededBy: recalled[0]!.fact.id, provenance: { sessionId: 'chat-1', turnId: firstTurn } });
    expect(formatRecalledFacts(recalled)).toContain(`- [superseded] ${PARIS.text}`);
  });

  it('after a restart, reads only the turns since the last ingestion', async () => {
    await say('I live in Paris.');
    const firstCalls: LanguageModelV3CallOptions[] = [];
    const first = recording(extractor([{ json: { facts: [] }, repeat: true }]), firstCalls);
    await createFactMemory({ store, embedder: fakeEmbedder(), silo: SILO, model: first }).ingestSession('chat-1');
    await store.close();

    store = openSqliteStore(path);
    await say('My cat is called Miso.');
    const secondCalls: LanguageModelV3CallOptions[] = [];
    const second = recording(extractor([{ json: { facts: [] }, repeat: true }]), secondCalls);
    const memory = createFactMemory({ store, embedder: fakeEmbedder(), silo: SILO, model: second });
    expect(await memory.ingestSession('chat-1')).toMatchObject({ turns: 1 });
    expect(await memory.ingestSession('chat-1')).toMatchObject({ turns: 0 });

    const transcripts = [...firstCalls, ...secondCalls].map(userText);
    expect(transcripts).toHaveLength(2);
    expect(transcripts[0]).toContain('user: I live in Paris.');
    expect(transcripts[1]).toContain('user: My cat is called Miso.');
    expect(transcripts[1]).not.toContain('Paris');
  });

  it('does not move the mark when extraction fails, so the turns are read again', async () => {
    await say('I live in Paris.');
    const broken = extractor([{ reply: 'I cannot do JSON today.' }]);
    await expect(createFactMemory({ store, embedder: fakeEmbedder(), silo: SILO, model: broken }).ingestSession('chat-1')).rejects.toThrow(/did not answer JSON/);
    expect(await store.facts.ingestedThrough(SILO, 'chat-1')).toBe(0);
    const turnId = (await store.readEvents('chat-1'))[0]!.event.turnId;
    const working = extractor([{ json: { facts: [{ ...PARIS, turn: turnId }] } }]);
    expect(await createFactMemory({ store, embedder: fakeEmbedder(), silo: SILO, model: working }).ingestSession('chat-1')).toMatchObject({ stored: 1 });
  });
});

describe('long sessions', () => {
  it('are distilled in several extraction calls, each moving the mark, so a failure keeps the work before it', async () => {
    // Each turn's transcript (input and the scripted echo of it) exceeds one call's budget.
    for (const word of ['alpha', 'beta', 'gamma']) await say(`${word} ${'x'.repeat(13_000)}`);
    const calls: LanguageModelV3CallOptions[] = [];
    const model = recording(extractor([{ json: { facts: [] } }, { reply: 'not JSON' }]), calls);
    const memory = createFactMemory({ store, embedder: fakeEmbedder(), silo: SILO, model });
    await expect(memory.ingestSession('chat-1')).rejects.toThrow(/did not answer JSON/);
    expect(calls.map(userText).map((text) => text.match(/user: (\w+)/)?.[1])).toEqual(['alpha', 'beta']);
    const events = await store.readEvents('chat-1');
    const firstTurnEnd = events.find((stored) => stored.event.type === 'turn-end')!.seq;
    expect(await store.facts.ingestedThrough(SILO, 'chat-1')).toBe(firstTurnEnd);
  });
});

function recording(model: ReturnType<typeof extractor>, calls: LanguageModelV3CallOptions[]): ReturnType<typeof extractor> {
  return {
    ...model,
    doGenerate: (options) => {
      calls.push(options);
      return model.doGenerate(options);
    },
  };
}

function userText(options: LanguageModelV3CallOptions): string {
  const user = options.prompt.find((message) => message.role === 'user');
  return user?.role === 'user' ? user.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
}
