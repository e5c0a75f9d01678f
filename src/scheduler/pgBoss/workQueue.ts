import { createHash } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { errorMessage } from '../../core/errors.js';

// The queue several server processes on one PostgreSQL database share their unattended work
// through: pg-boss 10, in its own schema (`pgboss`), on the store's database. SQLite has none: its
// one process keeps the queue in the store's tables. Each queue's jobs are sent under an id derived
// from what they do (a task's firing, a silo's due dream), so however many processes send one,
// pg-boss keeps one job (its primary key; a second send inserts nothing).

export const PGBOSS_SCHEMA = 'pgboss';

/** pg-boss checks for jobs whose process went silent (past their expiry) this often. */
const MAINTENANCE_S = 30;

const DEADLOCK = '40P01';
const CREATE_ATTEMPTS = 5;

export interface QueuePolicy {
  /**
   * How long a fetched job may stay active: pg-boss 10 has no heartbeat, so past this it counts the
   * job's process as gone and offers the job again (a retry).
   */
  expireInSeconds: number;
  /** Retries after an expiry (or a failure the handler reports) before the job ends failed. */
  retryLimit: number;
}

export interface WorkQueue {
  readonly boss: PgBoss;
  /** Creates the queue (once per database; later calls keep the first policy). */
  queue(name: string, policy: QueuePolicy): Promise<void>;
  /** Stops pg-boss (its maintenance and connections); the jobs stay in the database. */
  stop(): Promise<void>;
}

/** A job id (a UUID, as pg-boss wants) derived from a key: every process derives the same one. */
export function jobIdFor(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export async function startWorkQueue(connectionString: string, warn: (message: string) => void): Promise<WorkQueue> {
  // Loaded only for a PostgreSQL store, like pg.
  const { default: PgBossClass } = await import('pg-boss');
  const boss = new PgBossClass({
    connectionString,
    schema: PGBOSS_SCHEMA,
    application_name: 'syndicate-queue',
    max: 8,
    // Each process's scheduler decides its firings itself (scheduler/tasks): pg-boss's cron is not used.
    schedule: false,
    maintenanceIntervalSeconds: MAINTENANCE_S,
  });
  boss.on('error', (error) => warn(`warning: the shared work queue (pg-boss): ${errorMessage(error)}`));
  try {
    await boss.start();
  } catch (error) {
    throw new Error(`could not start the shared work queue (pg-boss, schema ${PGBOSS_SCHEMA}) on the store's PostgreSQL database: ${errorMessage(error)}; check that the store's user may create a schema there`, { cause: error });
  }
  return {
    boss,
    async queue(name, policy) {
      // Two processes starting together both create the queue (its partition table): PostgreSQL
      // may pick one as a deadlock victim; once the other's is committed, a retry finds the queue there.
      for (let attempt = 1; ; attempt++) {
        try {
          return await boss.createQueue(name, { name, policy: 'standard', ...policy });
        } catch (error) {
          if ((error as { code?: unknown }).code !== DEADLOCK || attempt >= CREATE_ATTEMPTS) throw error;
        }
      }
    },
    async stop() {
      await boss.stop({ graceful: false, wait: true });
    },
  };
}
