import { describe, expect, it } from 'vitest';
import { problemOf, useHostileServer } from './hostileFixture.js';

// Text no store keeps as sent: a NUL (PostgreSQL refuses it in text) or half of a UTF-16
// surrogate pair (SQLite stores U+FFFD instead, so two ids could become one). Anywhere in a
// request the API validates, it is a 400 naming where it is, and nothing is stored.

const s = useHostileServer();

describe('text no store keeps as sent', () => {
  it('a sessionId holding a NUL is refused with a 400 naming the field, and no session is stored', async () => {
    const before = await s.sessionIds();

    const response = await s.post('/api/v1/turns', '{"syndicate":"council","sessionId":"a\\u0000b","message":"hi"}');

    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe('#/body/sessionId');
    expect(await s.sessionIds()).toEqual(before);
  });

  it('a sessionId holding an unpaired surrogate is refused with a 400, and no session is stored', async () => {
    const before = await s.sessionIds();

    const response = await s.post('/api/v1/turns', '{"syndicate":"council","sessionId":"\\ud800x","message":"hi"}');

    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe('#/body/sessionId');
    expect(await s.sessionIds()).toEqual(before);
  });

  it('a message holding an unpaired surrogate is refused with a 400 rather than stored mangled', async () => {
    const before = await s.sessionIds();

    const response = await s.post('/api/v1/turns', '{"syndicate":"council","message":"half a pair: \\udc00"}');

    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe('#/body/message');
    expect(await s.sessionIds()).toEqual(before);
  });

  it('a NUL in an object key nested deep in an AG-UI body is refused with a 400 naming where it is', async () => {
    const before = await s.sessionIds();
    const body = { threadId: 'th', runId: 'r1', messages: [{ role: 'user', content: 'hi' }], state: { a: { b: { 'c\u0000': 1 } } } };

    const response = await s.post('/api/v1/syndicates/council/ag-ui', JSON.stringify(body));

    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe('#/body/state/a/b/c\u0000');
    expect(await s.sessionIds()).toEqual(before);
  });

  it('a NUL in a path parameter is refused with a 400 naming it', async () => {
    const response = await fetch(`${s.t.server.url}/api/v1/sessions/a%00b`, { headers: { authorization: `Bearer ${s.alice}` } });

    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe('#/params/id');
  });
});
