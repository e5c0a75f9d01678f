import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './serverFixture.js';

// A server bound to loopback without PUBLIC_URL answers only requests addressed to a loopback
// name, on every face: a page on another site that rebinds its name to 127.0.0.1 is refused.

let test: TestServer | undefined;
afterEach(async () => {
  await test?.server.close({ graceMs: 0 });
  test = undefined;
});

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('DNS-rebinding protection of serve on loopback', () => {
  it('refuses a request whose Host is not a loopback name', async () => {
    test = await startTestServer();
    const answer = await get(test.server.port, '/healthz', { host: 'attacker.example:80' });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('not a loopback name');
  });

  it('refuses a request whose Origin is another site', async () => {
    test = await startTestServer();
    const answer = await get(test.server.port, '/api/v1/syndicates', { host: `127.0.0.1:${test.server.port}`, origin: 'http://attacker.example' });
    expect(answer.status).toBe(403);
  });

  it('answers a request addressed to localhost', async () => {
    test = await startTestServer();
    const answer = await get(test.server.port, '/healthz', { host: `localhost:${test.server.port}` });
    expect(answer.status).toBe(200);
  });
});
