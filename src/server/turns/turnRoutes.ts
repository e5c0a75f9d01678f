import { z } from 'zod';
import { defineRoute, fail, json, written, type AnyRoute } from '../http/route.js';
import { clientSessionIdSchema, newSessionId } from '../sessionAccess.js';
import { ownEventsFormat } from './formats/ownEvents.js';
import { followSession } from './followSession.js';
import { isReply, lastEventIdHeaders, loadedSyndicate, namedSession, sessionNotFound } from './lookups.js';
import type { SessionHub } from './sessionHub.js';
import { startTurn } from './startTurn.js';
import type { TurnContext } from './turnContext.js';
import { storedLastTurn, streamLiveTurn, streamStoredTurn } from './streamTurn.js';

// Syndicate's own turn API: post a message and read the turn's events; follow a session's turn
// from another tab or after a dropped connection; cancel it.

const DOUBLE_TEXTING =
  "A message to a session whose turn is still running follows the syndicate's `concurrency:` — enqueue (default: runs after it), reject (409), or interrupt (cancels it, then runs).";

const SSE_RESPONSE = { description: 'text/event-stream of TurnEvents: `event: <type>`, `data: <TurnEvent JSON, with seq when stored>`, `id: <seq>` on stored events', contentType: 'text/event-stream' };

const sessionParams = z.object({ id: z.string().min(1).max(300) });

export function turnRoutes(ctx: TurnContext, hub: SessionHub): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/turns',
      operationId: 'postTurn',
      summary: "Sends a message to a session (new when sessionId is absent) and streams the turn's events",
      description: `${DOUBLE_TEXTING} Answering an ask_user question (a turn that ended input-required) is the next message to the session. The session id is in the X-Session-Id header.`,
      tag: 'Turns',
      access: 'member' as const,
      body: z.strictObject({ syndicate: z.string().min(1).max(128), sessionId: clientSessionIdSchema.optional(), message: z.string().min(1).max(100_000) }),
      responses: { 200: SSE_RESPONSE, 404: { description: 'Unknown syndicate or session' }, 409: { description: 'The session is busy and its syndicate sets concurrency: reject' } },
      async handle({ body, caller, res }) {
        const syndicate = loadedSyndicate(ctx, body.syndicate);
        if (isReply(syndicate)) return syndicate;
        const sessionId = body.sessionId === undefined ? newSessionId(caller.userId) : namedSession(caller, body.sessionId);
        if (sessionId === undefined) return sessionNotFound(body.sessionId!);
        const turn = startTurn(ctx, hub, { syndicate, sessionId, input: body.message, userId: caller.userId, newSession: body.sessionId === undefined });
        if (isReply(turn)) return turn;
        streamLiveTurn(res, ownEventsFormat(), turn, undefined, { 'x-session-id': sessionId });
        return written();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/sessions/:id/stream',
      operationId: 'streamSession',
      summary: "Streams the session's running turn (or its last one): the events after Last-Event-ID, then live ones",
      description:
        'A malformed or missing Last-Event-ID starts at the beginning of the turn. Disconnecting does not cancel the turn. With `follow=true` the stream stays open and streams every later turn of the session as it runs (a second tab\'s, a background report, a scheduled run); after Last-Event-ID it starts with every stored event since.',
      tag: 'Turns',
      access: 'viewer' as const,
      params: sessionParams,
      query: z.object({ follow: z.stringbool().default(false).describe('Stay open and stream every later turn of the session') }),
      headers: lastEventIdHeaders,
      responses: { 200: SSE_RESPONSE, 404: { description: 'No such session of yours' } },
      async handle({ params, query, headers, caller, res }) {
        const sessionId = namedSession(caller, params.id);
        if (sessionId === undefined) return sessionNotFound(params.id);
        const store = await ctx.platform.store();
        const turn = hub.current(sessionId);
        const session = await store.getSession(sessionId);
        if (turn === undefined && session === undefined) return sessionNotFound(params.id);
        // A seq past every event the session has (stored, or streamed ahead of its commit) is no id
        // this server gave out: ignored like a malformed one, or the stream would skip the turn.
        const lastEventId = headers['last-event-id'];
        const afterSeq = lastEventId !== undefined && lastEventId <= Math.max(session?.eventCount ?? 0, turn?.lastSeq() ?? 0) ? lastEventId : undefined;
        if (query.follow) {
          await followSession(res, ownEventsFormat(), hub, store, sessionId, afterSeq);
          return written();
        }
        if (turn) {
          streamLiveTurn(res, ownEventsFormat(), turn, afterSeq);
          return written();
        }
        streamStoredTurn(res, ownEventsFormat(), await storedLastTurn(store, sessionId, afterSeq));
        return written();
      },
    }),
    defineRoute({
      method: 'post',
      path: '/sessions/:id/cancel',
      operationId: 'cancelTurn',
      summary: "Cancels the session's running turn and any waiting behind it",
      description:
        "The turn ends cancelled (its stream gets the turn-end); cancelled is false when nothing was running. A scheduled task's run in the session stops in whichever server runs it, recorded `interrupted`.",
      tag: 'Turns',
      access: 'member' as const,
      params: sessionParams,
      responses: { 202: { description: 'Cancel requested', schema: z.object({ cancelled: z.boolean() }) }, 404: { description: 'No such session of yours' } },
      async handle({ params, caller }) {
        const sessionId = namedSession(caller, params.id);
        if (sessionId === undefined) return sessionNotFound(params.id);
        if (hub.cancel(sessionId)) return json({ cancelled: true }, 202);
        const store = await ctx.platform.store();
        if ((await store.getSession(sessionId)) === undefined) return fail(404, `there is no session '${params.id}' of yours with a turn to cancel`);
        // Not running here: a scheduled run may be going in another server process.
        const stopped = await store.schedules.cancelRuns({ sessionId }, `cancelled: ${caller.userId} cancelled the run's session`, Date.now());
        return json({ cancelled: stopped.length > 0 }, 202);
      },
    }),
  ];
}
