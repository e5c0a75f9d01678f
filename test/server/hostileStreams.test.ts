import { describe, expect, it } from 'vitest';
import { auth, followSession, postTurn, readAll, readOwnEvents, readUntil, useTurnServer } from './turns/harness.js';
import { council, waiter } from './turns/fixtures.js';

// A hostile client's Last-Event-ID: a seq past every event the session has is no id the server
// gave out, and is ignored like a malformed one (the stream starts at the beginning of the turn)
// rather than skipping the turn, or, on a follow, every later turn. Real server, real store.

const start = useTurnServer();

const sessionOf = (response: Response): string => response.headers.get('x-session-id')!;

/** The seq of the last stored event the server could ever have given this session: far past it. */
const PAST_THE_END = '999999999999999';

describe('Last-Event-ID past the end of the session', () => {
  it("a finished session's stream asked after a seq it never reached replays its last turn from the start", async () => {
    const { api, platform } = await start(council());
    const posted = await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' });
    await readAll(posted);
    const stored = await (await platform.store()).readEvents(sessionOf(posted));

    const replayed = await readAll(await followSession(api, sessionOf(posted), PAST_THE_END));

    expect(replayed.map((message) => message.id)).toEqual(stored.map((row) => row.seq));
  });

  it("a running turn's stream asked after a seq it never reached starts at the turn's first event", async () => {
    const { syndicate, gate } = waiter();
    const { api } = await start(syndicate);
    const posted = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    const seen = await readUntil(readOwnEvents(posted), (message) => message.data.type === 'tool-call');

    const resumed = await followSession(api, sessionOf(posted), PAST_THE_END);
    gate.open();
    const replayed = await readAll(resumed);

    expect(replayed[0]).toEqual(seen[0]);
    expect(replayed.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed' });
  });

  it('a follow=true stream asked after a seq the session never reached still streams its last turn', async () => {
    const { api, platform } = await start(council());
    const posted = await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' });
    await readAll(posted);
    const stored = await (await platform.store()).readEvents(sessionOf(posted));
    const client = new AbortController();

    const following = await fetch(`${api}/sessions/${encodeURIComponent(sessionOf(posted))}/stream?follow=true`, {
      headers: { ...auth(), 'last-event-id': PAST_THE_END },
      signal: client.signal,
    });
    const replayed = await readUntil(readOwnEvents(following), (message) => message.data.type === 'turn-end');
    client.abort();

    expect(replayed.map((message) => message.id)).toEqual(stored.map((row) => row.seq));
  });
});
