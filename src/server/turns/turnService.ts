import type { BackgroundCapability } from '../../runtime/background.js';
import { createTaskTools } from '../../scheduler/tasks/index.js';
import type { ServerContext, TurnService } from '../context.js';
import { userOfSession } from '../sessionAccess.js';
import { agUiRoutes } from './agUiRoutes.js';
import { serverJobRunner, type ServerJobOptions } from './backgroundJobs.js';
import { chatRoutes } from './chatRoutes.js';
import { jobRoutes } from './jobRoutes.js';
import { scheduledTurn } from './scheduledTurn.js';
import { createSessionHub } from './sessionHub.js';
import type { TurnContext } from './turnContext.js';
import { turnRoutes } from './turnRoutes.js';

export interface TurnServiceOptions {
  jobs?: ServerJobOptions;
}

/**
 * The server's turns: one line and one broadcast per session, streamed in Syndicate's own format,
 * the AI SDK's and AG-UI's; and the background jobs their tools start, reported into those lines.
 */
export async function createTurnService(ctx: ServerContext, options: TurnServiceOptions = {}): Promise<TurnService> {
  const hub = createSessionHub(ctx.warn);
  const store = await ctx.platform.store();
  // Report turns run in the same context as every other server turn (declared below; read once a report is due).
  const runner = await serverJobRunner(ctx, hub, store, () => turns, options.jobs);
  // Server turns bind both kinds of unattended work: background jobs, and tasks scheduled for the conversation's user.
  const background: BackgroundCapability = {
    tools: (run) => new Map([...runner.tools(run), ...createTaskTools(run, { schedules: store.schedules, user: run.sessionId && userOfSession(run.sessionId), now: Date.now })]),
  };
  const turns: TurnContext = { ...ctx, background };
  // Recovers what a stopped process left (pieces whose lease expired, reports written but not
  // delivered) and, on PostgreSQL, takes pieces from the shared queue.
  runner.start();
  return {
    routes: [...turnRoutes(turns, hub), ...chatRoutes(turns, hub), ...agUiRoutes(turns, hub), ...jobRoutes(store, runner)],
    running: () => hub.running(),
    runScheduled: scheduledTurn(turns, hub),
    async drain(graceMs) {
      const drained = await hub.drain(graceMs);
      // Pieces still running stop here; their leases expire, and a server that runs next takes them over.
      await runner.close();
      return drained;
    },
  };
}
