import { describe, expect, it } from 'vitest';
import { parseSince } from '../../../src/telemetry/ledger/since.js';

const now = Date.UTC(2026, 10, 30, 12, 0, 0);

describe('--since', () => {
  it.each([
    ['30m', 30 * 60_000],
    ['12h', 12 * 3_600_000],
    ['7d', 7 * 86_400_000],
    ['2w', 14 * 86_400_000],
  ])('reads %s as that long before now', (text, ms) => {
    expect(parseSince(text, now)).toBe(now - ms);
  });

  it('reads a day as local midnight', () => {
    expect(parseSince('2026-11-01', now)).toBe(new Date(2026, 10, 1).getTime());
  });

  it('reads an ISO date-time as that instant', () => {
    expect(parseSince('2026-11-01T09:30:00Z', now)).toBe(Date.UTC(2026, 10, 1, 9, 30));
  });

  it.each(['yesterday', '7', '7y', '2026-02-30', '2026-13-01', '2026-11-01T99:00Z', ''])('rejects %j, naming the accepted forms', (text) => {
    expect(() => parseSince(text, now)).toThrow(/cannot read --since .*use 7d, 12h/);
  });
});
