import { afterEach, describe, expect, it } from 'vitest';
import { agentIdFor } from '../../src/a2a/createA2aApp.js';
import { defineAgent, defineSyndicate } from '../../src/config/define.js';
import { siloFor } from '../../src/core/silo.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import type { DreamSchedule } from '../../src/scheduler/dreams/index.js';
import { startServerDreams } from '../../src/server/app/serverDreams.js';
import type { LoadedSyndicate } from '../../src/server/context.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { eventually } from '../scheduler/jobsFixtures.js';
import { POSTGRES_TESTS, usePostgresDatabase } from '../store/postgresCluster.js';
import { registry } from './turns/harness.js';

// Two servers' dreams on one PostgreSQL store, each with a platform of its own (its own pool and
// its own pg-boss): both see the silo's first dream due at once, and the shared queue keeps one
// job of it, so the silo dreams once.

const HOUR = 3_600_000;
const database = POSTGRES_TESTS ? usePostgresDatabase() : undefined;
const platforms: Platform[] = [];
const schedules: DreamSchedule[] = [];

afterEach(async () => {
  await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()));
  await Promise.all(platforms.splice(0).map((platform) => platform.close()));
});

async function server(): Promise<{ platform: Platform; concierge: LoadedSyndicate }> {
  const platform = await createPlatform({ store: database!(), env: {} });
  platforms.push(platform);
  const root = defineAgent('Concierge', { model: 'scripted', script: [{ match: 'Conversations since', reply: 'The user is planning a trip.', repeat: true }, { reply: 'Noted.', repeat: true }] });
  const definition = defineSyndicate(root, { name: 'concierge', memorySystem: 'long-term', dreams: { every: 24 * HOUR, agent: 'Concierge' } });
  const compiled = platform.compile(definition, { embedder: fakeEmbedder(), scripts: { 'memory-extraction': [{ json: { facts: [] }, repeat: true }] } });
  return { platform, concierge: { id: agentIdFor(compiled.name), name: compiled.name, file: 'concierge.yaml', definition, compiled, warnings: [], loadedAt: 0 } };
}

describe.runIf(POSTGRES_TESTS)("two servers' dreams on one PostgreSQL store", () => {
  it('dream a silo once when both find its dream due at the same time', async () => {
    const [a, b] = await Promise.all([server(), server()]);
    const store = await a.platform.store();
    for await (const event of runTurn(a.concierge.compiled, { input: 'I want to go to Porto in May.', sessionId: 'api:alice:trip', store })) void event;
    const runs = () => store.dreamRuns.list('concierge', siloFor('concierge', 'alice'), 10);

    schedules.push(...(await Promise.all([a, b].map(({ platform, concierge }) => startServerDreams({ platform, syndicates: registry([concierge]), warn: (message) => expect.fail(message) })))));
    await eventually(async () => (await runs()).some((run) => run.status !== 'running'), 'the silo dreams');
    // Both consumers stop once the jobs they took have ended: a second dream would be recorded by then.
    await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()));

    expect(await runs()).toEqual([expect.objectContaining({ status: 'answered', sessions: 1 })]);
  });
});
