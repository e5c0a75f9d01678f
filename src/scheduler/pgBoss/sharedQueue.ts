import type PgBoss from 'pg-boss';
import { coalesce } from '../../core/coalesce.js';
import { startConsumer, type Consumer } from './consumer.js';
import { jobIdFor, type QueuePolicy, type WorkQueue } from './workQueue.js';

// One kind of unattended work on the shared queue: every process sends it, one job per key however
// many processes send it (the job's id is derived from the key; a second send inserts nothing),
// and every process that works the queue takes jobs and runs them. Sends made together (a
// scheduler's tick finds many firings due in one second) go in one INSERT (core/coalesce.ts).

export interface SharedQueueOptions<Data> {
  name: string;
  policy: QueuePolicy;
  /** What makes two sends the same job; also the job's singleton key, naming it in pg-boss's tables. */
  key(data: Data): string;
  /** What one job changes of the queue's policy (a piece's expiry follows its time limit). */
  jobOptions?(data: Data): Pick<PgBoss.JobInsert, 'expireInSeconds' | 'retryDelay'>;
  /** Jobs one process runs at once. */
  concurrency: number;
  /** How often an idle process looks for jobs other processes sent, or pg-boss offers again. */
  pollMs: number;
  warn(message: string): void;
}

export interface SharedQueue<Data> {
  send(data: Data): Promise<void>;
  /** Cancels the jobs of these keys (see `key`), waiting or taken by a process: nobody takes them again. */
  cancel(keys: readonly string[]): Promise<void>;
  /** Takes jobs in this process, running each through `run` (a rejection fails the job: pg-boss retries it by the policy). */
  work(run: (data: Data) => Promise<void>, track: (work: Promise<void>) => void): void;
  /** Takes no more; resolves once the jobs taken have run and been completed. */
  stop(): Promise<void>;
}

export async function sharedQueue<Data extends object>(queue: WorkQueue, options: SharedQueueOptions<Data>): Promise<SharedQueue<Data>> {
  await queue.queue(options.name, options.policy);
  let consumer: Consumer | undefined;
  const send = coalesce<Data>(async (batch) => {
    const jobs = batch.map((data) => {
      const key = options.key(data);
      return { name: options.name, data, id: jobIdFor(key), singletonKey: key, ...options.jobOptions?.(data) };
    });
    // insert() resolves to the ids inserted (null when every job was there already).
    if ((await queue.boss.insert(jobs)) !== null) consumer?.wake();
    return batch.map(() => undefined);
  });
  return {
    send,
    async cancel(keys) {
      if (keys.length > 0) await queue.boss.cancel(options.name, keys.map(jobIdFor));
    },
    work(run, track) {
      consumer ??= startConsumer<Data>({ boss: queue.boss, queue: options.name, concurrency: options.concurrency, pollMs: options.pollMs, handle: run, warn: options.warn, track });
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
