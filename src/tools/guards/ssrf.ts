import { BlockList, isIP } from 'node:net';

// The SSRF guard shared by the MCP client, web_extract and the A2A client. A URL chosen by a
// model or a syndicate file must not reach this machine, its network or a cloud metadata
// service. Addresses are checked after DNS resolution (see guardedFetch.ts, which checks the
// address the socket really connects to) and again on every redirect.

export interface NetworkPolicy {
  /** `ALLOW_PRIVATE_MCP=true`: loopback, private and link-local addresses are reachable (metadata services still are not). */
  allowPrivate: boolean;
  /** Host names (lower case) reachable whatever they resolve to: `SYNDICATE_ALLOWED_HOSTS`. */
  allowedHosts: ReadonlySet<string>;
}

export const STRICT_POLICY: NetworkPolicy = { allowPrivate: false, allowedHosts: new Set() };

const TRUTHY: ReadonlySet<string> = new Set(['1', 'true', 'yes']);

/** `ALLOW_PRIVATE_MCP=true` opens private addresses; `SYNDICATE_ALLOWED_HOSTS=a.internal,b.lan` opens those hosts only. */
export function networkPolicyFromEnv(env: NodeJS.ProcessEnv): NetworkPolicy {
  const hosts = (env.SYNDICATE_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((host) => normalHost(host.trim()))
    .filter((host) => host !== '');
  return { allowPrivate: TRUTHY.has((env.ALLOW_PRIVATE_MCP ?? '').toLowerCase()), allowedHosts: new Set(hosts) };
}

type AddressClass = 'metadata' | 'loopback' | 'private' | 'link-local' | 'reserved';

function blockList(ranges: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

// Cloud metadata endpoints (AWS/GCP/Azure/OpenStack, Alibaba, Azure wireserver, AWS IPv6).
const METADATA = blockList([
  ['169.254.169.254', 32, 'ipv4'],
  ['169.254.170.2', 32, 'ipv4'],
  ['100.100.100.200', 32, 'ipv4'],
  ['168.63.129.16', 32, 'ipv4'],
  ['fd00:ec2::254', 128, 'ipv6'],
]);
const LOOPBACK = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const LINK_LOCAL = blockList([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const PRIVATE = blockList([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
]);
// "This network", IETF protocol assignments, benchmarking, multicast and reserved space.
const RESERVED = blockList([
  ['0.0.0.0', 8, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]);

/** IPv4-mapped and NAT64 IPv6 addresses carry an IPv4 address that decides where they go. */
function embeddedIPv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function classifyAddress(address: string): AddressClass | undefined {
  const family = isIP(address);
  if (family === 0) throw new Error(`classifyAddress needs an IP address, got '${address}'`);
  const mapped = family === 6 ? embeddedIPv4(address) : undefined;
  if (mapped) return classifyAddress(mapped);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.check(address, type)) return 'metadata';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (LINK_LOCAL.check(address, type)) return 'link-local';
  if (PRIVATE.check(address, type)) return 'private';
  if (RESERVED.check(address, type)) return 'reserved';
  return undefined;
}

function normalHost(host: string): string {
  return host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** Why `address` (what `host` resolved to) may not be reached, or undefined when it may. */
export function addressProblem(host: string, address: string, policy: NetworkPolicy): string | undefined {
  if (policy.allowedHosts.has(normalHost(host))) return undefined;
  const kind = classifyAddress(address);
  if (kind === undefined) return undefined;
  const shown = normalHost(host) === address ? address : `${host} (${address})`;
  if (kind === 'metadata') {
    return `${shown} is a cloud metadata address and is never fetched; list the host in SYNDICATE_ALLOWED_HOSTS if you really mean it`;
  }
  if (policy.allowPrivate) return undefined;
  return `${shown} is a ${kind} address, refused to protect this machine and its network; set ALLOW_PRIVATE_MCP=true or list the host in SYNDICATE_ALLOWED_HOSTS to allow it`;
}

/** Checks what can be checked before connecting: the scheme, and the host when it is an IP literal. */
export function urlProblem(url: URL, policy: NetworkPolicy): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol.replace(/:$/, '')} URLs are refused: only http and https are fetched`;
  if (url.username !== '' || url.password !== '') return 'URLs with credentials in them are refused: pass credentials in headers instead';
  const host = normalHost(url.hostname);
  return isIP(host) === 0 ? undefined : addressProblem(host, host, policy);
}

/** A refusal by the guard: its message says what was refused and how to allow it. */
export class BlockedUrlError extends Error {
  constructor(url: string, problem: string) {
    super(`refused to fetch ${url}: ${problem}`);
    this.name = 'BlockedUrlError';
  }
}
