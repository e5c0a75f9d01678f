import { afterEach, describe, expect, it } from 'vitest';
import { A2aConfigError } from '../../src/a2a/serveA2a.js';
import { parseTrustProxy } from '../../src/a2a/trustProxy.js';
import { createGate, startServer, type TestServer } from './fixtures.js';
import { raw } from './rawHttp.js';
import { assistant } from './syndicates.js';

// Rate limiting counts each client apart: by its address, or behind a trusted proxy
// (A2A_TRUST_PROXY) by the address the proxy names in X-Forwarded-For.

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** One request per client allowed, then 429 for a long while. */
const ONE_EACH = { perSecond: 0.01, burst: 1 };

async function cardStatus(options: { localAddress?: string; forwardedFor?: string } = {}): Promise<number> {
  const headers: Record<string, string> = options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {};
  return (await raw(`${server!.url}/.well-known/agent-card.json`, { headers, localAddress: options.localAddress })).status;
}

describe('per client address', () => {
  it('gives two clients on different addresses a bucket each', async () => {
    server = await startServer(assistant(createGate().tool), { rateLimit: ONE_EACH });

    const first = [await cardStatus({ localAddress: '127.0.0.1' }), await cardStatus({ localAddress: '127.0.0.2' })];
    const again = [await cardStatus({ localAddress: '127.0.0.1' }), await cardStatus({ localAddress: '127.0.0.2' })];

    expect(first).toEqual([200, 200]);
    expect(again).toEqual([429, 429]);
  });

  it('shares one bucket across agents and endpoints', async () => {
    server = await startServer(assistant(createGate().tool), { rateLimit: ONE_EACH });

    const card = await cardStatus();
    const rpc = await raw(`${server.url}/assistant/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: '{}' });

    expect([card, rpc.status]).toEqual([200, 429]);
  });

  it('ignores X-Forwarded-For without A2A_TRUST_PROXY', async () => {
    server = await startServer(assistant(createGate().tool), { rateLimit: ONE_EACH });

    const statuses = [await cardStatus({ forwardedFor: '203.0.113.1' }), await cardStatus({ forwardedFor: '203.0.113.2' })];

    expect(statuses).toEqual([200, 429]);
  });
});

describe('behind a trusted proxy', () => {
  it('gives two clients the proxy names in X-Forwarded-For a bucket each', async () => {
    server = await startServer(assistant(createGate().tool), { rateLimit: ONE_EACH, env: { A2A_TRUST_PROXY: 'loopback' } });

    const first = [await cardStatus({ forwardedFor: '203.0.113.1' }), await cardStatus({ forwardedFor: '203.0.113.2' })];
    const again = await cardStatus({ forwardedFor: '203.0.113.1' });

    expect(first).toEqual([200, 200]);
    expect(again).toBe(429);
  });

  it('takes the client the trusted hops name, not an address the client wrote in front of it', async () => {
    server = await startServer(assistant(createGate().tool), { rateLimit: ONE_EACH, env: { A2A_TRUST_PROXY: '1' } });

    // The proxy appends the address it saw: what the client claimed comes first, and is not believed.
    const statuses = [
      await cardStatus({ forwardedFor: '198.51.100.7, 203.0.113.1' }),
      await cardStatus({ forwardedFor: '198.51.100.8, 203.0.113.1' }),
      await cardStatus({ forwardedFor: '198.51.100.7, 203.0.113.2' }),
    ];

    expect(statuses).toEqual([200, 429, 200]);
  });

  it('does not trust a peer outside the trusted addresses', async () => {
    server = await startServer(assistant(createGate().tool), { rateLimit: ONE_EACH, env: { A2A_TRUST_PROXY: '10.0.0.0/8' } });

    const statuses = [await cardStatus({ forwardedFor: '203.0.113.1' }), await cardStatus({ forwardedFor: '203.0.113.2' })];

    expect(statuses).toEqual([200, 429]);
  });

  it('refuses to start with an A2A_TRUST_PROXY it cannot read, saying what to set', async () => {
    const starting = startServer(assistant(createGate().tool), { env: { A2A_TRUST_PROXY: 'true' } });

    await expect(starting).rejects.toBeInstanceOf(A2aConfigError);
    await expect(starting).rejects.toThrow(/set the number of proxies/);
  });
});

describe('reading A2A_TRUST_PROXY', () => {
  it('reads a number as the count of proxies in front of the server', () => {
    expect(parseTrustProxy('2')).toBe(2);
  });

  it('reads a list of addresses, subnets and named ranges', () => {
    expect(parseTrustProxy(' loopback, 10.0.0.0/8 ,::1,fd00::/8')).toEqual(['loopback', '10.0.0.0/8', '::1', 'fd00::/8']);
  });

  it.each(['true', '', 'proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/1'])('refuses %j, naming what to set', (value) => {
    expect(parseTrustProxy(value)).toEqual(expect.objectContaining({ message: expect.stringMatching(/A2A_TRUST_PROXY .* set the number of proxies/) }));
  });
});
