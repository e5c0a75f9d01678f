import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/store.js';
import { killed } from '../a2a/serverProcess.js';
import { eventually } from '../scheduler/jobsFixtures.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { postTurn, readAll } from './turns/harness.js';

// Two real server processes on one PostgreSQL (fixtures/serve-jobs-process.mjs): the process
// running a background job's piece is killed with SIGKILL; the other takes the piece over once its
// lease expires, and the job's report turn is delivered exactly once. A cancel sent to one process
// stops the piece running in the other at once (a notification), long before its next heartbeat.

const child = fileURLToPath(new URL('./fixtures/serve-jobs-process.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/server/turns/turnService.js', import.meta.url));
const cluster = POSTGRES_TESTS ? usePostgresCluster() : undefined;

const procs: ChildProcess[] = [];
let reader: Store | undefined;
afterEach(async () => {
  await Promise.all(procs.splice(0).map((proc) => killed(proc)));
  await reader?.close();
  reader = undefined;
});

/** Starts a server process; `hold`: its pieces never end; `answer`: they answer at once. */
function serverProcess(store: string, mode: 'hold' | 'answer', leaseMs = 1_000): Promise<{ proc: ChildProcess; api: string }> {
  if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this test');
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, store, mode, String(leaseMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(proc);
    let stderr = '';
    proc.stderr!.on('data', (chunk) => (stderr += chunk));
    proc.stdout!.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(chunk.toString());
      if (match) resolve({ proc, api: match[1]! });
    });
    proc.on('exit', () => reject(new Error(`the server process ended before listening: ${stderr}`)));
  });
}

describe.runIf(POSTGRES_TESTS)('background jobs on two server processes sharing PostgreSQL', () => {
  it('a piece whose process was killed is taken over by the other once its lease expires, and the report is delivered exactly once', async () => {
    const url = await cluster!().createDatabase();
    const first = await serverProcess(url, 'hold');
    const response = await postTurn(first.api, { syndicate: 'desk', message: 'please look into it' });
    expect((await readAll(response)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Started it in the background.' });
    const sessionId = response.headers.get('x-session-id')!;
    reader = await openStore(url);
    const store = reader;
    const [job] = await store.backgroundJobs.list({ originSessionId: sessionId, limit: 1 });
    await eventually(async () => (await store.backgroundJobs.get(job!.id))?.pieces[0]?.status === 'running', 'the first process runs the piece');
    await serverProcess(url, 'answer');

    await killed(first.proc);
    await eventually(async () => (await store.backgroundJobs.get(job!.id))?.job.status === 'reported' && (await store.backgroundJobs.undelivered()).length === 0, 'the other process reports');

    const stored = await store.backgroundJobs.get(job!.id);
    expect(stored?.pieces[0]).toMatchObject({ status: 'answered', answer: 'found it', attempts: 2 });
    // Several of the survivor's polls later (each 200 ms, the lease 1 s), still one report turn.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const events = await store.readEvents(sessionId);
    const reports = events.filter(({ event }) => event.type === 'turn-start' && event.input.startsWith('[Background job'));
    expect(reports).toHaveLength(1);
    expect(events.filter(({ event }) => event.type === 'turn-end').map(({ event }) => event.type === 'turn-end' && event.output)).toEqual(['Started it in the background.', 'Here is what the job found.']);
  }, 60_000);

  it('a cancel sent to one process stops the piece running in the other at once, not at its next heartbeat', async () => {
    const url = await cluster!().createDatabase();
    // A minute's lease: the runner's heartbeat (a third of it) cannot be what stops the piece within the wait below.
    const running = await serverProcess(url, 'hold', 60_000);
    const other = await serverProcess(url, 'answer', 60_000);
    const response = await postTurn(running.api, { syndicate: 'desk', message: 'please look into it' });
    await readAll(response);
    reader = await openStore(url);
    const store = reader;
    const [job] = await store.backgroundJobs.list({ originSessionId: response.headers.get('x-session-id')!, limit: 1 });
    await eventually(async () => (await store.backgroundJobs.get(job!.id))?.pieces[0]?.status === 'running', 'the first process runs the piece');
    const pieceSession = (await store.backgroundJobs.get(job!.id))!.pieces[0]!.sessionId;

    const cancel = await fetch(`${other.api}/background-jobs/${job!.id}/cancel`, { method: 'POST', headers: { authorization: 'Bearer alice-token' } });

    expect(await cancel.json()).toEqual({ cancelled: true, jobs: [job!.id] });
    await eventually(async () => (await store.readEvents(pieceSession)).some(({ event }) => event.type === 'turn-end' && event.status === 'cancelled'), "the piece's turn ends cancelled in the first process");
    expect(running.proc.exitCode).toBeNull();
  }, 60_000);
});
