import { describe, expect, it } from 'vitest';
import { problemOf, useHostileServer } from './hostileFixture.js';

// The session a client names (POST /turns' sessionId, an AI SDK chat id, an AG-UI thread id) comes
// back in the X-Session-Id header, which carries only printable ASCII: any other id is a 400
// before its turn starts, not a 500 once the turn has run and stored the session.

const s = useHostileServer();

describe('session ids a client names', () => {
  it('a sessionId in another script is refused with a 400 before its turn starts, not a 500 after', async () => {
    const before = await s.sessionIds();

    const response = await s.post('/api/v1/turns', JSON.stringify({ syndicate: 'council', sessionId: '日本語', message: 'hi' }));

    expect(response.status).toBe(400);
    expect((await problemOf(response)).detail).toMatch(/printable ASCII/);
    expect(await s.sessionIds()).toEqual(before);
  });

  it('a sessionId holding a newline is refused with a 400, and no session is stored', async () => {
    const before = await s.sessionIds();

    const response = await s.post('/api/v1/turns', JSON.stringify({ syndicate: 'council', sessionId: 'a\nb', message: 'hi' }));

    expect(response.status).toBe(400);
    expect(await s.sessionIds()).toEqual(before);
  });

  it('an AI SDK chat id holding a control character is refused with a 400, and no session is stored', async () => {
    const before = await s.sessionIds();

    const response = await s.post('/api/v1/syndicates/council/chat', JSON.stringify({ id: 'chat\u0001', messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] }));

    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe('#/body/id');
    expect(await s.sessionIds()).toEqual(before);
  });

  it('an AG-UI thread id holding a space is refused with a 400, and no session is stored', async () => {
    const before = await s.sessionIds();

    const response = await s.post('/api/v1/syndicates/council/ag-ui', JSON.stringify({ threadId: 'my thread', runId: 'r1', messages: [{ role: 'user', content: 'hi' }] }));

    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe('#/body/threadId');
    expect(await s.sessionIds()).toEqual(before);
  });

  it('a syndicate name of 100,000 characters is refused with a 400, not echoed back in a 404', async () => {
    const response = await s.post('/api/v1/turns', JSON.stringify({ syndicate: 'x'.repeat(100_000), message: 'hi' }));

    expect(response.status).toBe(400);
    expect((await response.text()).length).toBeLessThan(1_000);
  });
});
