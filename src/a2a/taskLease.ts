import { hostname } from 'node:os';
import type { TaskRecords } from '../store/tasks.js';
import type { Warn } from './rateLimitedWarning.js';
import { failAbandonedTasks } from './taskStore.js';

// Several servers may share one database. Each holds a lease, renewed by a heartbeat, on the tasks
// it runs (every task state it saves names it as the runner); a task left running is abandoned,
// and marked failed, only once its runner's lease has expired, or when this process is its
// runner's next run. Nothing else tells a live server's task from a dead one's.

export const DEFAULT_LEASE_MS = 30_000;

/**
 * A server's lease name: the machine and the address it listens on. Only one live process on a
 * machine can listen on an address, so a lease of that name held by another process is its
 * previous run's, which died: what it left running is abandoned at once, without waiting for its
 * lease to expire.
 */
export function runnerName(host: string, port: number): string {
  return `${hostname()}/${host}:${port}`;
}

export interface TaskLease {
  /** How many tasks were marked failed when the lease was taken. */
  interrupted: number;
  /** Stops the heartbeat and ends the lease. */
  end(): Promise<void>;
}

export interface TaskLeaseOptions {
  runner: string;
  leaseMs: number;
  /** A heartbeat that failed (the store is unreachable: the lease may lapse), or that marked tasks failed. */
  warn: Warn;
}

/**
 * Marks failed what this runner's previous run and any expired runner left running, takes the
 * lease, then renews it every third of its length, sweeping up tasks whose runners' leases expired.
 */
export async function holdTaskLease(records: TaskRecords, { runner, leaseMs, warn }: TaskLeaseOptions): Promise<TaskLease> {
  const interrupted = await failAbandonedTasks(records, { runner, now: Date.now(), leftBy: runner });
  await records.renewLease(runner, Date.now() + leaseMs);
  let beating: Promise<void> | undefined;
  const beat = async (): Promise<void> => {
    try {
      await records.renewLease(runner, Date.now() + leaseMs);
      const failed = await failAbandonedTasks(records, { runner, now: Date.now() });
      if (failed > 0) warn(`${failed} A2A task(s) left running by a server whose lease expired were marked failed.`);
    } catch (error) {
      warn(`warning: the A2A task lease of ${runner} could not be renewed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const timer = setInterval(() => {
    // A slow store must not pile heartbeats up.
    beating ??= beat().finally(() => (beating = undefined));
  }, leaseMs / 3).unref();
  return {
    interrupted,
    async end() {
      clearInterval(timer);
      await beating;
      await records.endLease(runner);
    },
  };
}
