import { afterEach, describe, expect, it } from 'vitest';
import { council } from './fixtures.js';
import { auth, postTurn, readAll, readOwnEvents, startTurnServer, type OwnMessage, type TurnServer } from './harness.js';

// GET /sessions/:id/stream?follow=true: a session's stream that stays open between turns.

let server: TurnServer | undefined;
const streams: AbortController[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort();
  await server?.close();
  server = undefined;
});

const sessionOf = (response: Response): string => response.headers.get('x-session-id')!;

function follow(api: string, sessionId: string, lastEventId?: string, token = 'alice-token', query = 'follow=true'): Promise<Response> {
  const stream = new AbortController();
  streams.push(stream);
  const headers = { ...auth(token), ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) };
  return fetch(`${api}/sessions/${encodeURIComponent(sessionId)}/stream?${query}`, { headers, signal: stream.signal });
}

const turnEnd = (message: OwnMessage): boolean => message.data.type === 'turn-end';

/** Reads `count` messages, or up to one satisfying `until`, leaving the stream open (a for-await would close it). */
async function take(events: AsyncGenerator<OwnMessage>, until: (message: OwnMessage, index: number) => boolean): Promise<OwnMessage[]> {
  const messages: OwnMessage[] = [];
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error(`the stream ended after ${messages.length} messages`);
    messages.push(value);
    if (until(value, messages.length)) return messages;
  }
}

describe('GET /sessions/:id/stream?follow=true', () => {
  it("starts with the session's last turn, then streams the next turn another request starts, and stays open", async () => {
    server = await startTurnServer([council()]);
    const { api } = server;
    const first = await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' });
    const firstEvents = await readAll(first);
    const events = readOwnEvents(await follow(api, sessionOf(first)));

    const replayed = await take(events, turnEnd);
    const second = await readAll(await postTurn(api, { syndicate: 'council', sessionId: sessionOf(first), message: 'And a writer?' }));
    const followed = await take(events, turnEnd);

    expect(replayed).toEqual(firstEvents.filter((message) => message.id !== undefined));
    expect(followed).toEqual(second);
    expect(followed[0]!.data.turnId).not.toBe(replayed[0]!.data.turnId);
  });

  it('after Last-Event-ID, starts with every event stored since, across turns, each once', async () => {
    server = await startTurnServer([council()]);
    const { api, platform } = server;
    const first = await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' });
    await readAll(first);
    await readAll(await postTurn(api, { syndicate: 'council', sessionId: sessionOf(first), message: 'And a writer?' }));
    const stored = await (await platform.store()).readEvents(sessionOf(first));

    const events = readOwnEvents(await follow(api, sessionOf(first), String(stored[2]!.seq)));
    const resumed = await take(events, (_message, count) => count === stored.length - 3);

    expect(resumed.map((message) => message.id)).toEqual(stored.slice(3).map((row) => row.seq));
  });

  it("answers 404 for another user's session", async () => {
    server = await startTurnServer([council()]);
    const mine = sessionOf(await postTurn(server.api, { syndicate: 'council', message: 'Hire a designer?' }));

    const response = await follow(server.api, mine, undefined, 'bob-token');

    expect(response.status).toBe(404);
  });

  it('refuses a follow value that is not a boolean with a 400 naming the query field', async () => {
    server = await startTurnServer([council()]);
    const mine = postTurn(server.api, { syndicate: 'council', message: 'Hire a designer?' });
    const sessionId = sessionOf(await mine);

    const response = await follow(server.api, sessionId, undefined, 'alice-token', 'follow=sometimes');

    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain('query.follow');
  });
});
