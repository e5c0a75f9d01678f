import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineAgent, defineSyndicate } from '../src/config/define.js';
import { collectTurn } from '../src/runtime/collectTurn.js';
import { compileSyndicate } from '../src/runtime/compileSyndicate.js';
import { createJobRunner } from '../src/scheduler/jobs/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { report } from './stats.js';

// A background job of 100 pieces on the scripted model and a real SQLite store: the time from the
// job's creation to its report being delivered, against the same 100 piece turns run directly
// (same agent, same store, same concurrency). The difference, per piece, is what the job machinery
// costs: claims, leases, heartbeats, outcomes, the report's transaction and its rendering.

const PIECES = 100;
const ROUNDS = 3;

export async function benchBackgroundJobs(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-bench-jobs-'));
  const store = openSqliteStore(join(dir, 'jobs.db'));
  const researcher = defineAgent('Researcher', { model: 'scripted', description: 'Finds things.', script: [{ reply: 'found it', repeat: true }] });
  const syndicate = compileSyndicate(defineSyndicate(defineAgent('Chair', { model: 'scripted', subagents: [researcher] }), { name: 'Bench Jobs', memorySystem: 'session-only' }));
  const piece = syndicate.agents.get('Researcher')!;
  try {
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
        const runner = createJobRunner({ store, syndicates: () => new Map([[syndicate.name, syndicate]]), concurrency, deliverReport: async () => delivered() });
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
      report(`backgroundJob x${PIECES} c=${concurrency}`, { job_ms: jobMs / ROUNDS, turns_ms: turnsMs / ROUNDS, turn_ms_per_piece: perPieceTurn, job_ms_per_piece: perPieceJob, overhead_ms_per_piece: perPieceJob - perPieceTurn });
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
