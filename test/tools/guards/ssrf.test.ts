import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedRequest } from '../../../src/tools/guards/guardedFetch.js';
import { BlockedUrlError, classifyAddress, networkPolicyFromEnv, STRICT_POLICY, urlProblem, type NetworkPolicy } from '../../../src/tools/guards/ssrf.js';
import { startLoopback, type LoopbackServer } from '../loopbackHttp.js';

const ALLOW_PRIVATE: NetworkPolicy = { allowPrivate: true, allowedHosts: new Set() };

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['100.64.0.1', 'private'],
    ['fec0::1', 'private'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['ff02::1', 'reserved'],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ['IPv4-compatible', '::7f00:1', 'loopback'],
    ['IPv4-compatible', '::10.0.0.1', 'private'],
    ['IPv4-translated (RFC 6145)', '::ffff:0:7f00:1', 'loopback'],
    ['NAT64 well-known (64:ff9b::/96)', '64:ff9b::7f00:1', 'loopback'],
    ['NAT64 well-known (64:ff9b::/96)', '64:ff9b::a9fe:a9fe', 'metadata'],
    ['NAT64 local-use (64:ff9b:1::/48), /96 layout', '64:ff9b:1::a00:1', 'private'],
    ['NAT64 local-use (64:ff9b:1::/48), /48 layout', '64:ff9b:1:7f00:0:100::', 'loopback'],
    ['6to4 (2002::/16)', '2002:7f00:1::1', 'loopback'],
    ['6to4 (2002::/16)', '2002:c0a8:101::1', 'private'],
    ['6to4 (2002::/16)', '2002:a9fe:a9fe::1', 'metadata'],
    ['Teredo (2001::/32) with an obfuscated client', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['Teredo (2001::/32) with a private server', '2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private'],
  ])('classifies the %s address %s by the IPv4 address it carries, as %s', (_range, address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('leaves public addresses unclassified', () => {
    expect([classifyAddress('93.184.215.14'), classifyAddress('2606:4700::6810:84e5')]).toEqual([undefined, undefined]);
  });

  it('leaves transition addresses that carry a public IPv4 address unclassified', () => {
    const carriers = ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'];

    expect(carriers.map(classifyAddress)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('URL checks', () => {
  it('refuses schemes other than http and https', () => {
    expect(urlProblem(new URL('file:///etc/passwd'), ALLOW_PRIVATE)).toMatch(/only http and https/);
  });

  it('refuses a loopback IP literal and says how to allow it', () => {
    expect(urlProblem(new URL('http://127.0.0.1:8080/mcp'), STRICT_POLICY)).toMatch(/loopback address.*ALLOW_PRIVATE_MCP=true.*SYNDICATE_ALLOWED_HOSTS/);
  });

  it('refuses an IPv6 literal that carries a loopback IPv4 address', () => {
    expect(urlProblem(new URL('http://[::7f00:1]:8080/'), STRICT_POLICY)).toMatch(/::7f00:1 is a loopback address/);
  });

  it('refuses a NAT64 literal that carries a metadata address even when private addresses are allowed', () => {
    expect(urlProblem(new URL('http://[64:ff9b::169.254.169.254]/'), ALLOW_PRIVATE)).toMatch(/cloud metadata address/);
  });

  it('allows private addresses when ALLOW_PRIVATE_MCP is set', () => {
    expect(urlProblem(new URL('http://[::1]:8080/'), ALLOW_PRIVATE)).toBeUndefined();
  });

  it('refuses a metadata address even when private addresses are allowed', () => {
    expect(urlProblem(new URL('http://169.254.169.254/latest/meta-data/'), ALLOW_PRIVATE)).toMatch(/cloud metadata address/);
  });

  it('allows a host listed in SYNDICATE_ALLOWED_HOSTS whatever its address', () => {
    const policy = networkPolicyFromEnv({ SYNDICATE_ALLOWED_HOSTS: ' 10.0.0.5, Tools.Internal ' });

    expect([urlProblem(new URL('http://10.0.0.5/'), policy), policy.allowedHosts.has('tools.internal'), policy.allowPrivate]).toEqual([undefined, true, false]);
  });

  it('reads ALLOW_PRIVATE_MCP=true from the environment', () => {
    expect(networkPolicyFromEnv({ ALLOW_PRIVATE_MCP: 'true' }).allowPrivate).toBe(true);
  });
});

describe('guarded requests', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopback((request, response) => {
      if (request.url === '/hop') return void response.writeHead(302, { location: '/page' }).end();
      if (request.url === '/to-localhost') return void response.writeHead(302, { location: `http://localhost:${server.port}/page` }).end();
      if (request.url === '/gzip') return void response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('unzipped'));
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`page at ${request.url}`);
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a host name that resolves to a loopback address', async () => {
    await expect(guardedRequest(`http://localhost:${server.port}/page`, {}, STRICT_POLICY)).rejects.toThrow(BlockedUrlError);
  });

  it('follows redirects and reports where the response came from', async () => {
    const { response, url } = await guardedRequest(`${server.origin}/hop`, {}, ALLOW_PRIVATE);

    expect([await response.text(), url.pathname]).toEqual(['page at /page', '/page']);
  });

  it('checks every redirect hop again', async () => {
    const onlyTheFirstHost: NetworkPolicy = { allowPrivate: false, allowedHosts: new Set(['127.0.0.1']) };

    await expect(guardedRequest(`${server.origin}/to-localhost`, {}, onlyTheFirstHost)).rejects.toThrow(/refused to fetch http:\/\/localhost:\d+\/page: localhost \(127\.0\.0\.1\) is a loopback address/);
  });

  it('hands back a redirect untouched when the caller follows redirects itself', async () => {
    const { response } = await guardedRequest(`${server.origin}/hop`, { redirect: 'manual' }, ALLOW_PRIVATE);

    expect([response.status, response.headers.get('location')]).toEqual([302, '/page']);
  });

  it('decompresses a gzip body', async () => {
    const { response } = await guardedRequest(`${server.origin}/gzip`, {}, ALLOW_PRIVATE);

    expect(await response.text()).toBe('unzipped');
  });
});
