import { Cron } from 'croner';
import { errorMessage } from '../../core/errors.js';
import { previousFiring } from '../../config/cron.js';
import { siloFor } from '../../core/silo.js';
import type { Memory } from '../../memory/openMemory.js';
import type { CompiledSyndicate } from '../../runtime/compileSyndicate.js';
import type { Store } from '../../store/store.js';
import { runDream, type RunDreamOptions } from './runDream.js';

// Dreams on their schedule, for the server to start at merge: a `cron` dream fires on the
// expression (in its time zone); an `every` dream is checked each minute and runs for a silo whose
// last dream started at least `every` ago. A reloaded syndicate file's `dreams:` replace the
// previous ones (update()); a dream already running finishes as it began. One dream per silo at a
// time in this process. With a
// shared queue (PostgreSQL, several processes: scheduler/pgBoss) a due dream is sent to the queue
// under its due time instead of run here: every process computes the same due time for a silo
// (the cron firing, or the last dream's start plus `every`), so the queue keeps one job, and the
// process that takes it dreams (take()). The dreams of a process that died are marked interrupted
// once their leases expire: at the start, and before each due check.

/** One due dream of one silo, as the shared queue carries it. */
export interface DueDream {
  syndicate: string;
  user: string;
  /** The cron firing, or when the silo's last dream started plus `every` (0: its first dream). */
  dueAt: number;
}

/** The queue several processes share dreams through; each due dream is sent once whatever number of processes send it. */
export interface DreamQueue {
  send(dream: DueDream): Promise<void>;
}

export interface StartDreamsOptions {
  store: Store;
  /** The syndicates served: those that declare dreams: dream. */
  syndicates: readonly CompiledSyndicate[];
  /** The users whose silos dream (the server: its users; the CLI: the local user). */
  users(syndicate: CompiledSyndicate): Promise<readonly string[]>;
  memory(syndicate: CompiledSyndicate, silo: string): Promise<Memory | undefined>;
  turnOptions?: RunDreamOptions['turnOptions'];
  warn?(message: string): void;
  now?(): Date;
  /** Where due dreams go when several processes share the work; without it, this process dreams them. */
  queue?: DreamQueue;
}

export interface DreamSchedule {
  /** Dreams a due dream the shared queue handed this process; resolves once it has ended. */
  take(dream: DueDream): Promise<void>;
  /** Schedules the syndicate's dreams as it declares them now (a reloaded file); none when it declares none. */
  update(syndicate: CompiledSyndicate): void;
  stop(): Promise<void>;
}

const EVERY_CHECK_MS = 60_000;

export function startDreams(options: StartDreamsOptions): DreamSchedule {
  const warn = options.warn ?? ((message: string) => void process.stderr.write(`warning: ${message}\n`));
  const now = options.now ?? (() => new Date());
  const dreaming = new Map<string, Promise<void>>();
  /** The syndicates that dream, by name, as they were last loaded; and what stops each one's timer. */
  const served = new Map<string, CompiledSyndicate>();
  const stoppers = new Map<string, () => void>();
  const controller = new AbortController();

  const dream = (syndicate: CompiledSyndicate, user: string): Promise<void> => {
    const silo = siloFor(syndicate.name, user);
    const key = JSON.stringify([syndicate.name, silo]);
    const running = dreaming.get(key);
    if (running) return running;
    const done = (async () => {
      const memory = await options.memory(syndicate, silo);
      if (!memory) return;
      const run = await runDream({ store: options.store, syndicate, memory, user, now, signal: controller.signal, turnOptions: options.turnOptions, warn });
      if (run.error !== null) warn(`the dream of ${silo} failed: ${run.error}`);
    })()
      .catch((error: unknown) => warn(`the dream of ${silo} could not run: ${errorMessage(error)}`))
      .finally(() => dreaming.delete(key));
    dreaming.set(key, done);
    return done;
  };

  /** Marks the dreams whose process died (their lease expired) interrupted. */
  const sweep = (): Promise<unknown> => options.store.dreamRuns.interruptExpired(now().getTime());

  /** `due` says when the silo's dream was due (given its last dream's start), or undefined when it is not. */
  const dreamAll = async (syndicate: CompiledSyndicate, due: (last: number | undefined) => number | undefined): Promise<void> => {
    await sweep();
    for (const user of await options.users(syndicate)) {
      const silo = siloFor(syndicate.name, user);
      if (dreaming.has(JSON.stringify([syndicate.name, silo]))) continue;
      const [last] = await options.store.dreamRuns.list(syndicate.name, silo, 1);
      const dueAt = due(last?.startedAt);
      if (dueAt === undefined) continue;
      if (options.queue) await options.queue.send({ syndicate: syndicate.name, user, dueAt });
      else void dream(syndicate, user);
    }
  };
  const fire = (syndicate: CompiledSyndicate, due: (last: number | undefined) => number | undefined) => (): void => {
    dreamAll(syndicate, due).catch((error: unknown) => warn(`the dreams of ${syndicate.name} could not start: ${errorMessage(error)}`));
  };

  const update = (syndicate: CompiledSyndicate): void => {
    stoppers.get(syndicate.name)?.();
    stoppers.delete(syndicate.name);
    served.delete(syndicate.name);
    const config = syndicate.dreams;
    if (!config || controller.signal.aborted) return;
    served.set(syndicate.name, syndicate);
    if (config.cron !== undefined) {
      const cron = config.cron;
      const job = new Cron(cron, { timezone: config.timezone }, fire(syndicate, () => previousFiring(cron, config.timezone ?? 'UTC', now().getTime()) ?? now().getTime()));
      stoppers.set(syndicate.name, () => job.stop());
    } else {
      const every = config.every!;
      const check = fire(syndicate, (last) => (last === undefined ? 0 : now().getTime() - last >= every ? last + every : undefined));
      const timer = setInterval(check, Math.min(EVERY_CHECK_MS, every));
      timer.unref();
      stoppers.set(syndicate.name, () => clearInterval(timer));
      check();
    }
  };

  sweep().catch((error: unknown) => warn(`could not mark the dreams of stopped processes interrupted: ${errorMessage(error)}; the next due check tries again`));
  for (const syndicate of options.syndicates) update(syndicate);
  return {
    async take({ syndicate: name, user }) {
      const syndicate = served.get(name);
      // Refused, not dropped: the queue offers the dream to another process.
      if (!syndicate) throw new Error(`this process does not serve the dreams of '${name}'`);
      if (controller.signal.aborted) throw new Error('this process is stopping, so it starts no more dreams');
      await dream(syndicate, user);
    },
    update,
    async stop() {
      for (const stop of stoppers.values()) stop();
      stoppers.clear();
      controller.abort();
      await Promise.allSettled([...dreaming.values()]);
    },
  };
}
