import { afterEach, describe, expect, it } from 'vitest';
import { testTools } from '../../a2a/fixtures.js';
import { agent } from '../../runtime/fixtures.js';
import { eventually, holdTool } from '../../scheduler/jobsFixtures.js';
import { auth, postTurn, readAll, served, startTurnServer, type TurnServer } from './harness.js';

// GET /background-jobs, GET /background-jobs/:id, POST /background-jobs/:id/cancel: the caller's
// jobs only (another user's is a 404), and a cancel that reaches the jobs the pieces started.

const JOB_TOOLS = ['delegate_background', 'parallel_subtasks', 'cancel_background_job', 'list_background_jobs'];

let server: TurnServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The Chair delegates to the Researcher, whose piece starts a job of its own for the Digger, then holds; the Digger holds too. */
function nestedDesk() {
  const outer = holdTool('hold');
  const inner = holdTool('dig_hold');
  const digger = agent('Digger', { description: 'Digs deeper.', tools: ['dig_hold'], script: [{ match: 'deeper', tool_calls: [{ tool: 'dig_hold', args: {} }] }, { reply: 'deep find' }] });
  const researcher = agent('Researcher', {
    description: 'Digs.',
    tools: [...JOB_TOOLS, 'hold'],
    subagents: [digger],
    script: [
      { match: 'dig', tool_calls: [{ tool: 'delegate_background', args: { agent: 'Digger', request: 'go deeper' } }] },
      { match: '"job_id"', tool_calls: [{ tool: 'hold', args: {} }] },
      { reply: 'found it' },
    ],
  });
  const root = agent('Chair', {
    tools: JOB_TOOLS,
    subagents: [researcher],
    script: [
      { match: '[Background job', reply: 'Here is what the job found.', repeat: true },
      { match: 'please', tool_calls: [{ tool: 'delegate_background', args: { agent: 'Researcher', request: 'dig into it' } }] },
      { match: '"job_id"', reply: 'Started it in the background.' },
    ],
  });
  return { syndicate: served(root, { tools: testTools(outer.tool, inner.tool) }, { name: 'Desk' }), outer, inner };
}

/** The fields of the answers these tests read. */
interface Answer {
  status: number;
  body: { jobs?: unknown[]; pieces?: unknown[]; status?: string; detail?: string; cancelled?: boolean };
}

async function get(path: string, token = 'alice-token'): Promise<Answer> {
  const response = await fetch(`${server!.api}${path}`, { headers: auth(token) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

async function post(path: string, token = 'alice-token'): Promise<Answer> {
  const response = await fetch(`${server!.api}${path}`, { method: 'POST', headers: auth(token) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** Starts alice's job and waits until both pieces (the Researcher's and the nested Digger's) hold. */
async function startNestedJob(desk: ReturnType<typeof nestedDesk>): Promise<{ sessionId: string; jobId: string }> {
  server = await startTurnServer([desk.syndicate]);
  const response = await postTurn(server.api, { syndicate: 'desk', message: 'please look into it' });
  await readAll(response);
  await Promise.all([desk.outer.called, desk.inner.called]);
  const sessionId = response.headers.get('x-session-id')!;
  const [job] = await (await server.platform.store()).backgroundJobs.list({ originSessionId: sessionId, limit: 1 });
  return { sessionId, jobId: job!.id };
}

describe('the background jobs API', () => {
  it("lists the caller's jobs and none of another user's", async () => {
    const desk = nestedDesk();
    const { sessionId, jobId } = await startNestedJob(desk);

    const alice = await get('/background-jobs');
    const bob = await get('/background-jobs', 'bob-token');

    expect(alice.status).toBe(200);
    expect(alice.body.jobs).toEqual([expect.objectContaining({ id: jobId, originSessionId: sessionId, status: 'running', depth: 1, parentJobId: null })]);
    expect(bob.body.jobs).toEqual([]);
  });

  it('reads one job with its pieces, a nested job through its top job’s owner, and answers 404 to another user', async () => {
    const desk = nestedDesk();
    const { jobId } = await startNestedJob(desk);
    const store = await server!.platform.store();
    const nested = (await store.backgroundJobs.list({ limit: 10 })).find((job) => job.parentJobId === jobId)!;

    const one = await get(`/background-jobs/${jobId}`);
    const inner = await get(`/background-jobs/${nested.id}`);
    const bobs = await get(`/background-jobs/${jobId}`, 'bob-token');

    expect(one.status).toBe(200);
    expect(one.body.pieces).toEqual([expect.objectContaining({ index: 0, agent: 'Researcher', request: 'dig into it', status: 'running', sessionId: `bg:${jobId}:0` })]);
    expect(inner.body).toMatchObject({ id: nested.id, parentJobId: jobId, depth: 2, originSessionId: `bg:${jobId}:0` });
    expect(bobs.status).toBe(404);
    expect(bobs.body.detail).toContain('GET /api/v1/background-jobs');
  });

  it('cancels a job with the job its piece started, stops both pieces, and never reports', async () => {
    const desk = nestedDesk();
    const { sessionId, jobId } = await startNestedJob(desk);
    const store = await server!.platform.store();

    const cancelled = await post(`/background-jobs/${jobId}/cancel`);
    await Promise.all([desk.outer.aborted, desk.inner.aborted]);

    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toEqual({ cancelled: true, jobs: [jobId, expect.stringMatching(/^job-/)] });
    const jobs = await store.backgroundJobs.list({ limit: 10 });
    expect(jobs.map((job) => job.status)).toEqual(['cancelled', 'cancelled']);
    await eventually(async () => server!.turns.running() === 0, 'no turn runs');
    const reports = (await store.readEvents(sessionId)).filter(({ event }) => event.type === 'turn-start' && event.input.startsWith('[Background job'));
    expect(reports).toEqual([]);
    expect(await store.backgroundJobs.undelivered()).toEqual([]);
  });

  it("refuses to cancel another user's job with a 404 and leaves it running", async () => {
    const desk = nestedDesk();
    const { jobId } = await startNestedJob(desk);

    const refused = await post(`/background-jobs/${jobId}/cancel`, 'bob-token');
    const again = await post(`/background-jobs/${jobId}/cancel`, 'viewer-token');

    expect(refused.status).toBe(404);
    expect(again.status).toBe(403);
    expect((await get(`/background-jobs/${jobId}`)).body.status).toBe('running');
  });
});
