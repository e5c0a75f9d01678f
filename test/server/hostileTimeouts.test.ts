import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './serverFixture.js';

// A client whose body falls short of its Content-Length would hold its connection (and the body
// parser waiting on it) for Node's default of five minutes: the server answers 408 once its
// request timeout passes. The timeout is short here; `syndicate serve`'s is serve-a2a's 60 s.

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer(['council.yaml'], { requestTimeoutMs: 500 });
}, 60_000);

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

/** Writes `request` on a new connection and resolves with everything the server sent once it closes the connection. */
function sendRaw(request: (host: string) => string): Promise<string> {
  const { hostname, port } = new URL(t.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(request(`${hostname}:${port}`));
  });
}

describe('a body that lies in its Content-Length', () => {
  it('is answered 408 once the request timeout passes, and its connection closed, rather than held open', async () => {
    const answer = await sendRaw(
      (host) => `POST /api/v1/syndicates/validate HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer alice-key\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"yaml":`,
    );

    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
