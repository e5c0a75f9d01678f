import { z } from 'zod';
import type { TurnEvent } from '../../../core/events.js';
import { SESSION_TITLE_LENGTH } from '../../../store/sessionTitle.js';
import type { ListedSession, ListSessionsOptions, SessionCursor, SessionRecord, Store, TurnOutcome } from '../../../store/store.js';
import { hasRole, type ApiCaller } from '../../caller.js';
import type { SyndicateRegistry } from '../../context.js';
import { opaqueCursor } from '../../http/cursor.js';
import { defineRoute, fail, json, noContent, type AnyRoute, type Reply } from '../../http/route.js';
import { maySeeSession, newSessionId, ownedSessionPrefixes } from '../../sessionAccess.js';

// The stored sessions of the caller (an admin: everyone's): list, transcript, delete, fork.
// Another user's session answers 404 like a missing one (sessionAccess.ts).

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

const sessionSchema = z.object({
  id: z.string(),
  syndicate: z.string(),
  createdAt: z.number().int().describe('Milliseconds since the epoch'),
  updatedAt: z.number().int().describe('Milliseconds since the epoch: the last event, or the creation'),
  eventCount: z.number().int().describe('Also the seq of the last event'),
});

const outcomes = ['completed', 'failed', 'cancelled', 'input-required', 'interrupted'] as const satisfies readonly TurnOutcome[];

const listedSchema = sessionSchema.extend({
  title: z.string().nullable().describe(`The session's first message (its first turn's input), up to ${SESSION_TITLE_LENGTH} characters; null when its first event started no turn`),
  lastTurn: z
    .object({
      outcome: z
        .enum(outcomes)
        .describe("Its turn-end's status, except `interrupted`: the server shut down before the turn finished within its grace period, and cancelled it (a message to the session goes on from there)"),
      endedAt: z.number().int().describe('Milliseconds since the epoch'),
    })
    .nullable()
    .describe('How the last turn that has ended ended (a later one may be running); null while no turn has ended'),
});

// A page ends at its last session: when it was updated, and its id.
const cursor = opaqueCursor(z.object({ u: z.number().int(), i: z.string() }).transform((parsed): SessionCursor => ({ updatedAt: parsed.u, id: parsed.i })));

const idParams = z.object({ id: z.string().min(1).max(300).describe('The session id, URL-encoded (it contains ":")') });

function sessionOf(record: SessionRecord): z.infer<typeof sessionSchema> {
  const { id, syndicate, createdAt, updatedAt, eventCount } = record;
  return { id, syndicate, createdAt, updatedAt, eventCount };
}

function listedOf(record: ListedSession): z.infer<typeof listedSchema> {
  return { ...sessionOf(record), title: record.title, lastTurn: record.lastTurn };
}

function notFound(id: string) {
  return fail(404, `no session '${id}' of yours; list yours with GET /sessions`);
}

/** Which sessions the caller may list: their own; an admin's chosen user's, or everyone's (undefined). */
function prefixesFor(caller: ApiCaller, user: string | undefined): string[] | undefined {
  if (!hasRole(caller, 'admin')) return ownedSessionPrefixes(caller.userId);
  return user === undefined ? undefined : ownedSessionPrefixes(user);
}

/**
 * A member or viewer may name only themselves in `user`. Another id is refused (an ignored filter
 * would answer a question the client did not ask) with one answer for every id, so it never tells
 * whether that user exists.
 */
function refusedUserFilter(caller: ApiCaller, user: string | undefined): Reply | undefined {
  if (user === undefined || user === caller.userId || hasRole(caller, 'admin')) return undefined;
  return fail(403, `only admins list another user's sessions; you are ${caller.role} '${caller.userId}': leave out user, or send user=${caller.userId}`, {
    errors: [{ pointer: '#/query/user', detail: `not your user id ('${caller.userId}')` }],
  });
}

// The store's order: the most recently updated first, then by id.
const storeOrder = (a: SessionRecord, b: SessionRecord): number => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** One page of the sessions under any of the prefixes: each prefix's page (an id range scan), merged in the store's order. */
async function listUnder(store: Store, prefixes: string[] | undefined, options: ListSessionsOptions & { limit: number }): Promise<ListedSession[]> {
  if (prefixes === undefined) return store.listSessions(options);
  const pages = await Promise.all(prefixes.map((idPrefix) => store.listSessions({ ...options, idPrefix })));
  return pages.flat().sort(storeOrder).slice(0, options.limit);
}

