import { startConsumer, type Consumer } from './consumer.js';
import { jobIdFor, type QueuePolicy, type WorkQueue } from './workQueue.js';

// One kind of unattended work on the shared queue: every process sends it, one job per key however
// many processes send it (the job's id is derived from the key; a second send inserts nothing),
// and every process that works the queue takes jobs and runs them.

export interface SharedQueueOptions<Data> {
  name: string;
  policy: QueuePolicy;
  /** What makes two sends the same job; also the job's singleton key, naming it in pg-boss's tables. */
  key(data: Data): string;
  /** Jobs one process runs at once. */
  concurrency: number;
  /** How often an idle process looks for jobs other processes sent, or pg-boss offers again. */
  pollMs: number;
  warn(message: string): void;
}

export interface SharedQueue<Data> {
  send(data: Data): Promise<void>;
  /** Takes jobs in this process, running each through `run` (a rejection fails the job: pg-boss retries it by the policy). */
  work(run: (data: Data) => Promise<void>, track: (work: Promise<void>) => void): void;
  /** Takes no more; resolves once the jobs taken have run and been completed. */
  stop(): Promise<void>;
}

export async function sharedQueue<Data extends object>(queue: WorkQueue, options: SharedQueueOptions<Data>): Promise<SharedQueue<Data>> {
  await queue.queue(options.name, options.policy);
  let consumer: Consumer | undefined;
  return {
    async send(data) {
      const key = options.key(data);
      const id = await queue.boss.send(options.name, data, { id: jobIdFor(key), singletonKey: key });
      if (id !== null) consumer?.wake();
    },
    work(run, track) {
      consumer ??= startConsumer<Data>({ boss: queue.boss, queue: options.name, concurrency: options.concurrency, pollMs: options.pollMs, handle: run, warn: options.warn, track });
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
