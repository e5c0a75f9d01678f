import { describe, expect, it } from 'vitest';
import { rateLimitedWarning } from '../../src/a2a/rateLimitedWarning.js';

describe('a rate-limited warning', () => {
  it('writes the first line at once, drops the rest of the interval, and counts them in the next line', () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const warn = rateLimitedWarning((line) => lines.push(line), 60_000, () => now);

    warn('bad version');
    warn('bad version');
    warn('bad version');
    now += 60_000;
    warn('bad version');
    warn('bad version');

    expect(lines).toEqual(['bad version', 'bad version (2 more like it in the last 60 s)']);
  });
});
