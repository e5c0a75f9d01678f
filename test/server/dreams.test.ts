import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentIdFor } from '../../src/a2a/createA2aApp.js';
import { defineAgent, defineSyndicate } from '../../src/config/define.js';
import { siloFor } from '../../src/core/silo.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import type { DreamSchedule } from '../../src/scheduler/dreams/index.js';
import { startServerDreams, type DreamingSyndicates } from '../../src/server/app/serverDreams.js';
import type { LoadedSyndicate } from '../../src/server/context.js';
import type { Store } from '../../src/store/store.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { scratchDir } from '../support/scratchDir.js';
import { eventually } from '../scheduler/jobsFixtures.js';
import { registry } from './turns/harness.js';

// The server's dreams: one per user silo of a syndicate that declares `dreams:`, over that user's
// server sessions only, with run records; `every` counts on the dreams' clock (a fake one here).

const HOUR = 3_600_000;
const fact = (text: string): unknown => ({ text, tag: 'FACT', date: null, source: 'user', keys: ['trip'], turn: 'whichever' });

let platform: Platform;
let store: Store;
let concierge: LoadedSyndicate;
let dreams: DreamSchedule | undefined;

beforeEach(async () => {
  const dir = scratchDir('server-dreams');
  platform = await createPlatform({ store: join(dir, 'dreams.db'), documentsDir: join(dir, 'documents'), env: {} });
  store = await platform.store();
  const root = defineAgent('Concierge', { model: 'scripted', script: [{ match: 'Conversations since', reply: 'The user is planning a trip.', repeat: true }, { reply: 'Noted.', repeat: true }] });
  const definition = defineSyndicate(root, { name: 'concierge', memorySystem: 'long-term', dreams: { every: 24 * HOUR, agent: 'Concierge' } });
  const compiled = platform.compile(definition, {
    embedder: fakeEmbedder(),
    scripts: { 'memory-extraction': [{ match: 'planning a trip', json: { facts: [fact('The user plans a trip.')] }, repeat: true }, { json: { facts: [] }, repeat: true }] },
  });
  concierge = { id: agentIdFor(compiled.name), name: compiled.name, file: 'concierge.yaml', definition, compiled, warnings: [], loadedAt: 0 };
});
afterEach(async () => {
  vi.useRealTimers();
  await dreams?.stop();
  dreams = undefined;
  await platform.close();
});

async function say(sessionId: string, input: string): Promise<void> {
  for await (const event of runTurn(concierge.compiled, { input, sessionId, store })) void event;
}

/** The harness's registry, with serve's reload notice: `reload` hands listeners a file's new version, as the watcher does. */
function reloadable(loaded: LoadedSyndicate): DreamingSyndicates & { reload(next: LoadedSyndicate): void } {
  const listeners: Array<(next: LoadedSyndicate) => void> = [];
  return { ...registry([loaded]), onLoaded: (listener) => void listeners.push(listener), reload: (next) => listeners.forEach((listener) => listener(next)) };
}

const runsOf = (user: string) => store.dreamRuns.list('concierge', siloFor('concierge', user), 10);
const finished = async (user: string, count: number) => (await runsOf(user)).filter((run) => run.status !== 'running').length === count;

describe("the server's dreams", () => {
  it("dream once per user silo, each over that user's server sessions and never over background, task or dream sessions", async () => {
    await say('api:alice:trip', 'I want to go to Porto in May.');
    await say('api:bob:chat', 'Bob asks about Oslo.');
    await say('bg:job-1:0', 'a background piece');
    await say('task:brief:1', 'a scheduled task');
    const now = new Date(Date.now() + HOUR);

    dreams = await startServerDreams({ platform, syndicates: reloadable(concierge), warn: (message) => expect.fail(message) }, { now: () => now });
    await eventually(async () => (await finished('alice', 1)) && (await finished('bob', 1)), 'both silos dream');

    const [alice] = await runsOf('alice');
    const [bob] = await runsOf('bob');
    expect(alice).toMatchObject({ status: 'answered', sessions: 1, journalPath: `journal/${now.toISOString().slice(0, 10)}.md` });
    expect(bob).toMatchObject({ status: 'answered', sessions: 1 });
    const input = JSON.stringify((await store.readEvents(alice!.sessionId)).find(({ event }) => event.type === 'turn-start')?.event);
    expect(input).toContain('Porto');
    expect(input).not.toMatch(/Oslo|background piece|scheduled task/);
  });

  it('starts dreaming when a reloaded file adds dreams:, and stops when a reload removes them, without a restart', async () => {
    await say('api:alice:trip', 'I want to go to Porto in May.');
    const awake = { ...concierge, compiled: { ...concierge.compiled, dreams: undefined } };
    const syndicates = reloadable(awake);
    dreams = await startServerDreams({ platform, syndicates, warn: (message) => expect.fail(message) }, { now: () => new Date(Date.now() + HOUR) });
    const due = { syndicate: 'concierge', user: 'alice', dueAt: 0 };
    await expect(dreams.take(due)).rejects.toThrow("this process does not serve the dreams of 'concierge'");

    syndicates.reload(concierge);
    await eventually(() => finished('alice', 1), 'the dream the reloaded file declares');
    syndicates.reload(awake);

    await expect(dreams.take(due)).rejects.toThrow("this process does not serve the dreams of 'concierge'");
    expect(await runsOf('alice')).toMatchObject([{ status: 'answered', sessions: 1 }]);
  });

  it('dreams again only once `every` has passed on its clock since the last dream', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await say('api:alice:trip', 'I want to go to Porto in May.');
    let now = new Date(Date.now() + HOUR);
    dreams = await startServerDreams({ platform, syndicates: reloadable(concierge), warn: (message) => expect.fail(message) }, { now: () => now });
    await eventually(() => finished('alice', 1), 'the first dream');

    const start = now.getTime();
    now = new Date(start + 23 * HOUR);
    await vi.advanceTimersByTimeAsync(60_000);
    now = new Date(start + 25 * HOUR);
    await vi.advanceTimersByTimeAsync(60_000);
    await eventually(() => finished('alice', 2), 'the second dream');

    // Had the check at 23 h dreamed, the second dream would have started then, and the one at 25 h not at all.
    const runs = await runsOf('alice');
    expect(runs.map((run) => run.startedAt)).toEqual([start + 25 * HOUR, start]);
    expect(runs[0]).toMatchObject({ status: 'answered', since: start, sessions: 0 });
  });
});
