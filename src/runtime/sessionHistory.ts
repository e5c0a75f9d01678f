import type { Store, StoredEvent } from '../store/store.js';
import type { TurnEvent } from '../core/events.js';
import { DEFAULT_PROJECTION_LIMITS, type TurnRecord } from './projectTranscript.js';
import { ACTIVATE_SKILL } from '../tools/skills/skillTools.js';

// The recent turns of a session, rebuilt from its stored events. Each turn reads only the
// events appended since the last read (by this or any other process), so the cost per
// turn stays O(new events) however long the session grows.

interface CachedSession {
  lastSeq: number;
  turns: TurnRecord[];
}

const MAX_CACHED_SESSIONS = 1_000;
const cache = new WeakMap<Store, Map<string, CachedSession>>();

/** The turn as it reads once its question is withdrawn: nobody awaits an answer, no remote task waits for one. */
function withdrawn(turn: TurnRecord): TurnRecord {
  const remoteConversations = turn.remoteConversations && new Map([...turn.remoteConversations].map(([agent, { contextId }]) => [agent, { contextId, waitingTaskId: '' }]));
  return { turnId: turn.turnId, input: turn.input, entries: turn.entries, remoteConversations, skills: turn.skills };
}

/** The session's last turn when it ended on a question nobody has answered or withdrawn yet. */
export function openQuestion(history: readonly TurnRecord[]): TurnRecord | undefined {
  const last = history[history.length - 1];
  if (last === undefined) return undefined;
  const remoteWaits = [...(last.remoteConversations?.values() ?? [])].some((conversation) => conversation.waitingTaskId !== '');
  return last.awaiting !== undefined || remoteWaits ? last : undefined;
}

function applyEvents(session: CachedSession, events: readonly StoredEvent[]): void {
  for (const { seq, event } of events) {
    session.lastSeq = seq;
    if (event.type === 'turn-start') {
      session.turns.push({ turnId: event.turnId, input: event.input, entries: [] });
    } else if (event.type === 'message' && event.text) {
      const turn = session.turns[session.turns.length - 1];
      if (turn?.turnId === event.turnId) turn.entries.push({ agent: event.agent, text: event.text });
    } else if (event.type === 'turn-end' && event.status === 'input-required') {
      const turn = session.turns[session.turns.length - 1];
      // The asking agent stored its question as its message just before the turn ended.
      if (turn?.turnId === event.turnId) turn.awaiting = turn.entries.findLast((entry) => entry.text === event.output)?.agent;
    } else if (event.type === 'tool-result' && event.tool === ACTIVATE_SKILL && !event.isError) {
      const turn = session.turns[session.turns.length - 1];
      const output = event.output as { skill?: unknown; instructions?: unknown } | null;
      if (turn?.turnId === event.turnId && typeof output?.skill === 'string' && typeof output.instructions === 'string') {
        (turn.skills ??= []).push({ agent: event.agent, name: output.skill, instructions: output.instructions });
      }
    } else if (event.type === 'remote-conversation') {
      const turn = session.turns[session.turns.length - 1];
      if (turn?.turnId === event.turnId) (turn.remoteConversations ??= new Map()).set(event.agent, { contextId: event.contextId, waitingTaskId: event.waitingTaskId });
    } else if (event.type === 'question-withdrawn') {
      const last = session.turns.length - 1;
      // Replaced, not changed in place: histories handed out before keep the turn as they saw it.
      if (session.turns[last]?.turnId === event.turnId) session.turns[last] = withdrawn(session.turns[last]);
    }
  }
  // Keep one turn more than any projection can use.
  const excess = session.turns.length - (DEFAULT_PROJECTION_LIMITS.maxTurns + 1);
  if (excess > 0) session.turns.splice(0, excess);
}

/**
 * `storedEvents` is the session's event count as the store reports it (its last seq): equal
 * to what is cached means nothing to read; lower means the session was deleted and
 * recreated (seq restarts), so the cache is dropped.
 */
export async function loadSessionHistory(store: Store, sessionId: string, storedEvents: number): Promise<readonly TurnRecord[]> {
  let sessions = cache.get(store);
  if (!sessions) {
    sessions = new Map();
    cache.set(store, sessions);
  }
  let session = sessions.get(sessionId);
  if (!session || storedEvents < session.lastSeq) {
    session = { lastSeq: 0, turns: [] };
    if (sessions.size >= MAX_CACHED_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    sessions.set(sessionId, session);
  }
  if (storedEvents > session.lastSeq) applyEvents(session, await store.readEvents(sessionId, { afterSeq: session.lastSeq, limit: storedEvents - session.lastSeq }));
  // A copy: this turn's own events join the cache as they are committed, and must not show up
  // in its own agents' view of earlier turns.
  return session.turns.slice();
}

/** The session's recent turns as stored; none for a session the store does not have. */
export async function storedHistory(store: Store, sessionId: string): Promise<readonly TurnRecord[]> {
  const session = await store.getSession(sessionId);
  return session ? loadSessionHistory(store, sessionId, session.eventCount) : [];
}

/**
 * The session's recent turns as this process has them cached, through seq `lastSeq`, if it has: a
 * turn can start from them and check, from the seq its first batch gets, that nothing came between.
 */
export function cachedHistory(store: Store, sessionId: string): { lastSeq: number; turns: readonly TurnRecord[] } | undefined {
  const session = cache.get(store)?.get(sessionId);
  return session && { lastSeq: session.lastSeq, turns: session.turns.slice() };
}

/**
 * Applies a batch this process just appended, so the next turn need not read it back. Only when
 * it directly follows what is cached; otherwise (another writer got in between) the next turn's
 * read catches up in order.
 */
export function recordAppended(store: Store, sessionId: string, events: readonly TurnEvent[], lastSeq: number): void {
  const session = cache.get(store)?.get(sessionId);
  const firstSeq = lastSeq - events.length + 1;
  if (!session || session.lastSeq !== firstSeq - 1) return;
  applyEvents(session, events.map((event, i) => ({ seq: firstSeq + i, sessionId, event })));
}
