import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// `npm ci` on the oldest Node the package supports installs without an EBADENGINE warning: no
// locked package, dev dependencies included, asks for a newer Node than package.json promises.

const root = new URL('../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

type Version = [number, number, number];

function lowerBound(range: string): Version | undefined {
  const match = /(?:>=|\^|~)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(range.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

function atMost(a: Version, b: Version): boolean {
  return a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] <= b[2];
}

/** Whether the oldest supported Node satisfies `range`: some alternative's lower bound is at or below it. */
function admits(range: string, oldest: Version): boolean {
  return range.split('||').some((alternative) => {
    const bound = lowerBound(alternative);
    return bound === undefined || atMost(bound, oldest);
  });
}

describe('the lockfile', () => {
  it("asks for no Node newer than package.json's engines", () => {
    const oldest = lowerBound(manifest.engines.node)!;
    const tooNew = Object.entries(lock.packages).flatMap(([name, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range !== undefined && !admits(range, oldest) ? [`${name}@${entry.version} wants node ${range}`] : [];
    });

    expect(tooNew).toEqual([]);
  });
});
