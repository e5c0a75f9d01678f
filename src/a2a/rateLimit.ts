import type { RequestHandler } from 'express';

// Per-client rate limiting: a token bucket per remote address. Refusals carry Retry-After, the
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

export function rateLimiter(limit: RateLimit, now: () => number = Date.now): RequestHandler {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1)) throw new Error('rate limit: perSecond must be > 0 and burst >= 1');
  const buckets = new Map<string, Bucket>();
  const refill = (bucket: Bucket, time: number): void => {
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((time - bucket.at) / 1000) * limit.perSecond);
    bucket.at = time;
  };
  return (req, res, next) => {
    const time = now();
    const key = req.socket.remoteAddress ?? 'unknown';
    let bucket = buckets.get(key);
    if (!bucket) {
      if (buckets.size >= MAX_TRACKED) {
        for (const [k, b] of buckets) {
          refill(b, time);
          if (b.tokens >= limit.burst) buckets.delete(k);
        }
      }
      bucket = { tokens: limit.burst, at: time };
      buckets.set(key, bucket);
    }
    refill(bucket, time);
    if (bucket.tokens < 1) {
      const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
      res.setHeader('Retry-After', String(seconds));
      res.status(429).json({ error: `Too many requests: at most ${limit.perSecond} per second (bursts of ${limit.burst}). Retry after ${seconds} s.` });
      return;
    }
    bucket.tokens -= 1;
    next();
  };
}
