import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Platform } from '../platform/createPlatform.js';
import { createTaskScheduler, syncDeclaredTasks, type TaskScheduler } from '../scheduler/tasks/index.js';
import type { SyndicateRegistry, TurnService } from '../server/context.js';

// `serve`'s scheduled tasks: the files' `schedules:` brought into the store, then the scheduler
// loop, which runs each firing through the server's turn service (so the studio sees it live).

function loadedSyndicates(registry: SyndicateRegistry) {
  return registry.list().flatMap((entry) => (entry.current ? [entry.current] : []));
}

export async function startSchedules(platform: Platform, registry: SyndicateRegistry, turns: TurnService, warn: (message: string) => void): Promise<TaskScheduler> {
  const store = await platform.store();
  const loaded = loadedSyndicates(registry);
  await syncDeclaredTasks(store.schedules, loaded.map((syndicate) => ({ name: syndicate.name, schedules: syndicate.definition.schedules })), Date.now(), warn);
  const scheduler = createTaskScheduler({
    store: store.schedules,
    // Unique per process, so a lease names the process that holds it.
    runner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    syndicates: () => loadedSyndicates(registry).map((syndicate) => syndicate.name),
    runTurn: turns.runScheduled,
    warn,
    track: (work) => platform.track(work),
  });
  scheduler.start();
  return scheduler;
}
