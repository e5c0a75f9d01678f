import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Platform } from '../platform/createPlatform.js';
import { sharedFirings } from '../scheduler/pgBoss/taskFirings.js';
import { createTaskScheduler, syncDeclaredTasks, type TaskScheduler } from '../scheduler/tasks/index.js';
import type { SyndicateRegistry, TurnService } from '../server/context.js';

// `serve`'s scheduled tasks: the files' `schedules:` brought into the store, then the scheduler
// loop, which runs each firing through the server's turn service (so the studio sees it live). On
// PostgreSQL the firings go through the shared queue (scheduler/pgBoss), which every serve process
// on the database takes them from; on SQLite this one process claims and runs them itself.

function loadedSyndicates(registry: SyndicateRegistry) {
  return registry.list().flatMap((entry) => (entry.current ? [entry.current] : []));
}

export async function startSchedules(platform: Platform, registry: SyndicateRegistry, turns: TurnService, warn: (message: string) => void): Promise<TaskScheduler> {
  const store = await platform.store();
  const loaded = loadedSyndicates(registry);
  await syncDeclaredTasks(store.schedules, loaded.map((syndicate) => ({ name: syndicate.name, schedules: syndicate.definition.schedules })), Date.now(), warn);
  const workQueue = await platform.workQueue();
  const shared = workQueue && (await sharedFirings(workQueue, warn));
  const track = (work: Promise<void>): void => platform.track(work);
  const scheduler = createTaskScheduler({
    store: store.schedules,
    // Unique per process, so a lease names the process that holds it.
    runner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    syndicates: () => loadedSyndicates(registry).map((syndicate) => syndicate.name),
    runTurn: turns.runScheduled,
    queue: shared,
    warn,
    track,
  });
  shared?.work(scheduler.take, track);
  scheduler.start();
  return {
    ...scheduler,
    async close() {
      // Both wait for the runs this process took, which end with the server's turns.
      await Promise.all([shared?.stop(), scheduler.close()]);
    },
  };
}
