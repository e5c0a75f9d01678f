import type { TurnStatus } from '../../core/events.js';
import { siloFor } from '../../core/silo.js';
import { openServerTurn, rememberOrWarn } from '../../platform/serverTurn.js';
import { runTurn } from '../../runtime/runTurn.js';
import type { LoadedSyndicate } from '../context.js';
import type { TurnRun } from './sessionHub.js';
import type { TurnContext } from './turnContext.js';

// A turn as the server runs it: the platform's store, the session's ledger and tracing, the long-term
// memory of the caller's silo (the same silo A2A and MCP give the user), distilled after each
// completed turn. The syndicate is the version loaded when the message arrived. Its tools may start
// background jobs (the turn service's job runner), whose report is a turn of its own here later.

export interface TurnRequest {
  syndicate: LoadedSyndicate;
  sessionId: string;
  input: string;
  /** Whose silo the turn remembers in: the caller's, or for a job's report the user whose turn started the job. */
  userId: string;
  /** The server minted the session id for this turn: no stored session has it. */
  newSession: boolean;
}

export function turnRun(ctx: TurnContext, request: TurnRequest): TurnRun {
  const { compiled } = request.syndicate;
  const remember = rememberOrWarn(ctx.warn);
  return async (turn) => {
    const store = await ctx.platform.store();
    const server = await openServerTurn(ctx.platform, compiled, request.sessionId, siloFor(compiled.name, request.userId), remember);
    let status: TurnStatus = 'failed';
    const events = runTurn(compiled, {
      input: request.input,
      sessionId: request.sessionId,
      newSession: request.newSession,
      store,
      signal: turn.controller.signal,
      background: ctx.background,
      ...server.options,
      committed: turn.committed,
    });
    try {
      for await (const event of events) {
        if (event.type === 'turn-end') status = event.status;
        turn.push(event);
      }
    } finally {
      server.ended(status);
    }
  };
}
