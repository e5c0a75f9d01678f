import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/config/schema.js';
import type { JobRunner } from '../../src/scheduler/jobs/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/store.js';
import { defineAgent, type AgentFields } from '../../src/config/define.js';
import { collect, compile, ofType, turnEnd } from '../runtime/fixtures.js';
import { scratchDir } from '../support/scratchDir.js';
import { eventually, holdTool, testRunner, type Delivered } from './jobsFixtures.js';

// Background subagent jobs end to end on a real SQLite store and the scripted model: the tools
// return a job id at once, pieces run in sessions of their own, one report turn follows.

/** A scripted agent whose tools may be tool objects. */
const agent = (name: string, fields: AgentFields = {}) => defineAgent(name, { model: 'scripted', file: 'test.yaml', ...fields });

const JOB_TOOLS = ['delegate_background', 'parallel_subtasks', 'cancel_background_job', 'list_background_jobs'];

function startScript(call: ScriptStep['tool_calls']): ScriptStep[] {
  return [
    { match: 'please', tool_calls: call },
    { match: '"job_id"', reply: 'Started it in the background.' },
    { match: 'delegate_background failed', reply: 'I could not start it.' },
    { match: 'parallel_subtasks failed', reply: 'I could not start them.' },
    { match: '[Background job', reply: 'Here is what the job found.', repeat: true },
  ];
}

