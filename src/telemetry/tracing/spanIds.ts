import { randomFillSync } from 'node:crypto';
import { INVALID_SPANID, INVALID_TRACEID } from '@opentelemetry/api';

// Span and trace ids cut from a pool of random bytes, refilled and hex-encoded in bulk: one
// crypto call and one encoding per 512 span ids, where the SDK's generator makes one
// Math.random call per byte of every id. A substring of the pool costs no copy.

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let hex = '';
let offset = 0;

function randomHex(digits: number): string {
  if (offset + digits > hex.length) {
    hex = randomFillSync(pool).toString('hex');
    offset = 0;
  }
  const id = hex.substring(offset, offset + digits);
  offset += digits;
  return id;
}

/** 8 random bytes as 16 hex digits, never the all-zero id the spec reserves as invalid. */
export function newSpanId(): string {
  const id = randomHex(16);
  return id === INVALID_SPANID ? newSpanId() : id;
}

/** 16 random bytes as 32 hex digits, never the all-zero id the spec reserves as invalid. */
export function newTraceId(): string {
  const id = randomHex(32);
  return id === INVALID_TRACEID ? newTraceId() : id;
}
