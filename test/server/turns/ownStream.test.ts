import { describe, expect, it } from 'vitest';
import { followSession, postTurn, readAll, readOwnEvents, readUntil, useTurnServer } from './harness.js';
import { ofType } from '../../runtime/fixtures.js';
import { calculatingCouncil, council, QUESTION, waiter } from './fixtures.js';

// Syndicate's own stream: POST /turns, GET /sessions/:id/stream, POST /sessions/:id/cancel.

const start = useTurnServer();

const sessionOf = (response: Response): string => response.headers.get('x-session-id')!;

describe('POST /turns', () => {
  it("streams the turn's events, stored ones with the seq the store gave them, and ends after turn-end", async () => {
    const { api, platform } = await start(council());

    const response = await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' });
    const messages = await readAll(response);

    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stored = await (await platform.store()).readEvents(sessionOf(response));
    expect(messages.filter((message) => message.id !== undefined).map((message) => ({ seq: message.id, event: message.data.type }))).toEqual(stored.map((row) => ({ seq: row.seq, event: row.event.type })));
    expect(messages.every((message) => message.event === message.data.type && message.data.seq === message.id)).toBe(true);
    expect(messages.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed' });
  });

  it("shows a delegation made inside another as nested: the inner one carries the outer one's callId", async () => {
    const { api } = await start(council());

    const messages = await readAll(await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' }));

    const starts = messages.map((message) => message.data).filter((event) => event.type === 'delegation-start');
    const advocate = starts.find((event) => event.to === 'Advocate')!;
    const researcher = starts.find((event) => event.to === 'Researcher')!;
    expect(researcher).toMatchObject({ delegationId: advocate.callId, depth: 1 });
    expect(advocate.delegationId).toBeUndefined();
  });

  it("carries a subagent's tool call and result with the agent that made them and the delegation it ran in", async () => {
    const { api } = await start(calculatingCouncil());

    const events = (await readAll(await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' }))).map((message) => message.data);

    const researcher = ofType(events, 'delegation-start').find((event) => event.to === 'Researcher')!;
    const call = ofType(events, 'tool-call').find((event) => event.tool === 'calculator');
    const result = ofType(events, 'tool-result').find((event) => event.tool === 'calculator');
    expect(call).toMatchObject({ agent: 'Researcher', depth: 2, delegationId: researcher.callId, input: { expression: '6*7' } });
    expect(result).toMatchObject({ agent: 'Researcher', depth: 2, delegationId: researcher.callId, isError: false });
  });

  it('answers an ask_user question with the next message to the session', async () => {
    const { syndicate } = waiter();
    const { api } = await start(syndicate);

    const asked = await postTurn(api, { syndicate: 'waiter', message: 'Plan the offsite' });
    const first = await readAll(asked);
    const answer = await readAll(await postTurn(api, { syndicate: 'waiter', sessionId: sessionOf(asked), message: 'Lisbon' }));

    expect(first.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'input-required', output: QUESTION });
    expect(answer.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Lisbon booked.' });
  });

  it("answers 404 for another user's session, and the session is not touched", async () => {
    const { api, platform } = await start(council());
    const mine = sessionOf(await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' }));
    const before = await (await platform.store()).readEvents(mine);

    const post = await postTurn(api, { syndicate: 'council', sessionId: mine, message: 'Mine now' }, 'bob-token');
    const follow = await followSession(api, mine, undefined, 'bob-token');

    expect([post.status, follow.status]).toEqual([404, 404]);
    expect(post.headers.get('content-type')).toContain('application/problem+json');
    expect(await (await platform.store()).readEvents(mine)).toEqual(before);
  });

  it('answers 404 naming the known syndicates for an unknown one', async () => {
    const { api } = await start(council());

    const response = await postTurn(api, { syndicate: 'counsel', message: 'Hi' });

    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toContain('known: council');
  });
});

describe('GET /sessions/:id/stream', () => {
  it('gives a second subscriber the same turn as the first', async () => {
    const { syndicate, gate } = waiter();
    const { api } = await start(syndicate);
    const posted = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    await gate.reached;

    const second = followSession(api, sessionOf(posted));
    const firstEvents = readAll(posted);
    const secondResponse = await second;
    gate.open();

    expect(await readAll(secondResponse)).toEqual(await firstEvents);
  });

  it('resumes after Last-Event-ID with the rest of the running turn, each event exactly once', async () => {
    const { syndicate, gate } = waiter();
    const { api } = await start(syndicate);
    const posted = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    const seen = await readUntil(readOwnEvents(posted), (message) => message.data.type === 'tool-call');
    const lastId = seen.findLast((message) => message.id !== undefined)!.id!;

    const resumed = await followSession(api, sessionOf(posted), String(lastId));
    gate.open();
    const rest = await readAll(resumed);

    // The stored transcript of the turn (the store keeps no live-only deltas).
    const stored = await readAll(await followSession(api, sessionOf(posted), 'not-a-seq'));
    expect([...seen, ...rest].filter((message) => message.id !== undefined)).toEqual(stored);
    expect(rest[0]!.id).toBe(lastId + 1);
  });

  it('replays the last turn from the store after it has ended, from Last-Event-ID or, when it is malformed, from its start', async () => {
    const { api, platform } = await start(council());
    const posted = await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' });
    await readAll(posted);
    const second = await readAll(await postTurn(api, { syndicate: 'council', sessionId: sessionOf(posted), message: 'And a writer?' }));
    const stored = (await (await platform.store()).readEvents(sessionOf(posted))).filter((row) => row.event.turnId === second[0]!.data.turnId);

    const fromStart = await readAll(await followSession(api, sessionOf(posted), 'garbage'));
    const afterThird = await readAll(await followSession(api, sessionOf(posted), String(stored[2]!.seq)));

    expect(fromStart.map((message) => message.id)).toEqual(stored.map((row) => row.seq));
    expect(afterThird.map((message) => message.id)).toEqual(stored.slice(3).map((row) => row.seq));
  });

  it('keeps the turn running when the client disconnects', async () => {
    const { syndicate, gate } = waiter();
    const { api } = await start(syndicate);
    const client = new AbortController();
    const posted = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' }, 'alice-token', client.signal);
    await gate.reached;

    client.abort();
    await readAll(posted).catch(() => undefined);
    gate.open();
    const after = await readAll(await followSession(api, sessionOf(posted)));

    expect(after.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Done waiting.' });
  });
});

describe('double texting and cancel', () => {
  it('enqueue: runs the second message after the running turn has ended', async () => {
    const { syndicate, gate } = waiter('enqueue');
    const { api } = await start(syndicate);
    const first = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    await gate.reached;

    const second = await postTurn(api, { syndicate: 'waiter', sessionId: sessionOf(first), message: 'hello' });
    gate.open();
    const [firstEvents, secondEvents] = await Promise.all([readAll(first), readAll(second)]);

    expect(firstEvents.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed' });
    expect(secondEvents.at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Hi there.' });
    expect(secondEvents[0]!.id).toBe(firstEvents.at(-1)!.id! + 1);
  });

  it('reject: answers 409 while the session has a turn running', async () => {
    const { syndicate, gate } = waiter('reject');
    const { api } = await start(syndicate);
    const first = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    await gate.reached;

    const second = await postTurn(api, { syndicate: 'waiter', sessionId: sessionOf(first), message: 'hello' });
    gate.open();

    expect(second.status).toBe(409);
    expect(((await second.json()) as { detail: string }).detail).toContain('concurrency: reject');
    expect((await readAll(first)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed' });
  });

  it('interrupt: cancels the running turn, then runs the new message', async () => {
    const { syndicate, gate } = waiter('interrupt');
    const { api } = await start(syndicate);
    const first = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    await gate.reached;

    const second = await postTurn(api, { syndicate: 'waiter', sessionId: sessionOf(first), message: 'hello' });

    expect((await readAll(first)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'cancelled', error: expect.stringContaining('interrupted by a newer message') });
    expect((await readAll(second)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Hi there.' });
  });

  it('cancel: ends the running turn cancelled, and says so', async () => {
    const { syndicate, gate } = waiter();
    const { api } = await start(syndicate);
    const first = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    await gate.reached;

    const cancel = await fetch(`${api}/sessions/${encodeURIComponent(sessionOf(first))}/cancel`, { method: 'POST', headers: { authorization: 'Bearer alice-token' } });

    expect(cancel.status).toBe(202);
    expect(await cancel.json()).toEqual({ cancelled: true });
    expect((await readAll(first)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'cancelled' });
  });

  it('cancel: says cancelled false when the session has no turn running', async () => {
    const { api } = await start(council());
    const posted = await postTurn(api, { syndicate: 'council', message: 'Hire a designer?' });
    await readAll(posted);

    const cancel = await fetch(`${api}/sessions/${encodeURIComponent(sessionOf(posted))}/cancel`, { method: 'POST', headers: { authorization: 'Bearer alice-token' } });

    expect(await cancel.json()).toEqual({ cancelled: false });
  });

  it('drain: cancels turns still running after the grace period, saying they were interrupted by the shutdown, then refuses new ones', async () => {
    const { syndicate, gate } = waiter();
    const { api, turns } = await start(syndicate);
    const first = await postTurn(api, { syndicate: 'waiter', message: 'Please wait' });
    await gate.reached;

    const drained = await turns.drain(0);
    const refused = await postTurn(api, { syndicate: 'waiter', message: 'hello' });

    expect(drained).toEqual({ finished: 0, interrupted: 1 });
    expect((await readAll(first)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'cancelled', error: expect.stringContaining('interrupted: the server shut down') });
    expect(refused.status).toBe(503);
  });
});
