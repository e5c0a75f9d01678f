import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineAgent, defineSyndicate } from '../src/config/define.js';
import { collectTurn } from '../src/runtime/collectTurn.js';
import { compileSyndicate } from '../src/runtime/compileSyndicate.js';
import { createJobRunner } from '../src/scheduler/jobs/index.js';
import { startWorkQueue, type WorkQueue } from '../src/scheduler/pgBoss/workQueue.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { missingPostgresTools, startPostgresCluster } from '../test/store/postgresServer.js';
import { report } from './stats.js';

// A background job of 100 pieces on the scripted model: the time from the job's creation to its
// report being delivered, against the same 100 piece turns run directly (same agent, same store,
// same concurrency). The difference, per piece, is what the job machinery costs: claims, leases,
// heartbeats, outcomes, the report's transaction and its rendering; on PostgreSQL also each
// piece's pg-boss job (its send, fetch and completion), as one serve process runs them.

const PIECES = 100;
const ROUNDS = 3;

export async function benchBackgroundJobs(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-bench-jobs-'));
  try {
    const sqlite = openSqliteStore(join(dir, 'jobs.db'));
    try {
      await measure('sqlite', sqlite, undefined);
    } finally {
      await sqlite.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const missing = missingPostgresTools();
  if (missing !== undefined) {
    console.log(`backgroundJob postgres: skipped (${missing})`);
    return;
  }
  const cluster = await startPostgresCluster();
  try {
    const url = await cluster.createDatabase();
    const store = await openPostgresStore(url);
    const queue = await startWorkQueue(url, (message) => console.error(message));
    try {
      await measure('postgres pg-boss', store, queue);
    } finally {
      await queue.stop();
      await store.close();
    }
  } finally {
    await cluster.stop();
  }
}

/** `workQueue`: the pieces go through it (PostgreSQL), taken by the runner's consumer. */
async function measure(label: string, store: Store, workQueue: WorkQueue | undefined): Promise<void> {
  const researcher = defineAgent('Researcher', { model: 'scripted', description: 'Finds things.', script: [{ reply: 'found it', repeat: true }] });
  const syndicate = compileSyndicate(defineSyndicate(defineAgent('Chair', { model: 'scripted', subagents: [researcher] }), { name: 'Bench Jobs', memorySystem: 'session-only' }));
  const piece = syndicate.agents.get('Researcher')!;
  for (const concurrency of [1, 4]) {
    let turnsMs = 0;
    let jobMs = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // The piece turns alone, `concurrency` at a time, each in a session of its own.
      const direct = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < PIECES) {
            const i = next++;
            await collectTurn({ ...syndicate, root: piece }, { stream: false, input: `question ${i}`, sessionId: `direct:${concurrency}:${round}:${i}`, store });
          }
        }),
      );
      turnsMs += performance.now() - direct;

      let delivered!: () => void;
      const reported = new Promise<void>((resolve) => (delivered = resolve));
      const runner = createJobRunner({ store, workQueue, syndicates: () => new Map([[syndicate.name, syndicate]]), concurrency, deliverReport: async () => delivered() });
      // Takes pieces from the shared queue; without one, the jobs this runner starts run without it.
      if (workQueue) runner.start();
      const sessionId = `origin:${concurrency}:${round}`;
      const tools = runner.tools({ syndicate, sessionId, agent: syndicate.root });
      const tasks = Array.from({ length: PIECES }, (_, i) => ({ agent: 'Researcher', request: `question ${i}` }));
      const started = performance.now();
      await tools.get('parallel_subtasks')!.execute({ tasks }, { agent: 'Chair', turnId: 'bench', sessionId, signal: new AbortController().signal });
      await reported;
      jobMs += performance.now() - started;
      await runner.close();
    }
    const perPieceTurn = turnsMs / ROUNDS / PIECES;
    const perPieceJob = jobMs / ROUNDS / PIECES;
    report(`backgroundJob ${label} x${PIECES} c=${concurrency}`, { job_ms: jobMs / ROUNDS, turns_ms: turnsMs / ROUNDS, turn_ms_per_piece: perPieceTurn, job_ms_per_piece: perPieceJob, overhead_ms_per_piece: perPieceJob - perPieceTurn });
  }
}
