import type { RunTaskTurn, TaskTurnEnd } from '../../scheduler/tasks/index.js';
import { loadedNamed } from './lookups.js';
import type { SessionHub } from './sessionHub.js';
import { startUnattendedTurn } from './startTurn.js';
import type { TurnContext } from './turnContext.js';

// A scheduled task's run as a server turn: admitted into its session's line (queued behind a
// running turn whatever the syndicate's `concurrency:`, as a message nobody is waiting to resend),
// so a client following the session sees it live, with the ledger and the memory of the user the
// task runs for.

export function scheduledTurn(ctx: TurnContext, hub: SessionHub): RunTaskTurn {
  return async ({ task, sessionId, message, signal }) => {
    const syndicate = loadedNamed(ctx, task.syndicate);
    if (!syndicate) return { status: 'failed', output: '', error: `the syndicate '${task.syndicate}' is not loaded (its file is missing or invalid); fix the file, and the next firing runs` };
    const request = { syndicate, sessionId, input: message, userId: task.runAs, newSession: false };
    const admission = startUnattendedTurn(ctx, hub, request);
    if (!admission.admitted) return { status: 'cancelled', output: '', error: 'the server was shutting down, so the run did not start' };
    const { turn } = admission;
    const abort = (): void => turn.controller.abort();
    // Cancelled while it waited to be admitted: an aborted signal fires no more events.
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    let end: TaskTurnEnd | undefined;
    turn.subscribe(undefined, {
      event: ({ event }) => {
        if (event.type === 'turn-end') end = { status: event.status, output: event.output, ...(event.error === undefined ? {} : { error: event.error }) };
      },
      end: () => undefined,
    });
    await turn.ended;
    signal.removeEventListener('abort', abort);
    return end ?? { status: 'failed', output: '', error: 'the turn stopped before its turn-end (see the server log)' };
  };
}
