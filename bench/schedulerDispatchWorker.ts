import { sharedFirings } from '../src/scheduler/pgBoss/taskFirings.js';
import { startWorkQueue } from '../src/scheduler/pgBoss/workQueue.js';
import { createTaskScheduler } from '../src/scheduler/tasks/index.js';
import { openPostgresStore } from '../src/store/postgres/index.js';

// One server process's scheduler in the dispatch bench (schedulerDispatch.ts), wired as serve wires
// it on PostgreSQL (cli/serveSchedules.ts): due firings go to the shared queue (pg-boss), and this
// process takes firings from it. Its turns are no-ops that note when they started. Says `ready`
// once started; at `close` it stops and sends the start times of the turns it ran.

const [url, name, syndicatesText] = process.argv.slice(2);
if (url === undefined || name === undefined || syndicatesText === undefined) throw new Error('usage: schedulerDispatchWorker <postgres url> <name> <syndicates, comma-separated>');
const syndicates = syndicatesText.split(',');
const send = (message: unknown): void => {
  if (process.send === undefined) throw new Error('schedulerDispatchWorker runs as a child process with an IPC channel (fork)');
  process.send(message);
};
const warn = (message: string): void => console.error(`${name}: ${message}`);

const store = await openPostgresStore(url);
const queue = await startWorkQueue(url, warn);
const shared = await sharedFirings(queue, warn);
const started: number[] = [];
const scheduler = createTaskScheduler({
  store: store.schedules,
  runner: name,
  syndicates: () => syndicates,
  queue: shared,
  runTurn: async () => {
    started.push(Date.now());
    return { status: 'completed', output: 'ok' };
  },
  warn,
});
const tracked = new Set<Promise<void>>();
shared.work(scheduler.take, (work) => void tracked.add(work));
await scheduler.start();
send({ type: 'ready' });
await new Promise<void>((resolve) => process.once('message', () => resolve()));
await Promise.all([shared.stop(), scheduler.close()]);
await Promise.all(tracked);
await queue.stop();
await store.close();
send({ type: 'done', started });
process.disconnect();
