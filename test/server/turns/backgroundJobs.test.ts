import { afterEach, describe, expect, it } from 'vitest';
import { createGate, testTools } from '../../a2a/fixtures.js';
import { agent } from '../../runtime/fixtures.js';
import { eventually, holdTool } from '../../scheduler/jobsFixtures.js';
import { followSession, postTurn, readAll, readOwnEvents, readUntil, served, startTurnServer, type TurnServer } from './harness.js';

// Background jobs in the server: a turn's delegate_background returns at once, the piece runs in a
// session of its own, and the one report turn arrives in the originating session through the
// server's line of turns, behind a turn that is running there.

const JOB_TOOLS = ['delegate_background', 'parallel_subtasks', 'cancel_background_job', 'list_background_jobs'];
const REPORT = '[Background job';

let server: TurnServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The Chair delegates "dig" to the Researcher, whose piece holds until released; "wait" holds the Chair's own turn at the gate. */
function desk() {
  const hold = holdTool();
  const gate = createGate();
  const root = agent('Chair', {
    tools: [...JOB_TOOLS, 'gate'],
    subagents: [agent('Researcher', { description: 'Digs.', tools: ['hold'], script: [{ match: 'dig', tool_calls: [{ tool: 'hold', args: {} }] }, { reply: 'found it' }] })],
    script: [
      { match: REPORT, reply: 'Here is what the job found.', repeat: true },
      { match: 'please', tool_calls: [{ tool: 'delegate_background', args: { agent: 'Researcher', request: 'dig into it' } }] },
      { match: '"job_id"', reply: 'Started it in the background.' },
      { match: 'wait', tool_calls: [{ tool: 'gate', args: {} }] },
      { match: 'gate opened', reply: 'Done waiting.' },
    ],
  });
  return { syndicate: served(root, { tools: testTools(hold.tool, gate.tool) }, { name: 'Desk' }), hold, gate };
}

const sessionOf = (response: Response): string => response.headers.get('x-session-id')!;

async function reportTurnStarts(server: TurnServer, sessionId: string) {
  const events = await (await server.platform.store()).readEvents(sessionId);
  return events.filter(({ event }) => event.type === 'turn-start' && event.input.startsWith(REPORT));
}

describe('background jobs in the server', () => {
  it('answers a turn that delegates in the background at once, while the piece still runs in a session of its own', async () => {
    const { syndicate, hold } = desk();
    server = await startTurnServer([syndicate]);
    const store = await server.platform.store();

    const response = await postTurn(server.api, { syndicate: 'desk', message: 'please look into it' });
    const messages = await readAll(response);
    await hold.called;

    expect(messages.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Started it in the background.' });
    const [job] = await store.backgroundJobs.list({ originSessionId: sessionOf(response), limit: 10 });
    const stored = await store.backgroundJobs.get(job!.id);
    expect(stored?.pieces).toMatchObject([{ status: 'running', sessionId: `bg:${job!.id}:0` }]);
    expect(await reportTurnStarts(server, sessionOf(response))).toEqual([]);
    hold.release();
    await eventually(async () => (await store.backgroundJobs.undelivered()).length === 0 && (await store.backgroundJobs.get(job!.id))?.job.status === 'reported', 'the report is delivered');
  });

  it('queues the one report turn behind the turn running in the session, and a client following the session sees it', async () => {
    const { syndicate, hold, gate } = desk();
    server = await startTurnServer([syndicate]);
    const store = await server.platform.store();
    const started = await postTurn(server.api, { syndicate: 'desk', message: 'please look into it' });
    await readAll(started);
    const sessionId = sessionOf(started);
    const [job] = await store.backgroundJobs.list({ originSessionId: sessionId, limit: 10 });

    const waiting = readOwnEvents(await postTurn(server.api, { syndicate: 'desk', sessionId, message: 'wait for me' }));
    await gate.reached;
    hold.release();
    await eventually(async () => (await store.backgroundJobs.get(job!.id))?.job.status === 'reported', 'the job reports');
    expect(await reportTurnStarts(server, sessionId)).toEqual([]);
    gate.open();
    const second = await readUntil(waiting, (message) => message.data.type === 'turn-end');

    // The report turn runs after the person's turn; a client that follows the session from there sees it whole.
    let report: Awaited<ReturnType<typeof readAll>> = [];
    await eventually(async () => {
      report = await readAll(await followSession(server!.api, sessionId, String(second.at(-1)!.id)));
      return report.length > 0;
    }, 'the report turn reaches the session stream');
    expect(report[0]?.data).toMatchObject({ type: 'turn-start' });
    expect(report[0]!.id!).toBeGreaterThan(second.at(-1)!.id!);
    expect(report.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Here is what the job found.' });
    await eventually(async () => (await store.backgroundJobs.undelivered()).length === 0, 'the report is marked delivered');
    const starts = await reportTurnStarts(server, sessionId);
    expect(starts).toHaveLength(1);
    expect(starts[0]!.event).toMatchObject({ input: expect.stringContaining('found it') });
  });
});
