import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent, defineSyndicate } from '../../src/config/define.js';
import { siloFor } from '../../src/core/silo.js';
import { compileSyndicate } from '../../src/runtime/compileSyndicate.js';
import { DREAMS_QUEUE } from '../../src/scheduler/pgBoss/dreams.js';
import { PGBOSS_SCHEMA } from '../../src/scheduler/pgBoss/workQueue.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import { openStore } from '../../src/store/openStore.js';
import type { DreamRunRecord } from '../../src/store/backgroundJobs.js';
import type { Store } from '../../src/store/store.js';
import { useServedFiles } from '../cli/serveFile.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';

// Two `syndicate serve` processes (the built CLI: npm run build first) on one PostgreSQL store,
// serving a file whose syndicate dreams on an hourly cron (dreams are at least an hour apart) set
// to fire half a minute after the test starts them: at that firing both processes find alice's silo
// due at the same instant, the shared queue keeps one job of it, and the silo dreams once. Every
// wait is on a condition the store shows, with room for a slow, loaded machine; the next firing is
// an hour later, so any second dream is one of the same firing.

const cluster = POSTGRES_TESTS ? usePostgresCluster() : undefined;
let reader: Store | undefined;

afterEach(async () => {
  await reader?.close();
  reader = undefined;
});

/** From starting the processes to the firing: time for both to be listening. */
const LEAD_MS = 30_000;

/** A cron that fires hourly, next at `at`, on its minute and second. */
function hourlyAt(at: Date): string {
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} * * * *`;
}

/** The served file, dreaming on `cron`. */
function syndicate(cron: string): string {
  return [
    'syndicate_name: concierge',
    'memory_system: long-term',
    'orchestrator:',
    '  name: Concierge',
    '  model: scripted',
    '  instruction: Answer.',
    '  script:',
    '    - match: Conversations since',
    '      reply: The user is planning a trip.',
    '      repeat: true',
    'dreams:',
    `  cron: "${cron}"`,
    '  timezone: UTC',
    '  agent: Concierge',
    '',
  ].join('\n');
}

const serve = useServedFiles('concierge.yaml');

/** A conversation of alice's with the syndicate, written before any server starts. */
async function aliceTalked(store: Store): Promise<void> {
  const compiled = compileSyndicate(defineSyndicate(defineAgent('Concierge', { model: 'scripted' }), { name: 'concierge', file: 'concierge.yaml' }));
  for await (const event of runTurn(compiled, { input: 'I want to go to Porto in May.', sessionId: 'api:alice:trip', store })) void event;
}

async function until(what: string, check: () => Promise<boolean>, withinMs = 120_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(POSTGRES_TESTS)('dreams in two syndicate serve processes on one PostgreSQL store', () => {
  it('dream a silo once per firing when both find its dream due at the same time', async () => {
    const db = await cluster!().createDatabase();
    reader = await openStore(db);
    const store = reader;
    await aliceTalked(store);
    const runs = (): Promise<DreamRunRecord[]> => store.dreamRuns.list('concierge', siloFor('concierge', 'alice'), 10);

    const file = syndicate(hourlyAt(new Date(Date.now() + LEAD_MS)));
    const [a, b] = await Promise.all([serve(db, file), serve(db, file)]);
    await until('the silo dreams', async () => (await runs()).some((run) => run.status !== 'running'));
    // A process stops once the jobs it took have ended: a second dream would be recorded by then.
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    const results = await Promise.all([a.result, b.result]);

    expect(results.map((result) => result.code), results.map((result) => result.stderr).join('\n')).toEqual([0, 0]);
    expect(await runs()).toMatchObject([{ status: 'answered', sessions: 1 }]);
    // Both processes sent the firing's dream; the queue holds one job of it.
    expect(await jobsPerFiring(db)).toEqual([1]);
  }, 300_000);
});

/** How many dream jobs the shared queue holds for each due time. */
async function jobsPerFiring(db: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${PGBOSS_SCHEMA}.job WHERE name = $1 GROUP BY data->>'dueAt'`, [DREAMS_QUEUE]);
    return rows.map((row) => row.n);
  } finally {
    await client.end();
  }
}
