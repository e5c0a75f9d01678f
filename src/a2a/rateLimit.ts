import type { Request, RequestHandler } from 'express';
import type { Refuse } from './refusals.js';

// Per-client rate limiting: a token bucket per client address. Refusals carry Retry-After, the
// seconds until the next token, as RFC 9110 asks of a 429.

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed at once after a quiet spell. */
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 20, burst: 60 };

interface Bucket {
  tokens: number;
  at: number;
}

// Beyond this many clients, full buckets are dropped: they hold nothing a new bucket would not.
const MAX_TRACKED = 10_000;

/** One set of buckets for every endpoint; each endpoint's guard refuses in its own error shape. */
export interface RateLimiter {
  /** Counts each request against the bucket `clientOf` names (the address by default); undefined counts nothing. */
  guard(refuse: Refuse, clientOf?: (req: Request) => string | undefined): RequestHandler;
  /** Takes a token of this client's bucket: undefined when it had one, else the seconds until the next. */
  take(client: string): number | undefined;
}

/** The address a request counts against. */
function addressOf(req: Request): string {
  // req.ip is the socket's address, or X-Forwarded-For's client when the app trusts the proxy
  // in front of it (its `trust proxy` setting): else every caller behind the proxy shares a bucket.
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** A limiter and whose bucket a request counts against (the address when clientOf is absent). */
export interface RateBucket {
  limiter: RateLimiter;
  clientOf?: (req: Request) => string | undefined;
}

/** The guards of each bucket, refusing in one endpoint's error shape. */
export function rateGuards(buckets: readonly RateBucket[], refuse: Refuse): RequestHandler[] {
  return buckets.map(({ limiter, clientOf }) => limiter.guard(refuse, clientOf));
}

export function createRateLimiter(limit: RateLimit, now: () => number = Date.now): RateLimiter {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1)) throw new Error('rate limit: perSecond must be > 0 and burst >= 1');
  const buckets = new Map<string, Bucket>();
  const refill = (bucket: Bucket, time: number): void => {
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((time - bucket.at) / 1000) * limit.perSecond);
    bucket.at = time;
  };
  const take = (client: string): number | undefined => {
    const time = now();
    let bucket = buckets.get(client);
    if (!bucket) {
      if (buckets.size >= MAX_TRACKED) {
        for (const [key, held] of buckets) {
          refill(held, time);
          if (held.tokens >= limit.burst) buckets.delete(key);
        }
      }
      bucket = { tokens: limit.burst, at: time };
      buckets.set(client, bucket);
    }
    refill(bucket, time);
    if (bucket.tokens < 1) return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
    bucket.tokens -= 1;
    return undefined;
  };
  return {
    take,
    guard: (refuse, clientOf = addressOf) => (req, res, next) => {
      const client = clientOf(req);
      const seconds = client === undefined ? undefined : take(client);
      if (seconds === undefined) return next();
      res.setHeader('Retry-After', String(seconds));
      refuse(req, res, 429, `Too many requests: at most ${limit.perSecond} per second (bursts of ${limit.burst}). Retry after ${seconds} s.`);
    },
  };
}