describe('background jobs', () => {
  let store: Store;
  let runner: JobRunner | undefined;
  let delivered: Delivered[];
  let sessionId: string;

  beforeEach(() => {
    store = openSqliteStore(join(scratchDir('jobs'), 'jobs.db'));
    delivered = [];
    sessionId = `session-${randomUUID()}`;
  });
  afterEach(async () => {
    await runner?.close();
    runner = undefined;
    await store.close();
  });

  it('returns a job id at once, and the turn ends while the piece still runs under the default 600 s time limit', async () => {
    const hold = holdTool();
    const syndicate = compile(
      agent('Chair', {
        tools: JOB_TOOLS,
        subagents: [agent('Researcher', { tools: [hold.tool], script: [{ match: 'dig', tool_calls: [{ tool: 'hold', args: {} }] }, { reply: 'found it' }] })],
        script: startScript([{ tool: 'delegate_background', args: { agent: 'Researcher', request: 'dig into it' } }]),
      }),
    );
    runner = testRunner(store, syndicate, delivered);

    const events = await collect(syndicate, { input: 'please look into it', sessionId, store, background: runner });
    await hold.called;

    const result = ofType(events, 'tool-result').find((event) => event.tool === 'delegate_background');
    expect(result?.isError).toBe(false);
    expect(result?.output).toMatchObject({ job_id: expect.stringMatching(/^job-/), pieces: 1, status: 'running' });
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Started it in the background.' });
    const jobId = (result?.output as { job_id: string }).job_id;
    expect((await store.backgroundJobs.get(jobId))?.pieces[0]?.status).toBe('running');
    expect((await store.backgroundJobs.get(jobId))?.job.timeoutMs).toBe(600_000);
    expect(delivered).toEqual([]);
    hold.release();
    await eventually(async () => delivered.length === 1, 'the report is delivered');
  });

  it('delivers one report turn in the originating session, carrying both pieces’ answers', async () => {
    const syndicate = compile(
      agent('Chair', {
        tools: JOB_TOOLS,
        subagents: [agent('Researcher'), agent('Writer')],
        script: startScript([{ tool: 'parallel_subtasks', args: { tasks: [{ agent: 'Researcher', request: 'find the numbers' }, { agent: 'Writer', request: 'draft the memo' }] } }]),
      }),
    );
    runner = testRunner(store, syndicate, delivered);

    const events = await collect(syndicate, { input: 'please do both', sessionId, store, background: runner });
    await eventually(async () => delivered.length > 0, 'the report is delivered');
    await runner.idle();

    const jobId = (ofType(events, 'tool-result')[0]?.output as { job_id: string }).job_id;
    const { job, pieces } = (await store.backgroundJobs.get(jobId))!;
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.sessionId).toBe(sessionId);
    expect(delivered[0]?.text).toContain(pieces[0]!.answer!);
    expect(delivered[0]?.text).toContain(pieces[1]!.answer!);
    expect(pieces.map((piece) => [piece.agent, piece.status, piece.sessionId])).toEqual([
      ['Researcher', 'answered', `bg:${jobId}:0`],
      ['Writer', 'answered', `bg:${jobId}:1`],
    ]);
    expect(job.status).toBe('reported');
    expect(await store.backgroundJobs.undelivered()).toEqual([]);
    // The report turn is a turn of the originating session, after the turn that started the job.
    const starts = (await store.readEvents(sessionId)).filter((stored) => stored.event.type === 'turn-start');
    expect(starts).toHaveLength(2);
    expect(turnEnd(delivered[0]!.events).output).toBe('Here is what the job found.');
  });

  it('reports a piece that fails as failed, next to the one that answered', async () => {
    const syndicate = compile(
      agent('Chair', {
        tools: JOB_TOOLS,
        subagents: [agent('Researcher'), agent('Writer', { script: [{ error: 'server' }] })],
        script: startScript([{ tool: 'parallel_subtasks', args: { tasks: [{ agent: 'Researcher', request: 'find' }, { agent: 'Writer', request: 'draft' }] } }]),
      }),
    );
    runner = testRunner(store, syndicate, delivered);

    await collect(syndicate, { input: 'please do both', sessionId, store, background: runner });
    await eventually(async () => delivered.length > 0, 'the report is delivered');

    const { job, pieces } = (await store.backgroundJobs.get(delivered[0]!.report.jobId))!;
    expect(pieces.map((piece) => piece.status)).toEqual(['answered', 'failed']);
    expect(job.status).toBe('reported');
    expect(delivered[0]?.text).toMatch(/Piece 2 \(Writer\)[^]*Failed: /);
  });

  it('reports a piece that passes its time limit as timed out', async () => {
    const hold = holdTool();
    const syndicate = compile(
      agent('Chair', {
        tools: JOB_TOOLS,
        subagents: [agent('Sleeper', { tools: [hold.tool], script: [{ tool_calls: [{ tool: 'hold', args: {} }] }] })],
        script: startScript([{ tool: 'delegate_background', args: { agent: 'Sleeper', request: 'wait', timeout_s: 1 } }]),
      }),
    );
    runner = testRunner(store, syndicate, delivered);

    await collect(syndicate, { input: 'please wait', sessionId, store, background: runner });
    await hold.aborted;
    await eventually(async () => delivered.length > 0, 'the report is delivered');

    const { job, pieces } = (await store.backgroundJobs.get(delivered[0]!.report.jobId))!;
    expect(job.status).toBe('failed');
    expect(pieces[0]?.error).toContain('timed out after 1 s');
    expect(delivered[0]?.text).toContain('timed out after 1 s');
  });

  it('cancels a job with the job its piece started, aborts both pieces, and never reports', async () => {
    const hold = holdTool();
    const syndicate = compile(
      agent('Chair', {
        tools: JOB_TOOLS,
        subagents: [
          agent('Manager', {
            tools: ['delegate_background', hold.tool],
            subagents: [agent('Sleeper', { tools: [hold.tool], script: [{ tool_calls: [{ tool: 'hold', args: {} }] }] })],
            script: [{ match: 'manage', tool_calls: [{ tool: 'delegate_background', args: { agent: 'Sleeper', request: 'sleep' } }] }, { match: '"job_id"', tool_calls: [{ tool: 'hold', args: {} }] }],
          }),
        ],
        script: startScript([{ tool: 'delegate_background', args: { agent: 'Manager', request: 'manage it' } }]),
      }),
    );
    runner = testRunner(store, syndicate, delivered);

    const events = await collect(syndicate, { input: 'please manage', sessionId, store, background: runner });
    const jobId = (ofType(events, 'tool-result')[0]?.output as { job_id: string }).job_id;
    await eventually(async () => (await store.backgroundJobs.list({ status: 'running', limit: 10 })).length === 2, 'the nested job starts');
    await hold.called;
    const nested = (await store.backgroundJobs.list({ limit: 10 })).find((job) => job.parentJobId === jobId)!;
    await eventually(async () => (await store.backgroundJobs.get(nested.id))?.pieces[0]?.status === 'running', 'the nested piece runs');

    const cancelled = await runner.cancel(jobId);
    await runner.idle();

    expect(cancelled).toEqual([jobId, nested.id]);
    expect(nested.depth).toBe(2);
    for (const id of cancelled) {
      const { job, pieces } = (await store.backgroundJobs.get(id))!;
      expect(job.status).toBe('cancelled');
      expect(pieces.map((piece) => piece.status)).toEqual(['cancelled']);
    }
    expect(delivered).toEqual([]);
    expect(await store.backgroundJobs.undelivered()).toEqual([]);
  });

  it('refuses a job nested deeper than the limit with an error result naming it', async () => {
    const chain = (name: string, child: string): ReturnType<typeof agent> =>
      agent(name, {
        tools: ['delegate_background'],
        subagents: [name === 'Third' ? agent('Fourth') : chainOf(child)],
        script: [{ match: 'go', tool_calls: [{ tool: 'delegate_background', args: { agent: child, request: 'go deeper' } }] }, { match: '"job_id"', reply: 'started' }, { match: 'nest at most', reply: 'refused' }],
      });
    const next: Record<string, string> = { First: 'Second', Second: 'Third', Third: 'Fourth' };
    const chainOf = (name: string): ReturnType<typeof agent> => chain(name, next[name]!);
    const syndicate = compile(
      agent('Chair', { tools: JOB_TOOLS, subagents: [chainOf('First')], script: startScript([{ tool: 'delegate_background', args: { agent: 'First', request: 'go' } }]) }),
    );
    runner = testRunner(store, syndicate, delivered);

    await collect(syndicate, { input: 'please go', sessionId, store, background: runner });
    await eventually(async () => delivered.length === 3, 'the three jobs report');

    const jobs = await store.backgroundJobs.list({ limit: 10 });
    expect(jobs.map((job) => job.depth).sort()).toEqual([1, 2, 3]);
    const deepest = jobs.find((job) => job.depth === 3)!;
    const piece = (await store.backgroundJobs.get(deepest.id))!.pieces[0]!;
    const refusal = (await store.readEvents(piece.sessionId)).map((stored) => stored.event).find((event) => event.type === 'tool-result');
    expect(refusal).toMatchObject({ isError: true, output: expect.stringContaining('background jobs nest at most 3 deep') });
    expect(piece.answer).toBe('refused');
  });

  it('refuses bad input with an error result that names the fix', async () => {
    const syndicate = compile(
      agent('Chair', {
        tools: JOB_TOOLS,
        subagents: [agent('Researcher')],
        script: [
          { match: 'please', tool_calls: [{ tool: 'delegate_background', args: { agent: 'Reseacher', request: 'x' } }, { tool: 'delegate_background', args: { agent: 'Researcher', request: 'x', timeout_s: 7200 } }, { tool: 'parallel_subtasks', args: { tasks: [] } }] },
          { reply: 'done' },
        ],
      }),
    );
    runner = testRunner(store, syndicate, delivered);

    const events = await collect(syndicate, { input: 'please', sessionId, store, background: runner });

    const results = ofType(events, 'tool-result');
    expect(results.map((result) => result.isError)).toEqual([true, true, true]);
    // Results land as each call ends, so in no fixed order.
    expect(results.map((result) => result.output)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("'Reseacher' is not a subagent of Chair: a background piece runs one of Researcher"),
        expect.stringContaining('at most 3600 seconds (one hour): split longer work into several jobs'),
        expect.stringContaining('give at least one task'),
      ]),
    );
    expect(await store.backgroundJobs.list({ limit: 10 })).toEqual([]);
  });

  it('accepts a time limit of one hour, the most a piece may have', async () => {
    const syndicate = compile(
      agent('Chair', { tools: JOB_TOOLS, subagents: [agent('Researcher')], script: startScript([{ tool: 'delegate_background', args: { agent: 'Researcher', request: 'x', timeout_s: 3600 } }]) }),
    );
    runner = testRunner(store, syndicate, delivered);

    await collect(syndicate, { input: 'please', sessionId, store, background: runner });
    await eventually(async () => delivered.length === 1, 'the report is delivered');

    expect((await store.backgroundJobs.get(delivered[0]!.report.jobId))?.job.timeoutMs).toBe(3_600_000);
  });

  it('refuses a job in a turn that keeps no session, saying how to keep one', async () => {
    const syndicate = compile(
      agent('Chair', { tools: JOB_TOOLS, subagents: [agent('Researcher')], script: startScript([{ tool: 'delegate_background', args: { agent: 'Researcher', request: 'x' } }]) }),
    );
    runner = testRunner(store, syndicate, delivered);

    const events = await collect(syndicate, { input: 'please', background: runner });

    expect(ofType(events, 'tool-result')[0]).toMatchObject({ isError: true, output: expect.stringContaining('set memory_system to session-only or long-term') });
  });

  it('lists the session’s jobs and cancels one through the tools', async () => {
    const hold = holdTool();
    const syndicate = compile(
      agent('Chair', {
        tools: JOB_TOOLS,
        subagents: [agent('Sleeper', { tools: [hold.tool], script: [{ tool_calls: [{ tool: 'hold', args: {} }] }] })],
        script: [
          ...startScript([{ tool: 'delegate_background', args: { agent: 'Sleeper', request: 'sleep' } }]).slice(0, 2),
          { match: 'stop', tool_calls: [{ tool: 'list_background_jobs', args: {} }] },
          { match: '"jobs"', reply: 'listed' },
        ],
      }),
    );
    runner = testRunner(store, syndicate, delivered);
    await collect(syndicate, { input: 'please sleep', sessionId, store, background: runner });
    await hold.called;

    const listing = await collect(syndicate, { input: 'stop it', sessionId, store, background: runner });
    const jobs = (ofType(listing, 'tool-result')[0]?.output as { jobs: Array<{ job_id: string; status: string; pieces: unknown[] }> }).jobs;
    const tools = runner.tools({ syndicate, sessionId, agent: syndicate.root });
    const cancel = await tools.get('cancel_background_job')!.execute({ job_id: jobs[0]!.job_id }, { agent: 'Chair', turnId: 't', sessionId, signal: new AbortController().signal });
    const otherSession = runner.tools({ syndicate, sessionId: 'another-session', agent: syndicate.root });
    const elsewhere = otherSession.get('cancel_background_job')!.execute({ job_id: jobs[0]!.job_id }, { agent: 'Chair', turnId: 't', sessionId: 'another-session', signal: new AbortController().signal });
    await expect(elsewhere).rejects.toThrow('list_background_jobs shows its jobs');
    await hold.aborted;
    await runner.idle();

    expect(jobs).toEqual([{ job_id: expect.stringMatching(/^job-/), status: 'running', pieces: [{ agent: 'Sleeper', status: 'running' }] }]);
    expect(cancel).toEqual({ job_id: jobs[0]!.job_id, cancelled: true, jobs_cancelled: [jobs[0]!.job_id] });
    expect(delivered).toEqual([]);
  });
});
