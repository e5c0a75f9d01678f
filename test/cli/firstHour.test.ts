import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOpenAIFake } from '../models/wire/fakes/openai.js';
import { runCli, tempDir } from './cli.js';

// What the CLI says to the mistakes a new user made in their first hour.

const home = tempDir('first-hour');
afterAll(home.remove);

describe('naming the syndicate', () => {
  it('suggests the closest name for a mistyped one', async () => {
    const result = await runCli(['run', 'councl', 'hi', '--offline'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no syndicate file or name 'councl'. Did you mean 'council'?");
  });

  it('says a folder is a folder, and lists the syndicate files in it', async () => {
    const folder = join(home.path, 'team');
    mkdirSync(folder);
    writeFileSync(join(folder, 'desk.yaml'), 'syndicate_name: Desk\n');

    const result = await runCli(['run', 'team', 'hi', '--offline'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${folder} is a folder, not a syndicate file: name one file (it holds ${join('team', 'desk.yaml')})`);
  });
});

describe('--model', () => {
  it('with an unknown id is an error of the flag, with the corrected id', async () => {
    const result = await runCli(['run', 'council', 'hi', '--model', 'gtp-4o'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--model: unknown model "gtp-4o" — did you mean "gpt-4o"?');
  });
});

describe('--bind', () => {
  it('of a variable the file does not use is a warning', async () => {
    const result = await runCli(['run', 'council', 'hi', '--offline', '--bind', 'team=sales'], { home: home.path });

    expect(result.code).toBe(0);
    expect(result.stderr).toContain("the binding 'team' is not used: there is no {{team}} in this file or the files it mounts");
  });
});

describe('--timeout and --deadline', () => {
  it('--deadline stops a turn whose provider accepts the call and never answers', async () => {
    const fake = (await startOpenAIFake()).hang();
    try {
      const result = await runCli(['run', 'quartermaster', 'Plan the budget.', '--model', 'gpt-5-mini', '--deadline', '1s'], {
        home: home.path,
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${fake.url}/v1` },
      });

      expect(result.code).toBe(1);
      expect(result.stdout).toContain('The turn passed its 1.0 s deadline and was stopped.');
    } finally {
      await fake.close();
    }
  });

  it('refuses a value that is not a duration, saying how to write one', async () => {
    const result = await runCli(['run', 'council', 'hi', '--offline', '--timeout', 'soon'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--timeout soon: must be a number with a unit, e.g. 500ms, 90s, 5m or 1h (a bare number is seconds)');
  });
});
