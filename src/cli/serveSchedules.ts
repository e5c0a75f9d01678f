import { errorMessage } from '../core/errors.js';
import type { Platform } from '../platform/createPlatform.js';
import { sharedFirings } from '../scheduler/pgBoss/taskFirings.js';
import { processRunnerName } from '../scheduler/runnerName.js';
import { createTaskScheduler, syncDeclaredTasks, type TaskScheduler, type TaskSchedulerOptions } from '../scheduler/tasks/index.js';
import type { WatchedSyndicateRegistry } from '../server/app/syndicateRegistry.js';
import { firstAdmin } from '../server/auth/userAdmin.js';
import type { LoadedSyndicate, SyndicateRegistry, TurnService } from '../server/context.js';
import { sessionIdFor } from '../server/sessionAccess.js';

// `serve`'s scheduled tasks: the files' `schedules:` brought into the store (at start, and again
// each time a file reloads), then the scheduler loop, which runs each firing through the server's
// turn service (so the studio sees it live). A file's task is its `owner:`'s, or the admin's: its
// runs use that user's memory, and a fixed `session:` is one of that user's sessions. On
// PostgreSQL the firings go through the shared queue (scheduler/pgBoss), which every serve process
// on the database takes them from; on SQLite this one process claims and runs them itself.

function loadedSyndicates(registry: SyndicateRegistry): LoadedSyndicate[] {
  return registry.list().flatMap((entry) => (entry.current ? [entry.current] : []));
}

/** `options`: the scheduler's timings (tests shorten or lengthen them; serve keeps the defaults). */
export async function startSchedules(
  platform: Platform,
  registry: WatchedSyndicateRegistry,
  turns: TurnService,
  warn: (message: string) => void,
  options: Pick<TaskSchedulerOptions, 'leaseMs' | 'graceMs'> = {},
): Promise<TaskScheduler> {
  const store = await platform.store();
  const sync = async (syndicates: readonly LoadedSyndicate[]): Promise<void> => {
    for (const syndicate of syndicates) {
      for (const { name, owner } of syndicate.definition.schedules) {
        if (owner !== null && !(await store.users.getUser(owner))) {
          warn(`warning: ${syndicate.file}: the task '${name}' is owned by '${owner}', who is no user here; its runs use that name's memory until you add the user (syndicate users add ${owner}) or change owner:`);
        }
      }
    }
    const ownership = { admin: await firstAdmin(store.users), sessionOf: sessionIdFor };
    await syncDeclaredTasks(store.schedules, syndicates.map((syndicate) => ({ name: syndicate.name, schedules: syndicate.definition.schedules })), ownership, Date.now(), warn);
  };
  await sync(loadedSyndicates(registry));
  // A reloaded file's `schedules:` replace its previous ones; an invalid file never loads, so its
  // tasks stay as they were. One sync at a time, in the order the files loaded.
  const track = (work: Promise<void>): void => platform.track(work);
  let syncing = Promise.resolve();
  registry.onLoaded((loaded) => {
    syncing = syncing
      .then(() => sync([loaded]))
      .then(
        () => undefined,
        (error: unknown) => warn(`warning: could not update ${loaded.name}'s tasks from ${loaded.file}: ${errorMessage(error)}; they stay as they were until the file is saved again`),
      );
    track(syncing);
  });
  const workQueue = await platform.workQueue();
  const shared = workQueue && (await sharedFirings(workQueue, warn));
  const scheduler = createTaskScheduler({
    store: store.schedules,
    // Unique per process, so a lease names the process that holds it.
    runner: processRunnerName(),
    syndicates: () => loadedSyndicates(registry).map((syndicate) => syndicate.name),
    runTurn: turns.runScheduled,
    queue: shared,
    warn,
    track,
    ...options,
  });
  shared?.work(scheduler.take, track);
  await scheduler.start();
  return {
    ...scheduler,
    async close() {
      // Both wait for the runs this process took, which end with the server's turns.
      await Promise.all([shared?.stop(), scheduler.close()]);
    },
  };
}
