import { isIP } from 'node:net';

// `--http [host:]port`: where an HTTP MCP server listens. Loopback unless a host is named.

export interface ListenAddress {
  host: string;
  port: number;
}

export const DEFAULT_HOST = '127.0.0.1';

const HOST_AND_PORT = /^(?:\[(?<v6>[^\]]+)\]|(?<host>[^:]+)):(?<port>[^:]+)$/;

function portOf(text: string, value: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new Error(`'${value}' has no valid port: use [host:]port with a port from 0 to 65535, e.g. 8000 or 127.0.0.1:8000`);
  return port;
}

/** Parses `8000`, `0.0.0.0:8000`, `localhost:8000` or `[::1]:8000`; throws a message that shows the form. */
export function parseListenAddress(value: string): ListenAddress {
  if (/^\d+$/.test(value)) return { host: DEFAULT_HOST, port: portOf(value, value) };
  const match = HOST_AND_PORT.exec(value);
  const host = match?.groups?.v6 ?? match?.groups?.host;
  if (match === null || host === undefined || host === '') throw new Error(`'${value}' is not [host:]port, e.g. 8000, 127.0.0.1:8000 or [::1]:8000`);
  return { host, port: portOf(match.groups!.port!, value) };
}

/** True for names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The host as it goes in a URL (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
