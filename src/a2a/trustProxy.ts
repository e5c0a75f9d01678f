import { isIP } from 'node:net';

// Which peers may name the client in X-Forwarded-For (A2A_TRUST_PROXY): Express's `trust proxy`
// setting without its "true", which would let any caller pick its own address and bucket.

/** A hop count, or addresses, CIDR subnets and the names loopback, linklocal and uniquelocal. */
export type TrustProxy = number | string[];

const NAMED_RANGES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrSubnet(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...more] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

export function parseTrustProxy(value: string): TrustProxy | Error {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const entries = trimmed.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const wrong = entries.filter((entry) => !isAddressOrSubnet(entry));
  if (entries.length === 0 || wrong.length > 0) {
    return new Error(
      `A2A_TRUST_PROXY '${value}' is not a hop count or a list of proxy addresses: set the number of proxies in front of the server (e.g. 1), or their addresses, subnets or 'loopback' (e.g. loopback,10.0.0.0/8).`,
    );
  }
  return entries;
}
