import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../support/scratchDir.js';
import { describe, expect, it } from 'vitest';
import { loadDotEnv } from '../../src/models/loadDotEnv.js';

function dirWithEnv(content: string): string {
  const dir = scratchDir('dotenv');
  writeFileSync(join(dir, '.env'), content);
  return dir;
}

describe('loadDotEnv', () => {
  it('loads variables from .env in the given directory', () => {
    const env: NodeJS.ProcessEnv = {};
    loadDotEnv(dirWithEnv('ANTHROPIC_API_KEY=from-file\n# comment\nQUOTED="a b"\n'), env);
    expect(env).toEqual({ ANTHROPIC_API_KEY: 'from-file', QUOTED: 'a b' });
  });

  it('does not override variables that are already set', () => {
    const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'from-shell' };
    loadDotEnv(dirWithEnv('ANTHROPIC_API_KEY=from-file\n'), env);
    expect(env.ANTHROPIC_API_KEY).toBe('from-shell');
  });

  it('returns the path it loaded', () => {
    const dir = dirWithEnv('A=1\n');
    expect(loadDotEnv(dir, {})).toBe(join(dir, '.env'));
  });

  it('does nothing when there is no .env file', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(loadDotEnv(scratchDir('dotenv'), env)).toBeUndefined();
    expect(env).toEqual({});
  });
});
