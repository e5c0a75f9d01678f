import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventOf } from '../../src/core/events.js';
import { SESSION_TITLE_LENGTH } from '../../src/store/sessionTitle.js';
import type { Store, UsageRow } from '../../src/store/store.js';

// The behaviour every Store implementation must show. `open` is called before every test and must
// return a store over the same persistent data each time (the reopen test depends on it); each
// test closes its store. Tests use fresh session ids and syndicate names, so they tolerate data
// left by earlier tests. `cleanup` runs once, after the last test.

function uniqueId(label: string): string {
  return `${label}-${randomUUID()}`;
}

function messageEvent(text: string, turnId = 'turn-1'): TurnEvent {
  return { type: 'message', text, turnId, agent: 'orchestrator', at: 1_700_000_000_000, depth: 0 };
}

function turnStart(input: string, turnId = 'turn-1'): TurnEvent {
  return { type: 'turn-start', syndicate: 'council', input, turnId, agent: 'orchestrator', at: 1_700_000_000_000, depth: 0 };
}

function turnEnd(end: Partial<TurnEventOf<'turn-end'>>, turnId = 'turn-1'): TurnEvent {
  return { type: 'turn-end', status: 'completed', output: '', ...end, turnId, agent: 'orchestrator', at: 1_700_000_000_000, depth: 0 };
}

/** The title the session has in a list of sessions. */
async function listedTitle(store: Store, id: string): Promise<string | null | undefined> {
  return (await store.listSessions({ idPrefix: id })).find((session) => session.id === id)?.title;
}

function messages(count: number, prefix = 'message'): TurnEvent[] {
  return Array.from({ length: count }, (_, index) => messageEvent(`${prefix} ${index}`));
}

/** Resolves once Date.now() has moved past its current value, so timestamps taken after differ. */
export async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() <= start) await new Promise((resolve) => setTimeout(resolve, 1));
}

const richEvents: TurnEvent[] = [
  { type: 'turn-start', syndicate: 'council', input: 'Ünïcödé 🚀 中文 עברית e\u0301', turnId: 't', agent: 'root', at: 1, depth: 0 },
  {
    type: 'tool-call',
    tool: 'calculator',
    callId: 'call-1',
    input: { expression: '1 + 2', nested: { list: [1, -2.5, null, true, 'x', { deep: ['🧪'] }], empty: {} } },
    turnId: 't',
    agent: 'math',
    at: Number.MAX_SAFE_INTEGER,
    depth: 1,
  },
  // Tool output is arbitrary text: a NUL and a lone surrogate must survive too.
  { type: 'tool-result', tool: 'calculator', callId: 'call-1', output: 'nul\u0000 lone\ud800', isError: false, turnId: 't', agent: 'math', at: 3, depth: 1 },
  { type: 'usage', provider: 'scripted', model: 'scripted', inputTokens: 10, outputTokens: 20, reasoningTokens: 0, cachedInputTokens: 5, latencyMs: 12.5, outcome: 'ok', turnId: 't', agent: 'root', at: 4, depth: 0 },
  { type: 'turn-end', status: 'failed', output: '', error: 'quote " backslash \\ newline \n', turnId: 't', agent: 'root', at: 5, depth: 0 },
];

export function usageRow(syndicate: string, overrides: Partial<UsageRow> = {}): UsageRow {
  return {
    at: 1_700_000_000_000,
    syndicate,
    sessionId: 'session-1',
    turnId: 'turn-1',
    agent: 'orchestrator',
    provider: 'anthropic.messages',
    model: 'claude-sonnet-4-5',
    inputTokens: 1_200,
    outputTokens: 300,
    reasoningTokens: 120,
    cachedInputTokens: 1_000,
    latencyMs: 812.25,
    outcome: 'ok',
    turnStatus: 'completed',
    ...overrides,
  };
}

