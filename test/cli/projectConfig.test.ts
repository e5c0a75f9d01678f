import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './cli.js';

const dir = tempDir('project-config');
afterAll(dir.remove);

const REFUSED = 'providers:\n  openrouter:\n    base_url: https://openrouter.ai/api/v1\n    api_key: sk-or-123\n';

describe('the project config file', () => {
  it('is read by run, and a refused one stops it with file:line:col', async () => {
    writeFileSync(join(dir.path, 'syndicate.config.yaml'), REFUSED);

    const result = await runCli(['run', 'council', 'hi', '--offline'], { home: dir.path });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^syndicate\.config\.yaml:4:5 providers\.openrouter\.api_key: a key must not be written/);
  });

  it('does not stand between a person and commands that call no model', async () => {
    writeFileSync(join(dir.path, 'syndicate.config.yaml'), REFUSED);

    const result = await runCli(['sessions', 'list'], { home: dir.path });

    expect(result.code).toBe(0);
  });
});