export function sessionRoutes(store: () => Promise<Store>, registry: SyndicateRegistry): AnyRoute[] {
  const visible = async (caller: ApiCaller, id: string): Promise<SessionRecord | undefined> =>
    maySeeSession(caller, id) ? (await store()).getSession(id) : undefined;
  return [
    defineRoute({
      method: 'get',
      path: '/sessions',
      operationId: 'listSessions',
      summary: 'Your sessions, most recently updated first, a page at a time',
      description: 'Members and viewers see their own sessions (their conversations, and the runs of their scheduled tasks); an admin sees everyone\'s, or one user\'s with `user`.',
      tag: 'Sessions',
      access: 'viewer',
      query: z.object({
        syndicate: z.string().min(1).max(64).optional().describe('A syndicate id'),
        user: z
          .string()
          .regex(/^[A-Za-z0-9._-]{1,64}$/)
          .optional()
          .describe("Only this user's sessions. Only admins filter by other users: a member or viewer may name only themselves, and any other id is a 403, whether or not that user exists."),
        limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
        cursor: cursor.schema.optional().describe('nextCursor of the previous page'),
        q: z.string().min(1).max(200).optional().describe('Only the sessions whose title or id contains this text, ignoring case'),
      }),
      responses: {
        200: { description: 'A page of sessions', schema: z.object({ sessions: z.array(listedSchema), nextCursor: z.string().nullable() }) },
        403: { description: 'A member or viewer named another user in `user`' },
      },
      handle: async ({ query, caller }) => {
        const refused = refusedUserFilter(caller, query.user);
        if (refused) return refused;
        const syndicate = query.syndicate === undefined ? undefined : (registry.get(query.syndicate)?.current?.name ?? query.syndicate);
        const db = await store();
        // One more than the page says whether there is a next one.
        const rows = await listUnder(db, prefixesFor(caller, query.user), { syndicate, limit: query.limit + 1, after: query.cursor, query: query.q });
        const page = rows.slice(0, query.limit);
        return json({ sessions: page.map(listedOf), nextCursor: rows.length > query.limit ? cursor.encode({ u: page.at(-1)!.updatedAt, i: page.at(-1)!.id }) : null });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/sessions/:id',
      operationId: 'getSession',
      summary: 'One session',
      tag: 'Sessions',
      access: 'viewer',
      params: idParams,
      responses: { 200: { description: 'The session, with its title and how its last turn ended', schema: z.object({ session: listedSchema }) }, 404: { description: 'No such session of yours' } },
      handle: async ({ params, caller }) => {
        const session = maySeeSession(caller, params.id) ? (await (await store()).listSessions({ id: params.id }))[0] : undefined;
        return session ? json({ session: listedOf(session) }) : notFound(params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/sessions/:id/events',
      operationId: 'listSessionEvents',
      summary: "The session's stored transcript: its events in order",
      tag: 'Sessions',
      access: 'viewer',
      params: idParams,
      query: z.object({
        after: z.coerce.number().int().min(0).default(0).describe('Only events after this seq'),
        limit: z.coerce.number().int().min(1).max(10_000).default(1_000),
      }),
      responses: {
        200: { description: 'Events with their seqs', schema: z.object({ events: z.array(z.object({ seq: z.number().int(), event: z.custom<TurnEvent>().describe('A TurnEvent') })) }) },
        404: { description: 'No such session of yours' },
      },
      handle: async ({ params, query, caller }) => {
        if (!(await visible(caller, params.id))) return notFound(params.id);
        const events = await (await store()).readEvents(params.id, { afterSeq: query.after, limit: query.limit });
        return json({ events: events.map(({ seq, event }) => ({ seq, event })) });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/sessions/:id',
      operationId: 'deleteSession',
      summary: 'Deletes a session and its events (its usage stays in the ledger)',
      tag: 'Sessions',
      access: 'member',
      params: idParams,
      responses: { 204: { description: 'Deleted' }, 404: { description: 'No such session of yours' } },
      handle: async ({ params, caller }) => {
        if (!maySeeSession(caller, params.id) || !(await (await store()).deleteSession(params.id))) return notFound(params.id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'post',
      path: '/sessions/:id/fork',
      operationId: 'forkSession',
      summary: 'A new session of yours holding the events 1..atSeq of this one',
      tag: 'Sessions',
      access: 'member',
      params: idParams,
      body: z.strictObject({ atSeq: z.number().int().min(0).describe('The last event to copy') }),
      responses: {
        201: { description: 'The new session, with its title and how its last turn ended', schema: z.object({ session: listedSchema }) },
        404: { description: 'No such session of yours' },
        422: { description: 'atSeq is past the last event' },
      },
      handle: async ({ params, body, caller }) => {
        const source = await visible(caller, params.id);
        if (!source) return notFound(params.id);
        if (body.atSeq > source.eventCount) return fail(422, `atSeq ${body.atSeq} is past the session's last event (${source.eventCount}); fork at a seq from 0 to ${source.eventCount}`);
        const db = await store();
        const events = body.atSeq === 0 ? [] : await db.readEvents(params.id, { limit: body.atSeq });
        const forked = newSessionId(caller.userId);
        await db.openSession(forked, source.syndicate, { isNew: true });
        await db.appendEvents(forked, events.map((stored) => stored.event));
        return json({ session: listedOf((await db.listSessions({ id: forked }))[0]!) }, 201);
      },
    }),
  ];
}
