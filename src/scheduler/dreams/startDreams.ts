import { Cron } from 'croner';
import { errorMessage } from '../../core/errors.js';
import { siloFor } from '../../core/silo.js';
import type { Memory } from '../../memory/openMemory.js';
import type { CompiledSyndicate } from '../../runtime/compileSyndicate.js';
import type { Store } from '../../store/store.js';
import { runDream, type RunDreamOptions } from './runDream.js';

// Dreams on their schedule, for the server to start at merge: a `cron` dream fires on the
// expression (in its time zone); an `every` dream is checked each minute and runs for a silo whose
// last dream started at least `every` ago. One dream per silo at a time in this process. Several
// processes on one database are not yet kept from dreaming the same silo twice: the server should
// start dreams in one process (or route them through the scheduled-task queue once it exists).

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
}

export interface DreamSchedule {
  stop(): Promise<void>;
}

const EVERY_CHECK_MS = 60_000;

export function startDreams(options: StartDreamsOptions): DreamSchedule {
  const warn = options.warn ?? ((message: string) => void process.stderr.write(`warning: ${message}\n`));
  const now = options.now ?? (() => new Date());
  const dreaming = new Map<string, Promise<void>>();
  const stoppers: Array<() => void> = [];
  const controller = new AbortController();

  const dreamAll = async (syndicate: CompiledSyndicate, due: (last: number | undefined) => boolean): Promise<void> => {
    for (const user of await options.users(syndicate)) {
      const silo = siloFor(syndicate.name, user);
      const key = JSON.stringify([syndicate.name, silo]);
      if (dreaming.has(key)) continue;
      const [last] = await options.store.dreamRuns.list(syndicate.name, silo, 1);
      if (!due(last?.startedAt)) continue;
      const memory = await options.memory(syndicate, silo);
      if (!memory) continue;
      const dream = runDream({ store: options.store, syndicate, memory, user, now, signal: controller.signal, turnOptions: options.turnOptions })
        .then((run) => run.error !== null && warn(`the dream of ${silo} failed: ${run.error}`))
        .catch((error: unknown) => warn(`the dream of ${silo} could not run: ${errorMessage(error)}`))
        .then(() => void dreaming.delete(key));
      dreaming.set(key, dream);
    }
  };
  const fire = (syndicate: CompiledSyndicate, due: (last: number | undefined) => boolean) => (): void => {
    dreamAll(syndicate, due).catch((error: unknown) => warn(`the dreams of ${syndicate.name} could not start: ${errorMessage(error)}`));
  };

  for (const syndicate of options.syndicates) {
    const config = syndicate.dreams;
    if (!config) continue;
    if (config.cron !== undefined) {
      const job = new Cron(config.cron, { timezone: config.timezone }, fire(syndicate, () => true));
      stoppers.push(() => job.stop());
    } else {
      const every = config.every!;
      const check = fire(syndicate, (last) => last === undefined || now().getTime() - last >= every);
      const timer = setInterval(check, Math.min(EVERY_CHECK_MS, every));
      timer.unref();
      stoppers.push(() => clearInterval(timer));
      check();
    }
  }
  return {
    async stop() {
      for (const stop of stoppers) stop();
      controller.abort();
      await Promise.allSettled([...dreaming.values()]);
    },
  };
}