export function describeStoreConformance(name: string, open: () => Promise<Store>, cleanup?: () => Promise<void>): void {
  describe(`Store conformance: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    if (cleanup) afterAll(cleanup);

    it('creates a session with no events on first open', async () => {
      const id = uniqueId('s');
      const before = Date.now();
      const session = await store.openSession(id, 'council');
      expect(session).toStrictEqual({
        id,
        syndicate: 'council',
        createdAt: session.createdAt,
        updatedAt: session.createdAt,
        eventCount: 0,
      });
      expect(session.createdAt).toBeGreaterThanOrEqual(before);
      expect(session.createdAt).toBeLessThanOrEqual(Date.now());
    });

    it('returns the same record when a session is opened twice', async () => {
      const id = uniqueId('s');
      const first = await store.openSession(id, 'council');
      await nextMillisecond();
      const second = await store.openSession(id, 'council');
      expect(second).toStrictEqual(first);
      expect(await store.getSession(id)).toStrictEqual(first);
    });

    it('returns undefined from getSession for an unknown id', async () => {
      expect(await store.getSession(uniqueId('missing'))).toBeUndefined();
    });

    it('reads events back in append order with identical payloads', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, richEvents.slice(0, 2));
      await store.appendEvents(id, richEvents.slice(2));
      const stored = await store.readEvents(id);
      expect(stored.map((entry) => entry.event)).toStrictEqual(richEvents);
      expect(stored.every((entry) => entry.sessionId === id)).toBe(true);
    });

    it('resolves an append to the seq of the batch’s last event', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');

      expect(await store.appendEvents(id, messages(3, 'first'))).toBe(3);
      expect(await store.appendEvents(id, messages(2, 'second'))).toBe(5);
      expect(await store.appendEvents(id, [])).toBe(5);
    });

    it('numbers events 1, 2, 3… within a session, and eventCount is the last seq', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      for (let batch = 0; batch < 4; batch += 1) await store.appendEvents(id, messages(3, `batch ${batch}`));
      const seqs = (await store.readEvents(id)).map((entry) => entry.seq);
      expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect((await store.openSession(id, 'council')).eventCount).toBe(12);
    });

    // A fork at a late seq, an import or a long transcript appends one batch this large; storing
    // one on SQLite once took time that grew with the square of its size (10,000 events: 83 s).
    it('stores one batch of 20,000 events whole and in order, numbered on from the events before it', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      const batch = messages(20_000, 'large');
      await store.appendEvents(id, messages(1, 'before'));

      expect(await store.appendEvents(id, batch)).toBe(20_001);
      expect(await store.appendEvents(id, messages(1, 'after'))).toBe(20_002);
      const stored = await store.readEvents(id);
      expect(stored.map((entry) => entry.seq)).toStrictEqual(Array.from({ length: 20_002 }, (_, index) => index + 1));
      expect(stored.map((entry) => entry.event)).toStrictEqual([...messages(1, 'before'), ...batch, ...messages(1, 'after')]);
      expect((await store.getSession(id))?.eventCount).toBe(20_002);
    });

    it('keeps seq increasing within a session when appends to sessions interleave', async () => {
      const a = uniqueId('a');
      const b = uniqueId('b');
      await store.openSession(a, 'council');
      await store.openSession(b, 'council');
      for (let round = 0; round < 3; round += 1) {
        await store.appendEvents(a, messages(2, `a${round}`));
        await store.appendEvents(b, messages(1, `b${round}`));
      }
      for (const id of [a, b]) {
        const seqs = (await store.readEvents(id)).map((entry) => entry.seq);
        seqs.slice(1).forEach((seq, index) => expect(seq).toBeGreaterThan(seqs[index]!));
      }
    });

    it('returns only events after afterSeq', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, messages(5));
      const all = await store.readEvents(id);
      const rest = await store.readEvents(id, { afterSeq: all[1]!.seq });
      expect(rest).toStrictEqual(all.slice(2));
      expect(await store.readEvents(id, { afterSeq: all[4]!.seq })).toStrictEqual([]);
    });

    it('returns at most limit events, and pages through a session with afterSeq and limit', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, messages(7));
      const all = await store.readEvents(id);
      expect(await store.readEvents(id, { limit: 3 })).toStrictEqual(all.slice(0, 3));

      const paged = [];
      let afterSeq = 0;
      while (true) {
        const page = await store.readEvents(id, { afterSeq, limit: 3 });
        if (page.length === 0) break;
        paged.push(...page);
        afterSeq = page[page.length - 1]!.seq;
      }
      expect(paged).toStrictEqual(all);
    });

    it('stores none of a batch when one of its events cannot be stored, and throws', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, messages(2, 'before'));
      const before = await store.getSession(id);
      const unserialisable: TurnEvent = {
        type: 'tool-call',
        tool: 'calculator',
        callId: 'call-1',
        input: { value: 10n },
        turnId: 'turn-1',
        agent: 'orchestrator',
        at: 1,
        depth: 0,
      };

      await expect(store.appendEvents(id, [messageEvent('first'), unserialisable, messageEvent('last')])).rejects.toThrow();

      expect((await store.readEvents(id)).map((entry) => entry.event)).toStrictEqual(messages(2, 'before'));
      expect(await store.getSession(id)).toStrictEqual(before);
    });

    it('accepts appends to a session after a failed batch', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      const bad: TurnEvent = { ...messageEvent('bad'), type: 'tool-call', tool: 't', callId: 'c', input: 1n };
      await expect(store.appendEvents(id, [bad])).rejects.toThrow();
      await store.appendEvents(id, messages(2));
      expect((await store.readEvents(id)).map((entry) => entry.event)).toStrictEqual(messages(2));
    });

    it('keeps the events of one session out of another', async () => {
      const a = uniqueId('a');
      const b = uniqueId('b');
      await store.openSession(a, 'council');
      await store.openSession(b, 'council');
      await store.appendEvents(a, messages(3, 'for a'));
      expect(await store.readEvents(b)).toStrictEqual([]);
      expect((await store.getSession(b))!.eventCount).toBe(0);
    });

    it('returns no events for an unknown session', async () => {
      expect(await store.readEvents(uniqueId('missing'))).toStrictEqual([]);
    });

    it('counts appended events and moves updatedAt forward, leaving createdAt alone', async () => {
      const id = uniqueId('s');
      const opened = await store.openSession(id, 'council');
      await nextMillisecond();
      await store.appendEvents(id, messages(3));
      await store.appendEvents(id, messages(2));
      const after = (await store.getSession(id))!;
      expect(after.eventCount).toBe(5);
      expect(after.createdAt).toBe(opened.createdAt);
      expect(after.updatedAt).toBeGreaterThan(opened.updatedAt);
    });

    it('lists sessions most recently updated first', async () => {
      const syndicate = uniqueId('syndicate');
      const [first, second, third] = [uniqueId('first'), uniqueId('second'), uniqueId('third')];
      for (const id of [first, second, third]) {
        await store.openSession(id, syndicate);
        await nextMillisecond();
      }
      await store.appendEvents(first, messages(1));
      const listed = await store.listSessions({ syndicate });
      expect(listed.map((session) => session.id)).toStrictEqual([first, third, second]);
      expect(listed[0]).toStrictEqual({ ...(await store.getSession(first)), title: null, lastTurn: null });
    });

    it('lists a session with how its last ended turn ended and when, while a later turn runs', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, [turnStart('first'), turnEnd({ status: 'failed', error: 'the model failed' })]);
      const endedAt = (await store.getSession(id))!.updatedAt;
      await nextMillisecond();

      await store.appendEvents(id, [turnStart('second', 'turn-2'), messageEvent('still going', 'turn-2')]);

      expect((await store.listSessions({ idPrefix: id }))[0]!.lastTurn).toStrictEqual({ outcome: 'failed', endedAt });
    });

    it('lists a session whose last turn the server shutdown cancelled as interrupted', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');

      await store.appendEvents(id, [turnStart('long one'), turnEnd({ status: 'cancelled', error: 'the turn was cancelled: interrupted: the server shut down', interrupted: true })]);

      expect((await store.listSessions({ idPrefix: id }))[0]!.lastTurn?.outcome).toBe('interrupted');
    });

    it('lists a session whose last turn someone cancelled as cancelled', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');

      await store.appendEvents(id, [turnStart('long one'), turnEnd({ status: 'cancelled', error: 'the turn was cancelled' })]);

      expect((await store.listSessions({ idPrefix: id }))[0]!.lastTurn?.outcome).toBe('cancelled');
    });

    it('lists one session by its id, with its title and how its last turn ended', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, [turnStart('long one'), turnEnd({ status: 'cancelled', error: 'the turn was cancelled: interrupted: the server shut down', interrupted: true })]);
      const endedAt = (await store.getSession(id))!.updatedAt;

      expect(await store.listSessions({ id })).toStrictEqual([{ ...(await store.getSession(id)), title: 'long one', lastTurn: { outcome: 'interrupted', endedAt } }]);
    });

    it('lists by id only the session with that very id, not those it is a prefix of', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.openSession(`${id}-2`, 'council');

      expect((await store.listSessions({ id })).map((session) => session.id)).toStrictEqual([id]);
    });

    it('lists no session by an id no session has', async () => {
      expect(await store.listSessions({ id: uniqueId('missing') })).toStrictEqual([]);
    });

    it("lists a session titled by its first turn's input", async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');

      await store.appendEvents(id, [turnStart('Should we adopt a four-day week?'), messageEvent('yes')]);

      expect(await listedTitle(store, id)).toBe('Should we adopt a four-day week?');
    });

    it('keeps the first title when later turns start', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, [turnStart('the first question')]);

      await store.appendEvents(id, [turnStart('a later question', 'turn-2')]);

      expect(await listedTitle(store, id)).toBe('the first question');
    });

    it('lists a session without events, or whose first event starts no turn, untitled', async () => {
      const [empty, untitled] = [uniqueId('empty'), uniqueId('untitled')];
      await store.openSession(empty, 'council');
      await store.openSession(untitled, 'council');

      await store.appendEvents(untitled, [messageEvent('no turn started'), turnStart('too late')]);

      expect(await listedTitle(store, empty)).toBeNull();
      expect(await listedTitle(store, untitled)).toBeNull();
    });

    it('titles a session that an append with openFor creates', async () => {
      const id = uniqueId('opened-by-append');

      await store.appendEvents(id, [turnStart('opened by its first turn')], { openFor: 'council' });

      expect(await listedTitle(store, id)).toBe('opened by its first turn');
    });

    it('titles a session by the first SESSION_TITLE_LENGTH code points of its first message, a NUL or lone surrogate as U+FFFD', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');

      await store.appendEvents(id, [turnStart(`nul\u0000 lone\ud800 ${'🚀'.repeat(SESSION_TITLE_LENGTH)}`)]);

      const title = 'nul\ufffd lone\ufffd ';
      expect(await listedTitle(store, id)).toBe(title + '🚀'.repeat(SESSION_TITLE_LENGTH - Array.from(title).length));
      expect((await store.readEvents(id))[0]!.event).toStrictEqual(turnStart(`nul\u0000 lone\ud800 ${'🚀'.repeat(SESSION_TITLE_LENGTH)}`));
    });

    it('lists only the sessions whose title contains the query, ignoring case', async () => {
      const syndicate = uniqueId('search');
      const [hiring, budget] = [uniqueId('s'), uniqueId('s')];
      for (const [id, input] of [[hiring, 'Should we hire a Designer?'], [budget, 'Cut the budget']] as const) {
        await store.openSession(id, syndicate);
        await store.appendEvents(id, [turnStart(input)]);
      }

      const listed = await store.listSessions({ syndicate, query: 'a dESIGNER' });

      expect(listed.map((session) => session.id)).toStrictEqual([hiring]);
    });

    it('lists the sessions whose id contains the query, titled or not', async () => {
      const owner = uniqueId('api:dora');
      await store.openSession(`${owner}:untitled`, 'council');
      await store.openSession(uniqueId('api:erin'), 'council');

      const listed = await store.listSessions({ query: owner.toUpperCase() });

      expect(listed.map((session) => session.id)).toStrictEqual([`${owner}:untitled`]);
    });

    it('matches %, _ and \\ in the query as themselves', async () => {
      const syndicate = uniqueId('search');
      const titles = ['100% sure', '1000 sure', 'snake_case', 'snakeXcase', 'back\\slash', 'backslash'];
      for (const title of titles) {
        const id = uniqueId('s');
        await store.openSession(id, syndicate);
        await store.appendEvents(id, [turnStart(title)]);
      }
      const found = async (query: string) => (await store.listSessions({ syndicate, query })).map((session) => session.title);

      expect(await found('0% s')).toStrictEqual(['100% sure']);
      expect(await found('e_c')).toStrictEqual(['snake_case']);
      expect(await found('k\\s')).toStrictEqual(['back\\slash']);
    });

    it('pages through the sessions a query finds, combined with the other filters', async () => {
      const owner = uniqueId('api:fay');
      const syndicate = uniqueId('search');
      const ids: string[] = [];
      for (const [index, input] of ['budget one', 'other', 'budget two', 'budget three'].entries()) {
        const id = `${owner}:${index}`;
        await store.openSession(id, syndicate);
        await store.appendEvents(id, [turnStart(input)]);
        if (input.startsWith('budget')) ids.push(id);
        await nextMillisecond();
      }
      await store.openSession(`${owner}:elsewhere`, uniqueId('search'));
      await store.appendEvents(`${owner}:elsewhere`, [turnStart('budget elsewhere')]);

      const options = { idPrefix: `${owner}:`, syndicate, query: 'BUDGET', limit: 2 };
      const first = await store.listSessions(options);
      const last = first.at(-1)!;
      const second = await store.listSessions({ ...options, after: { updatedAt: last.updatedAt, id: last.id } });

      expect([...first, ...second].map((session) => session.id)).toStrictEqual([...ids].reverse());
    });

    it('keeps the title of a session when closed and reopened', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, [turnStart('remembered')]);
      await store.close();

      store = await open();

      expect(await listedTitle(store, id)).toBe('remembered');
    });

    it('lists at most limit sessions', async () => {
      const syndicate = uniqueId('syndicate');
      const [older, newer] = [uniqueId('older'), uniqueId('newer')];
      await store.openSession(older, syndicate);
      await nextMillisecond();
      await store.openSession(newer, syndicate);
      expect((await store.listSessions({ syndicate, limit: 1 })).map((session) => session.id)).toStrictEqual([newer]);
    });

    it('lists only the sessions of the requested syndicate', async () => {
      const [mine, theirs] = [uniqueId('mine'), uniqueId('theirs')];
      const [mineId, theirsId] = [uniqueId('s'), uniqueId('s')];
      await store.openSession(mineId, mine);
      await store.openSession(theirsId, theirs);
      expect((await store.listSessions({ syndicate: mine })).map((session) => session.id)).toStrictEqual([mineId]);
      const everyone = (await store.listSessions()).map((session) => session.id);
      expect(everyone).toEqual(expect.arrayContaining([mineId, theirsId]));
    });

    it('lists only the sessions whose id starts with the prefix', async () => {
      const owner = uniqueId('api:alice');
      const [mine, nested, other] = [`${owner}:one`, `${owner}:two:x`, `${owner}x:three`];
      for (const id of [mine, nested, other]) await store.openSession(id, 'council');
      const listed = (await store.listSessions({ idPrefix: `${owner}:` })).map((session) => session.id);
      expect(listed.sort()).toStrictEqual([mine, nested].sort());
    });

    it('combines the prefix and syndicate filters', async () => {
      const owner = uniqueId('api:bob');
      const [syndicate, elsewhere] = [uniqueId('syndicate'), uniqueId('syndicate')];
      await store.openSession(`${owner}:a`, syndicate);
      await store.openSession(`${owner}:b`, elsewhere);
      await store.openSession(uniqueId('api:carol'), syndicate);
      expect((await store.listSessions({ idPrefix: `${owner}:`, syndicate })).map((session) => session.id)).toStrictEqual([`${owner}:a`]);
    });

    it('pages through sessions after a cursor without repeating or skipping one, ties included', async () => {
      const syndicate = uniqueId('paging');
      const ids: string[] = [];
      for (let index = 0; index < 5; index++) {
        ids.push(`${syndicate}:${index}`);
        await store.openSession(ids[index]!, syndicate);
        // Two sessions per millisecond at most: pages must break ties by id.
        if (index % 2 === 1) await nextMillisecond();
      }
      const everything = (await store.listSessions({ syndicate })).map((session) => session.id);
      const paged: string[] = [];
      let after: { updatedAt: number; id: string } | undefined;
      for (;;) {
        const page = await store.listSessions({ syndicate, limit: 2, after });
        paged.push(...page.map((session) => session.id));
        if (page.length < 2) break;
        const last = page.at(-1)!;
        after = { updatedAt: last.updatedAt, id: last.id };
      }
      expect(paged).toStrictEqual(everything);
      expect([...paged].sort()).toStrictEqual([...ids].sort());
    });

    it('deletes a session together with its events, leaving other sessions intact', async () => {
      const [doomed, kept] = [uniqueId('doomed'), uniqueId('kept')];
      await store.openSession(doomed, 'council');
      await store.openSession(kept, 'council');
      await store.appendEvents(doomed, messages(3));
      await store.appendEvents(kept, messages(2));

      expect(await store.deleteSession(doomed)).toBe(true);

      expect(await store.getSession(doomed)).toBeUndefined();
      expect(await store.readEvents(doomed)).toStrictEqual([]);
      expect((await store.readEvents(kept)).map((entry) => entry.event)).toStrictEqual(messages(2));
    });

    it('prunes the sessions last updated before the cutoff, with their events, keeping newer ones and usage rows', async () => {
      const [syndicate, stale, fresh] = [uniqueId('retention'), uniqueId('stale'), uniqueId('fresh')];
      await store.openSession(stale, syndicate);
      await store.appendEvents(stale, messages(2));
      await store.recordUsage([usageRow(syndicate, { sessionId: stale })]);
      await nextMillisecond();
      const cutoff = Date.now();
      await store.openSession(fresh, syndicate);

      expect(await store.pruneSessions(cutoff)).toBeGreaterThanOrEqual(1);

      expect(await store.getSession(stale)).toBeUndefined();
      expect(await store.readEvents(stale)).toStrictEqual([]);
      expect((await store.listSessions({ syndicate })).map((session) => session.id)).toStrictEqual([fresh]);
      expect(await store.queryUsage({ syndicate })).toStrictEqual([usageRow(syndicate, { sessionId: stale })]);
    });

    it('keeps a session whose last append is after the cutoff, however old its creation', async () => {
      const id = uniqueId('revived');
      await store.openSession(id, 'council');
      await nextMillisecond();
      const cutoff = Date.now();
      await store.appendEvents(id, messages(1));

      await store.pruneSessions(cutoff);

      expect((await store.getSession(id))?.eventCount).toBe(1);
    });

    it('returns false when deleting an unknown session', async () => {
      expect(await store.deleteSession(uniqueId('missing'))).toBe(false);
    });

    it('lets a deleted session id be opened afresh, with no events', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, messages(2));
      await store.deleteSession(id);
      expect((await store.openSession(id, 'council')).eventCount).toBe(0);
      expect(await store.readEvents(id)).toStrictEqual([]);
    });

    it('rejects an append to a session that was never opened, naming it', async () => {
      const id = uniqueId('never-opened');
      await expect(store.appendEvents(id, messages(1))).rejects.toThrow(id);
      expect(await store.getSession(id)).toBeUndefined();
      expect(await store.readEvents(id)).toStrictEqual([]);
    });

    it('creates the session an append with openFor names, holding the batch as its first events', async () => {
      const id = uniqueId('opened-by-append');

      const seq = await store.appendEvents(id, messages(2), { openFor: 'council' });

      expect(seq).toBe(2);
      expect(await store.getSession(id)).toMatchObject({ id, syndicate: 'council', eventCount: 2 });
      expect((await store.readEvents(id)).map(({ seq, event }) => [seq, event])).toStrictEqual(messages(2).map((event, i) => [i + 1, event]));
    });

    it('appends after the events of a session that exists when an append with openFor names it, keeping its syndicate', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, messages(2));

      const seq = await store.appendEvents(id, messages(1, 'later'), { openFor: 'another' });

      expect(seq).toBe(3);
      expect(await store.getSession(id)).toMatchObject({ syndicate: 'council', eventCount: 3 });
      expect((await store.readEvents(id, { afterSeq: 2 })).map(({ event }) => event)).toStrictEqual(messages(1, 'later'));
    });

    it('keeps sessions and events when closed and reopened', async () => {
      const id = uniqueId('s');
      await store.openSession(id, 'council');
      await store.appendEvents(id, richEvents);
      const session = await store.getSession(id);
      const events = await store.readEvents(id);
      await store.close();

      store = await open();
      expect(await store.getSession(id)).toStrictEqual(session);
      expect(await store.readEvents(id)).toStrictEqual(events);
    });

    it('reads usage rows back identical, in time order, ties in the order they were recorded', async () => {
      const syndicate = uniqueId('ledger');
      const late = usageRow(syndicate, { at: 3_000, agent: 'late', sessionId: null, outcome: 'error', turnStatus: 'failed' });
      const tieFirst = usageRow(syndicate, { at: 2_000, agent: 'tie first', outcome: 'cancelled', turnStatus: 'cancelled' });
      const tieSecond = usageRow(syndicate, { at: 2_000, agent: 'tie second', provider: 'scripted', model: 'scripted' });
      const early = usageRow(syndicate, { at: 1_000, agent: 'early 🚀', inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 });
      await store.recordUsage([late, tieFirst]);
      await store.recordUsage([tieSecond, early]);
      expect(await store.queryUsage({ syndicate })).toStrictEqual([early, tieFirst, tieSecond, late]);
    });

    it('reads back the skills a usage row names, and none on a row that names none', async () => {
      const syndicate = uniqueId('ledger');
      const skilled = usageRow(syndicate, { at: 1_000, skills: [{ name: 'pdf-forms', hash: `sha256:${'a'.repeat(64)}` }, { name: 'release-notes', hash: `sha256:${'b'.repeat(64)}` }] });
      const plain = usageRow(syndicate, { at: 2_000 });
      await store.recordUsage([skilled, plain]);

      expect(await store.queryUsage({ syndicate })).toStrictEqual([skilled, plain]);
    });

    it('returns only the usage rows at or after since', async () => {
      const syndicate = uniqueId('ledger');
      const rows = [1_000, 2_000, 3_000].map((at) => usageRow(syndicate, { at }));
      await store.recordUsage(rows);
      expect(await store.queryUsage({ syndicate, since: 2_000 })).toStrictEqual(rows.slice(1));
      expect(await store.queryUsage({ syndicate, since: 3_001 })).toStrictEqual([]);
    });

    it('returns only the usage rows of the requested syndicate, and every syndicate without a filter', async () => {
      const [mine, theirs] = [uniqueId('mine'), uniqueId('theirs')];
      await store.recordUsage([usageRow(mine), usageRow(theirs)]);
      expect(await store.queryUsage({ syndicate: mine })).toStrictEqual([usageRow(mine)]);
      const everyone = await store.queryUsage();
      expect(everyone).toEqual(expect.arrayContaining([usageRow(mine), usageRow(theirs)]));
    });

    it('records no usage row of a batch when one of them cannot be stored, and throws', async () => {
      const syndicate = uniqueId('ledger');
      const broken = { ...usageRow(syndicate), agent: null } as unknown as UsageRow;
      await expect(store.recordUsage([usageRow(syndicate), broken])).rejects.toThrow();
      expect(await store.queryUsage({ syndicate })).toStrictEqual([]);
    });

    it('keeps usage rows when the session they belong to is deleted', async () => {
      const [syndicate, sessionId] = [uniqueId('ledger'), uniqueId('s')];
      await store.openSession(sessionId, syndicate);
      await store.recordUsage([usageRow(syndicate, { sessionId })]);
      await store.deleteSession(sessionId);
      expect(await store.queryUsage({ syndicate })).toStrictEqual([usageRow(syndicate, { sessionId })]);
    });

    it('keeps usage rows when closed and reopened', async () => {
      const syndicate = uniqueId('ledger');
      await store.recordUsage([usageRow(syndicate)]);
      await store.close();

      store = await open();
      expect(await store.queryUsage({ syndicate })).toStrictEqual([usageRow(syndicate)]);
    });

    it('can be closed twice', async () => {
      await store.close();
      await expect(store.close()).resolves.toBeUndefined();
    });
  });
}
