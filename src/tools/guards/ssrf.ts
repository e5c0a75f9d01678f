import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

// Cloud metadata endpoints (AWS/GCP/Azure/OpenStack, Alibaba, Azure wireserver, AWS IPv6).
const METADATA: ReadonlySet<string> = new Set(
  ['169.254.169.254', '169.254.170.2', '100.100.100.200', '168.63.129.16', 'fd00:ec2::254'].map((address) => ipaddr.parse(address).toNormalizedString()),
);

// ipaddr.js range names -> what they mean here. Public unicast and public anycast services
// (AS112, AMT relays) are reachable; the transition ranges are judged by the IPv4 address they
// carry (see embeddedIPv4). A range name not listed here (from a newer ipaddr.js) is refused.
const RANGE_CLASSES: Readonly<Record<string, AddressClass | 'public' | 'carrier'>> = {
  unicast: 'public',
  as112: 'public',
  as112v6: 'public',
  amt: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'link-local',
  // "This network", broadcast, multicast, IETF assignments, TEST-NETs and documentation,
  // benchmarking (198.18.0.0/15, 2001:2::/48), discard, ORCHID and segment-routing space.
  unspecified: 'reserved',
  broadcast: 'reserved',
  multicast: 'reserved',
  reserved: 'reserved',
  benchmarking: 'reserved',
  discard: 'reserved',
  deprecatedOrchid: 'reserved',
  orchid2: 'reserved',
  droneRemoteIdProtocolEntityTags: 'reserved',
  segmentRouting: 'reserved',
  ipv4Mapped: 'carrier',
  rfc6145: 'carrier',
  rfc6052: 'carrier',
  '6to4': 'carrier',
  teredo: 'carrier',
};

// Most severe first: an address that carries another is as dangerous as the worse of the two.
const SEVERITY: readonly AddressClass[] = ['metadata', 'loopback', 'link-local', 'private', 'reserved'];

function ipv4At(parts: readonly number[], index: number): ipaddr.IPv4 {
  const high = parts[index]!;
  const low = parts[index + 1]!;
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
}

/**
 * The IPv4 addresses an IPv6 address hands its packets to: mapped and translated (RFC 4291,
 * RFC 6145), NAT64 (RFC 6052; the local-use 64:ff9b:1::/48 of RFC 8215 in its /96 and /48
 * layouts), 6to4 (RFC 3056), Teredo's server and its obfuscated client (RFC 4380), and the
 * deprecated IPv4-compatible ::a.b.c.d, which some stacks still route as IPv4.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const parts = address.parts;
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [ipv4At(parts, 6)];
  if (range === 'rfc6052') {
    if (parts[2] === 0) return [ipv4At(parts, 6)];
    return [ipv4At(parts, 6), new ipaddr.IPv4([parts[3]! >> 8, parts[3]! & 255, parts[4]! & 255, parts[5]! >> 8])];
  }
  if (range === '6to4') return [ipv4At(parts, 1)];
  if (range === 'teredo') {
    const client = ipv4At(parts, 6);
    return [ipv4At(parts, 2), new ipaddr.IPv4(client.octets.map((octet) => octet ^ 255))];
  }
  if (isIPv4Compatible(address)) return [ipv4At(parts, 6)];
  return [];
}

// ::/96 outside :: and ::1, which ipaddr.js calls plain unicast; deprecated by RFC 4291.
function isIPv4Compatible(address: ipaddr.IPv6): boolean {
  return address.range() === 'unicast' && address.parts.slice(0, 6).every((part) => part === 0);
}

function ownClass(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass | 'public' | 'carrier' {
  if (METADATA.has(address.toNormalizedString())) return 'metadata';
  if (address instanceof ipaddr.IPv6 && isIPv4Compatible(address)) return 'reserved';
  return RANGE_CLASSES[address.range()] ?? 'reserved';
}

function classify(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass | undefined {
  const carried = address instanceof ipaddr.IPv6 ? embeddedIPv4(address).map(classify) : [];
  const found = [ownClass(address), ...carried];
  return SEVERITY.find((kind) => found.includes(kind));
}

export function classifyAddress(address: string): AddressClass | undefined {
  if (isIP(address) === 0) throw new Error(`classifyAddress needs an IP address, got '${address}'`);
  return classify(ipaddr.parse(address));
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
