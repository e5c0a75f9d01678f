import { randomUUID } from 'node:crypto';
import { coalesce } from '../../core/coalesce.js';
import { INTERRUPTED_DETAIL, type ClaimFiring, type ClaimResult } from '../schedules.js';
import type { Db, PreparedSql } from './connection.js';

// Deciding a task's firing on PostgreSQL: one round trip (decide_task_firing, schedulesSchema.ts)
// instead of a transaction of eight. Claims made together (the firings a process took from the
// shared queue in one fetch) go in one round trip (decide_task_firings), which decides each in turn
// exactly as alone; 1,000 firings due at once were otherwise 1,000 of the ~2,600 statements their
// dispatch took across two processes (dispatch bench, pg_stat_statements). A batch locks its tasks
// in one order, so batches never wait on each other in a cycle; a deadlock with another kind of
// statement (one marking several expired runs interrupted while the batch marks two of them) rolls
// the batch back, and its firings are then decided one at a time.

export const OVERLAP_DETAIL = 'the previous run was still going';

const DEADLOCK = '40P01';

const DECIDE_FIRING: PreparedSql = {
  name: 'syndicate_decide_task_firing',
  text: 'SELECT decision AS outcome, task_syndicate AS syndicate FROM decide_task_firing($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
};

const DECIDE_FIRINGS: PreparedSql = {
  name: 'syndicate_decide_task_firings',
  text: 'SELECT n::int AS n, decision AS outcome, task_syndicate AS syndicate FROM decide_task_firings($1, $2, $3, $4, $5, $6, $7, $8, $9)',
};

interface Decided {
  outcome: ClaimResult['outcome'];
  syndicate: string;
}

/** A claim, with the id its record gets. */
interface Claim extends ClaimFiring {
  id: string;
}

export interface FiringDecisions {
  claim(firing: ClaimFiring): Promise<ClaimResult>;
  skip(taskId: string, scheduledFor: number, detail: string): Promise<ClaimResult>;
}

function claimResult(claim: Claim, { outcome, syndicate }: Decided): ClaimResult {
  if (outcome === 'inactive' || outcome === 'taken') return { outcome };
  const base = { id: claim.id, taskId: claim.taskId, syndicate, scheduledFor: claim.scheduledFor, endedAt: null, answer: null };
  return outcome === 'claimed'
    ? { outcome, run: { ...base, status: 'running', startedAt: claim.now, sessionId: claim.sessionId, detail: null, runner: claim.runner, leaseExpiresAt: claim.now + claim.leaseMs } }
    : { outcome, run: { ...base, status: 'skipped', startedAt: null, sessionId: null, detail: OVERLAP_DETAIL, runner: null, leaseExpiresAt: null } };
}

export function createFiringDecisions(db: Db): FiringDecisions {
  const claimOne = async (claim: Claim): Promise<ClaimResult> => {
    const { rows } = await db.write<Decided>(DECIDE_FIRING, [
      claim.taskId, claim.scheduledFor, claim.id, claim.now, claim.sessionId, claim.runner, claim.now + claim.leaseMs, null, OVERLAP_DETAIL, INTERRUPTED_DETAIL,
    ]);
    return claimResult(claim, rows[0]!);
  };

  const claimTogether = coalesce<Claim, ClaimResult>(async (claims) => {
    if (claims.length === 1) return [await claimOne(claims[0]!)];
    try {
      const { rows } = await db.write<Decided & { n: number }>(DECIDE_FIRINGS, [
        claims.map((claim) => claim.taskId),
        claims.map((claim) => claim.scheduledFor),
        claims.map((claim) => claim.id),
        claims.map((claim) => claim.now),
        claims.map((claim) => claim.sessionId),
        claims.map((claim) => claim.runner),
        claims.map((claim) => claim.now + claim.leaseMs),
        OVERLAP_DETAIL,
        INTERRUPTED_DETAIL,
      ]);
      const decided = new Map(rows.map((row) => [row.n, row]));
      return claims.map((claim, i) => claimResult(claim, decided.get(i + 1)!));
    } catch (error) {
      if ((error as { code?: unknown }).code !== DEADLOCK) throw error;
      return Promise.all(claims.map(claimOne));
    }
  });

  return {
    claim: (firing) => claimTogether({ ...firing, id: randomUUID() }),
    async skip(taskId, scheduledFor, detail) {
      const id = randomUUID();
      const { rows } = await db.write<Decided>(DECIDE_FIRING, [taskId, scheduledFor, id, null, null, null, null, detail, OVERLAP_DETAIL, INTERRUPTED_DETAIL]);
      const { outcome, syndicate } = rows[0]!;
      if (outcome === 'inactive' || outcome === 'taken') return { outcome };
      return { outcome, run: { id, taskId, syndicate, scheduledFor, startedAt: null, endedAt: null, status: 'skipped', sessionId: null, answer: null, detail, runner: null, leaseExpiresAt: null } };
    },
  };
}
