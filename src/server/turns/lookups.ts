import { z } from 'zod';
import type { ApiCaller } from '../caller.js';
import type { LoadedSyndicate, ServerContext } from '../context.js';
import { fail, type Reply } from '../http/route.js';
import { isServerSessionId, maySeeSession, sessionIdFor } from '../sessionAccess.js';

// What the turn routes look up before they start: the syndicate's current version, and the
// caller's session a client names.

/** The syndicate as it last loaded, or the problem to answer: 404 naming the known ids, 409 when its file has never loaded. */
export function loadedSyndicate(ctx: ServerContext, id: string): LoadedSyndicate | Reply {
  const entry = ctx.syndicates.get(id);
  if (entry === undefined) {
    const known = ctx.syndicates.list().map((each) => each.id);
    return fail(404, `there is no syndicate '${id}'; known: ${known.length > 0 ? known.join(', ') : '(none loaded)'}`);
  }
  if (entry.current === undefined) {
    const where = entry.error ? `${entry.error.file}${entry.error.line === undefined ? '' : `:${entry.error.line}:${entry.error.column ?? 1}`}: ${entry.error.message}` : entry.file;
    return fail(409, `syndicate '${id}' has not loaded (${where}); fix its file and it is reloaded for the next turn`);
  }
  return entry.current;
}

/** The syndicate of that name as it last loaded (jobs and tasks name their syndicate by name). */
export function loadedNamed(ctx: ServerContext, name: string): LoadedSyndicate | undefined {
  return ctx.syndicates.list().find((entry) => entry.current?.name === name)?.current;
}

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && 'kind' in value;
}

/**
 * The session a client names: a server-given id (api:<user>:…, a task run's task:<user>:…) as it
 * is, when the caller may see it; any other string inside the caller's own namespace. Undefined:
 * another user's (a 404).
 */
export function namedSession(caller: ApiCaller, clientId: string): string | undefined {
  const id = isServerSessionId(clientId) ? clientId : sessionIdFor(caller.userId, clientId);
  return maySeeSession(caller, id) ? id : undefined;
}

export const sessionNotFound = (id: string): Reply => fail(404, `there is no session '${id}' of yours; list yours with GET /api/v1/sessions`);

/** Last-Event-ID as a seq; anything else (absent, malformed) is ignored: the stream starts at the beginning of the turn. */
export const lastEventIdHeaders = z.object({
  'last-event-id': z
    .string()
    .optional()
    .transform((header) => (header !== undefined && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : undefined))
    .describe('The seq of the last event received (an SSE id); a malformed one is ignored and the stream starts at the beginning of the turn'),
});
