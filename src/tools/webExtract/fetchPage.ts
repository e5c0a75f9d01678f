import { guardedRequest } from '../guards/guardedFetch.js';
import { BlockedUrlError, type NetworkPolicy } from '../guards/ssrf.js';

// Fetches one page for web_extract through the SSRF guard: a time limit, a size limit, and
// the body decoded with the charset the server (or the page's own <meta>) declares.

export interface FetchPageOptions {
  policy: NetworkPolicy;
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
}

export type FetchedPage =
  | { ok: true; url: string; status: number; body: string; html: boolean; truncated: boolean }
  | { ok: false; kind: 'refused' | 'unreachable' | 'timeout' | 'unsupported'; reason: string };

const READABLE_TYPES = /^(text\/[a-z0-9.+-]+|application\/(xhtml\+xml|xml|json|[a-z0-9.+-]+\+(xml|json)))$/i;

function charsetOf(contentType: string, head: Uint8Array): string {
  const declared = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  if (declared) return declared;
  const sniffed = /<meta[^>]+charset=["']?([\w-]+)/i.exec(new TextDecoder('latin1').decode(head.subarray(0, 2048)))?.[1];
  return sniffed ?? 'utf-8';
}

function decode(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 is what the web mostly is, and the page says which it claimed.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!body) return { bytes: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  while (size < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  const truncated = size >= maxBytes;
  if (truncated) await reader.cancel();
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, truncated };
}

export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  try {
    const { response, url: finalUrl } = await guardedRequest(url, { headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5', 'user-agent': 'Syndicate web_extract' }, signal }, options.policy);
    const contentType = response.headers.get('content-type') ?? 'text/html';
    const mediaType = contentType.split(';')[0]!.trim();
    if (!READABLE_TYPES.test(mediaType)) {
      await response.body?.cancel();
      return { ok: false, kind: 'unsupported', reason: `the URL is not a web page but ${mediaType}, which web_extract does not read` };
    }
    const { bytes, truncated } = await readLimited(response.body, options.maxBytes);
    const html = /html|xml/i.test(mediaType);
    return { ok: true, url: finalUrl.href, status: response.status, body: decode(bytes, charsetOf(contentType, bytes)), html, truncated };
  } catch (error) {
    if (options.signal.aborted) throw error;
    if (error instanceof BlockedUrlError) return { ok: false, kind: 'refused', reason: error.message };
    if (signal.aborted) return { ok: false, kind: 'timeout', reason: `no complete answer within ${options.timeoutMs / 1000} s` };
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return { ok: false, kind: 'unreachable', reason: `${(error as Error).message}${cause ? ` (${cause})` : ''}` };
  }
}
