import { describe, expect, it } from 'vitest';
import { problemOf, useHostileServer } from './hostileFixture.js';

// A path the API has, asked with a method it does not take, is a 405 whose Allow header names the
// methods it does take (RFC 9110), not the 404 of a path that does not exist; OPTIONS answers them.

const s = useHostileServer();

describe('methods an API path does not take', () => {
  it('PUT on a path that only lists is a 405 whose Allow header names GET', async () => {
    const response = await fetch(`${s.t.server.url}/api/v1/sessions`, { method: 'PUT', headers: { authorization: `Bearer ${s.alice}` } });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await problemOf(response);
  });

  it('OPTIONS on an API path answers 204 with the methods it takes in Allow', async () => {
    const response = await fetch(`${s.t.server.url}/api/v1/sessions/abc/fork`, { method: 'OPTIONS' });

    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
