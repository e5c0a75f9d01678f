import { openPostgresStore } from '../src/store/postgres/index.js';
import { benchCouncil, turn } from './turnOverhead.js';

// One process of the two-processes-vs-one bench (postgresProcesses.ts): opens the store, warms up,
// says `ready`, and at `go` runs its lanes of turns (each lane its own session, turn after turn),
// then reports how many turns it ran, how long they took and the CPU it spent, and keeps its
// connections open until told to `close` (the parent reads the server's CPU while they exist).

const [url, name, lanesText, turnsText] = process.argv.slice(2);
if (url === undefined || name === undefined || lanesText === undefined || turnsText === undefined) {
  throw new Error('usage: postgresTurnsWorker <postgres url> <name> <lanes> <turns per lane>');
}
const lanes = Number(lanesText);
const turnsPerLane = Number(turnsText);
const send = (message: unknown): void => {
  if (process.send === undefined) throw new Error('postgresTurnsWorker runs as a child process with an IPC channel (fork)');
  process.send(message);
};

const store = await openPostgresStore(url);
const compiled = benchCouncil();
const input = 'Should our team adopt a four-day work week?';
await Promise.all(Array.from({ length: lanes }, (_, lane) => turn(compiled, { input, store, stream: false, sessionId: `${name}-warm-${lane}` })));
send({ type: 'ready' });
const nextMessage = (): Promise<void> => new Promise<void>((resolve) => process.once('message', () => resolve()));
await nextMessage();
const start = performance.now();
const cpuBefore = process.cpuUsage();
await Promise.all(
  Array.from({ length: lanes }, async (_, lane) => {
    for (let i = 0; i < turnsPerLane; i++) await turn(compiled, { input, store, stream: false, sessionId: `${name}-${lane}` });
  }),
);
const cpu = process.cpuUsage(cpuBefore);
send({ type: 'done', turns: lanes * turnsPerLane, ms: performance.now() - start, cpuUs: cpu.user + cpu.system });
await nextMessage();
await store.close();
process.disconnect();
