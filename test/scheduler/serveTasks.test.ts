import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { jobIdFor, PGBOSS_SCHEMA } from '../../src/scheduler/pgBoss/workQueue.js';
import { firingKey, TASK_FIRINGS_QUEUE } from '../../src/scheduler/pgBoss/taskFirings.js';
import { openStore } from '../../src/store/openStore.js';
import type { TaskRun } from '../../src/store/schedules.js';
import type { Store } from '../../src/store/store.js';
import { useServedFiles } from '../cli/serveFile.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { scratchDir } from '../support/scratchDir.js';

// `syndicate serve` processes (the built CLI: npm run build first) running a syndicate file's task
// that fires every second. With two processes on one PostgreSQL store, each firing runs once: the
// runs equal the firings, and each run's session holds exactly one turn; each run came through
// the shared queue (pg-boss), as one completed job per firing.

const cluster = POSTGRES_TESTS ? usePostgresCluster() : undefined;
let reader: Store | undefined;

afterEach(async () => {
  await reader?.close();
  reader = undefined;
});

const SYNDICATE = [
  'syndicate_name: pulse',
  'orchestrator:',
  '  name: Pulse',
  '  model: scripted',
  '  instruction: Answer.',
  'schedules:',
  '  - name: every-second',
  '    cron: "* * * * * *"',
  '    message: Tick.',
  '',
].join('\n');

const serve = useServedFiles('pulse.yaml', SYNDICATE);

/** Polls the store (another process writes it) until `enough` runs have ended. */
async function endedRuns(store: Store, enough: number): Promise<TaskRun[]> {
  for (let i = 0; i < 300; i++) {
    const runs = await store.schedules.runs({ syndicate: 'pulse', limit: 1_000 });
    if (runs.filter((run) => run.status !== 'running').length >= enough) return runs;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${enough} runs ended in time`);
}

async function expectOneRunPerFiring(store: Store): Promise<void> {
  const runs = (await store.schedules.runs({ syndicate: 'pulse', limit: 1_000 })).sort((a, b) => a.scheduledFor - b.scheduledFor);
  const first = runs[0]!.scheduledFor;
  const last = runs[runs.length - 1]!.scheduledFor;
  // Every second from the first firing to the last has exactly one run record.
  expect(runs.map((run) => run.scheduledFor)).toEqual(Array.from({ length: (last - first) / 1_000 + 1 }, (_, i) => first + i * 1_000));
  for (const run of runs.filter((r) => r.sessionId !== null)) {
    const turns = (await store.readEvents(run.sessionId!)).filter(({ event }) => event.type === 'turn-start');
    expect(turns, `turns in ${run.sessionId}`).toHaveLength(1);
  }
  expect(runs.filter((run) => run.status === 'answered').length).toBeGreaterThan(0);
}

describe('scheduled tasks in syndicate serve', () => {
  it('runs a file’s task every second in one process on SQLite, says so at start, and stops cleanly', async () => {
    const db = join(scratchDir('serve-tasks-db'), 'tasks.db');
    const cli = await serve(db);
    reader = await openStore(db);

    await endedRuns(reader, 3);
    cli.child.kill('SIGTERM');
    const { code, stdout } = await cli.result;
    expect(code).toBe(0);
    expect(stdout).toMatch(/Work: +1 scheduled task\. Follow them at http:\/\/\S+\/#\/work or with syndicate tasks runs/);

    await expectOneRunPerFiring(reader);
  });

  it.runIf(POSTGRES_TESTS)('runs each firing once across two processes on one PostgreSQL store', async () => {
    const db = await cluster!().createDatabase();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    reader = await openStore(db);

    await endedRuns(reader, 5);
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect([(await a.result).code, (await b.result).code]).toEqual([0, 0]);

    await expectOneRunPerFiring(reader);
    await expectOneCompletedJobPerRun(db, reader);
  });
});

async function expectOneCompletedJobPerRun(db: string, store: Store): Promise<void> {
  const runs = (await store.schedules.runs({ syndicate: 'pulse', limit: 1_000 })).filter((run) => run.startedAt !== null);
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; state: string }>(`SELECT id, state FROM ${PGBOSS_SCHEMA}.job WHERE name = $1`, [TASK_FIRINGS_QUEUE]);
    const states = new Map(rows.map((row) => [row.id, row.state]));
    for (const run of runs) expect(states.get(jobIdFor(firingKey(run))), `the job of ${run.id}`).toBe('completed');
  } finally {
    await client.end();
  }
}
