import { z } from 'zod';
import { CANCEL_BACKGROUND_JOB, DELEGATE_BACKGROUND, LIST_BACKGROUND_JOBS, PARALLEL_SUBTASKS } from '../../config/backgroundTools.js';
import { defineTool, type AnyTool } from '../../core/tool.js';
import type { BackgroundRun } from '../../runtime/background.js';
import type { JobRecord } from '../../store/backgroundJobs.js';
import { DEFAULT_PIECE_TIMEOUT_S, MAX_JOB_DEPTH, MAX_PIECE_TIMEOUT_S, MAX_PIECES } from './limits.js';

// The four background-job tools, bound to one run. Every refusal is an error result the model
// reads (the tool throws; executeToolCall turns it into one), naming the fix.

export interface PieceRequest {
  agent: string;
  request: string;
}

/** Where a run sits among jobs: a user's turn (no parent), or a piece of `parent`. */
export interface JobScope {
  parent: JobRecord | undefined;
}

/** What the tools need from the job runner. */
export interface JobControl {
  start(run: BackgroundRun & { sessionId: string }, scope: JobScope, pieces: readonly PieceRequest[], timeoutS: number): Promise<JobRecord>;
  cancel(jobId: string): Promise<string[]>;
  /** The job and whether it was started from `sessionId` (directly, or from a piece of a job that was). */
  owned(jobId: string, sessionId: string): Promise<boolean>;
  listed(sessionId: string): Promise<unknown[]>;
}

const timeoutSchema = z
  .number()
  .int('must be a whole number of seconds')
  .positive('must be above zero')
  .max(MAX_PIECE_TIMEOUT_S, `at most ${MAX_PIECE_TIMEOUT_S} seconds (one hour): split longer work into several jobs`)
  .optional()
  .describe(`Each piece's time limit in seconds (default ${DEFAULT_PIECE_TIMEOUT_S}, at most ${MAX_PIECE_TIMEOUT_S}).`);

const pieceSchema = z.object({
  agent: z.string().min(1).describe('The subagent that does this piece.'),
  request: z.string().trim().min(1, 'say what the subagent should do').describe('What you need from it, with all the context it needs.'),
});

const delegateInput = z.object({ ...pieceSchema.shape, timeout_s: timeoutSchema }).strict();
const parallelInput = z
  .object({
    tasks: z.array(pieceSchema).min(1, 'give at least one task').max(MAX_PIECES, `at most ${MAX_PIECES} tasks in one job: start several jobs`),
    timeout_s: timeoutSchema,
  })
  .strict();
const cancelInput = z.object({ job_id: z.string().min(1).describe('The id delegate_background or parallel_subtasks returned.') }).strict();
const listInput = z.object({}).strict();

const STARTED_NOTE = 'The job runs in the background: carry on. Its report comes into this conversation as a new turn once every piece has ended.';

function sessionOf(run: BackgroundRun): string {
  if (run.sessionId === undefined) {
    throw new Error('background jobs report into the conversation that started them, and this turn keeps no session (memory_system: internal-only): set memory_system to session-only or long-term, or consult the subagent directly');
  }
  return run.sessionId;
}

function checkPieces(run: BackgroundRun, scope: JobScope, pieces: readonly PieceRequest[]): void {
  const depth = (scope.parent?.depth ?? 0) + 1;
  if (depth > MAX_JOB_DEPTH) {
    throw new Error(`background jobs nest at most ${MAX_JOB_DEPTH} deep, and this run is a piece of a job at depth ${scope.parent!.depth}: do this work here, or consult a subagent directly (not in the background)`);
  }
  const known = [...run.agent.subagents.keys()];
  const unknown = pieces.find((piece) => !run.agent.subagents.has(piece.agent));
  if (unknown) {
    throw new Error(`'${unknown.agent}' is not a subagent of ${run.agent.name}: a background piece runs one of ${known.length > 0 ? known.join(', ') : 'its subagents, and it has none (list some under subagents: in the syndicate file)'}`);
  }
}

export function createJobTools(run: BackgroundRun, scope: JobScope, control: JobControl): ReadonlyMap<string, AnyTool> {
  const start = async (pieces: readonly PieceRequest[], timeoutS: number | undefined) => {
    const sessionId = sessionOf(run);
    checkPieces(run, scope, pieces);
    const job = await control.start({ ...run, sessionId }, scope, pieces, timeoutS ?? DEFAULT_PIECE_TIMEOUT_S);
    return { job_id: job.id, pieces: pieces.length, status: job.status, note: STARTED_NOTE };
  };
  const tools: AnyTool[] = [
    defineTool({
      name: DELEGATE_BACKGROUND,
      description: 'Hand one request to a subagent without waiting for it: returns a job id at once, and the answer arrives later as a report in this conversation.',
      inputSchema: delegateInput,
      execute: ({ agent, request, timeout_s }) => start([{ agent, request }], timeout_s),
    }),
    defineTool({
      name: PARALLEL_SUBTASKS,
      description: 'Run several requests, each by a subagent, in parallel in the background: returns a job id at once; one report with every answer arrives when all have ended.',
      inputSchema: parallelInput,
      execute: ({ tasks, timeout_s }) => start(tasks, timeout_s),
    }),
    defineTool({
      name: CANCEL_BACKGROUND_JOB,
      description: 'Cancel a background job started in this conversation, with the jobs its pieces started. A cancelled job never reports.',
      inputSchema: cancelInput,
      async execute({ job_id }) {
        const sessionId = sessionOf(run);
        if (!(await control.owned(job_id, sessionId))) throw new Error(`there is no background job '${job_id}' in this conversation: list_background_jobs shows its jobs and their ids`);
        const cancelled = await control.cancel(job_id);
        if (cancelled.length === 0) return { job_id, cancelled: false, note: 'The job had already ended (reported, failed or cancelled): nothing was cancelled.' };
        return { job_id, cancelled: true, jobs_cancelled: cancelled };
      },
    }),
    defineTool({
      name: LIST_BACKGROUND_JOBS,
      description: 'List the background jobs started in this conversation, newest first, with the state of each piece.',
      inputSchema: listInput,
      execute: async () => ({ jobs: await control.listed(sessionOf(run)) }),
    }),
  ];
  return new Map(tools.map((tool) => [tool.name, tool]));
}
