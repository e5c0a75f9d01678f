import type PgBoss from 'pg-boss';
import { coalesce } from '../../core/coalesce.js';
import { errorMessage } from '../../core/errors.js';

// Takes a queue's jobs in this process, up to `concurrency` at once, each completed (or failed) as
// its handler settles; completions that come together go in one statement. pg-boss's work() runs
// one fetched batch at a time and waits its polling interval between fetches, so a long run would
// hold back every job behind it; here a free slot fetches again at once, and a send from this
// process wakes the loop (wake()).

export interface ConsumerOptions<Data> {
  boss: PgBoss;
  queue: string;
  concurrency: number;
  /** How often an idle consumer looks for jobs other processes sent (or pg-boss offered again). */
  pollMs: number;
  /** Resolves once the job's work has ended; a rejection fails the job (pg-boss retries it by its policy). */
  handle(data: Data, job: PgBoss.Job<Data>): Promise<void>;
  warn(message: string): void;
  /** Hands each job's handling (to its completion written) to the platform, so closing waits for it. */
  track(work: Promise<void>): void;
}

export interface Consumer {
  /** Looks for jobs now (this process just sent some). */
  wake(): void;
  /** Fetches no more; resolves once the jobs taken have been handled and completed. */
  stop(): Promise<void>;
}

export function startConsumer<Data extends object>(options: ConsumerOptions<Data>): Consumer {
  const { boss, queue, concurrency, warn } = options;
  const handling = new Set<Promise<void>>();
  let stopped = false;
  let fetching: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  // Jobs fetched together end together: their completions go in one statement.
  const complete = coalesce<string>(async (ids) => {
    await boss.complete(queue, ids);
    return ids.map(() => undefined);
  });

  const settle = async (job: PgBoss.Job<Data>): Promise<void> => {
    try {
      await options.handle(job.data, job);
      await complete(job.id);
    } catch (error) {
      await boss.fail(queue, job.id, { message: errorMessage(error) });
    }
  };

  const take = (job: PgBoss.Job<Data>): void => {
    const done = settle(job)
      .catch((error: unknown) => warn(`warning: could not record the end of job ${job.id} in the shared queue ${queue}: ${errorMessage(error)}; pg-boss offers it again once it expires`))
      .finally(() => {
        handling.delete(done);
        wake();
      });
    handling.add(done);
    options.track(done);
  };

  const fetchWhileRoom = (): Promise<void> => {
    if (fetching) {
      again = true;
      return fetching;
    }
    fetching = fetchLoop().finally(() => (fetching = undefined));
    return fetching;
  };

  const fetchLoop = async (): Promise<void> => {
    try {
      do {
        again = false;
        while (!stopped && handling.size < concurrency) {
          const jobs = await boss.fetch<Data>(queue, { batchSize: concurrency - handling.size });
          if (jobs.length === 0) break;
          for (const job of jobs) take(job);
        }
      } while (again && !stopped);
    } catch (error) {
      warn(`warning: could not fetch jobs from the shared queue ${queue}: ${errorMessage(error)}; trying again in ${options.pollMs} ms`);
    }
  };

  function wake(): void {
    if (!stopped) void fetchWhileRoom();
  }

  const poll = (): void => {
    timer = setTimeout(() => {
      if (stopped) return;
      void fetchWhileRoom().finally(poll);
    }, options.pollMs);
  };
  wake();
  poll();

  return {
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await fetching;
      await Promise.all([...handling]);
    },
  };
}
