import { describe, expect, it } from 'vitest';
import { expectNoInternals, problemOf, useHostileServer } from './hostileFixture.js';

// Requests no handler answers (a path no face has, an error the router raises before any handler
// runs) get an error in the face's own shape, never express's HTML page, which outside production
// shows the stack trace and the server's file paths.

const s = useHostileServer();

describe('requests no handler answers', () => {
  it("a malformed percent-escape in an A2A REST task id is a 400 in A2A's error shape, without a stack trace or file path", async () => {
    const response = await fetch(`${s.t.server.url}/a2a/council/rest/v1/tasks/%ff`, { headers: { authorization: `Bearer ${s.alice}` } });
    const text = await response.text();

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(JSON.parse(text)).toMatchObject({ code: -32600 });
    expectNoInternals(text);
  });

  it('a path outside every face is a 404 problem, not an HTML page', async () => {
    const response = await fetch(`${s.t.server.url}/a2a/no-such-agent/jsonrpc`, { method: 'POST', headers: { authorization: `Bearer ${s.alice}`, 'content-type': 'application/json' }, body: '{}' });

    expect(response.status).toBe(404);
    expectNoInternals(JSON.stringify(await problemOf(response)));
  });
});
