import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { addressProblem, BlockedUrlError, urlProblem, type NetworkPolicy } from './ssrf.js';

// A fetch that enforces the SSRF guard on the address each socket really connects to: the
// check runs inside the DNS lookup of the connection, so a host that resolves to a public
// address when checked and a private one when connected (DNS rebinding) is still refused.
// Redirects are followed here, hop by hop, each one checked again.

export type GuardedFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Every address of a host name: the system's resolver, or one a test controls (a DNS-rebinding host). */
export type ResolveHost = (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]>;

export const systemResolver: ResolveHost = (hostname, options) => dnsLookup(hostname, options);

export interface GuardedResponse {
  response: Response;
  /** Where the response came from, after redirects. */
  url: URL;
}

const MAX_REDIRECTS = 5;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const NO_BODY: ReadonlySet<number> = new Set([204, 205, 304]);

function guardedLookup(host: string, policy: NetworkPolicy, resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }).then(
      (addresses) => {
        // Every address is checked: the socket may try any of them.
        for (const { address } of addresses) {
          const problem = addressProblem(host, address, policy);
          if (problem) return callback(new BlockedUrlError(host, problem), '', 0);
        }
        const first = addresses[0];
        if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return body.toString();
  throw new Error('guardedFetch sends string, byte and form bodies only');
}

function decoded(response: IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

function toResponse(message: IncomingMessage): Response {
  const headers = new Headers();
  for (let i = 0; i < message.rawHeaders.length; i += 2) headers.append(message.rawHeaders[i]!, message.rawHeaders[i + 1]!);
  const status = message.statusCode ?? 502;
  const encoded = headers.has('content-encoding');
  if (encoded) {
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  if (NO_BODY.has(status)) {
    message.resume();
    return new Response(null, { status, statusText: message.statusMessage, headers });
  }
  const body = Readable.toWeb(encoded ? decoded(message) : message) as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: message.statusMessage, headers });
}

function send(url: URL, method: string, headers: Headers, body: string | Uint8Array | undefined, policy: NetworkPolicy, resolve: ResolveHost, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  const problem = urlProblem(url, policy);
  if (problem) return Promise.reject(new BlockedUrlError(url.href, problem));
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
  const options: RequestOptions = {
    method,
    headers: Object.fromEntries(headers),
    lookup: guardedLookup(url.hostname, policy, resolve),
    signal,
  };
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, resolve);
    request.on('error', (error) => reject(error instanceof BlockedUrlError ? new BlockedUrlError(url.href, error.message.replace(/^refused to fetch [^:]+: /, '')) : error));
    request.end(body);
  });
}

/** Fetches `input` under `policy`, following redirects (each hop checked) unless `init.redirect` says otherwise. */
export async function guardedRequest(input: string | URL, init: RequestInit, policy: NetworkPolicy, resolve: ResolveHost = systemResolver): Promise<GuardedResponse> {
  let url = new URL(input);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = bodyOf(init.body);
  const headers = new Headers(init.headers);
  const signal = init.signal ?? undefined;
  for (let hop = 0; ; hop++) {
    const message = await send(url, method, headers, body, policy, resolve, signal);
    const location = message.headers.location;
    if (!REDIRECTS.has(message.statusCode ?? 0) || location === undefined || init.redirect === 'manual') return { response: toResponse(message), url };
    message.resume();
    if (init.redirect === 'error') throw new Error(`${url.href} redirected to ${location}, and redirects were not allowed`);
    if (hop >= MAX_REDIRECTS) throw new Error(`${input.toString()} redirected more than ${MAX_REDIRECTS} times`);
    const next = new URL(location, url);
    // As fetch does: 303 (and 301/302 after a POST) become a GET without a body.
    if (message.statusCode === 303 || ((message.statusCode === 301 || message.statusCode === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    if (next.origin !== url.origin) headers.delete('authorization');
    url = next;
  }
}

/** A fetch-shaped function (for SDK transports) that runs every request through the guard. */
export function createGuardedFetch(policy: NetworkPolicy, resolve: ResolveHost = systemResolver): GuardedFetch {
  return async (input, init = {}) => (await guardedRequest(input, init, policy, resolve)).response;
}
