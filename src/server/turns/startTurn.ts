import { fail, type Reply } from '../http/route.js';
import type { LiveTurn } from './liveTurn.js';
import type { Admission, SessionHub } from './sessionHub.js';
import type { TurnContext } from './turnContext.js';
import { turnRun, type TurnRequest } from './turnRunner.js';

// Every face of the turn routes (own events, AI SDK, AG-UI) starts a turn here, so double texting
// follows the syndicate's `concurrency:` whichever format the client reads. A turn nobody sent (a
// background job's report, a scheduled run) starts here too, always queued.

function admit(ctx: TurnContext, hub: SessionHub, request: TurnRequest, policy: TurnRequest['syndicate']['compiled']['concurrency']): Admission {
  return hub.admit(request.sessionId, policy, request.syndicate.compiled.memorySystem !== 'internal-only', turnRun(ctx, request));
}

/** A turn nobody is waiting to resend: queued behind a running turn whatever `concurrency:` says (it neither refuses nor interrupts the person's turn). */
export function startUnattendedTurn(ctx: TurnContext, hub: SessionHub, request: TurnRequest): Admission {
  return admit(ctx, hub, request, 'enqueue');
}

export function startTurn(ctx: TurnContext, hub: SessionHub, request: TurnRequest): LiveTurn | Reply {
  const { compiled } = request.syndicate;
  const admission = admit(ctx, hub, request, compiled.concurrency);
  if (admission.admitted) return admission.turn;
  if (admission.reason === 'draining') return fail(503, 'the server is shutting down and takes no new turns; send the message again once it is back');
  return fail(
    409,
    `session '${request.sessionId}' has a turn running and ${compiled.name} sets concurrency: reject; wait for its turn-end (GET /api/v1/sessions/{id}/stream) or cancel it (POST /api/v1/sessions/{id}/cancel), then send again`,
  );
}
