import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startCli, tempDir, type LiveCli } from './cli.js';

// `syndicate serve` processes (the built CLI) serving one syndicate file offline on a free port,
// each in a home of its own; every one still running is killed, and its home removed, after each test.

/** Starts `serve <file> --db <db>` with `yaml` as the file; resolves once the server listens. */
export function useServedFiles(fileName: string, yaml: string): (db: string) => Promise<LiveCli> {
  const live: LiveCli[] = [];
  const homes: Array<{ remove(): void }> = [];
  afterEach(async () => {
    for (const cli of live.splice(0)) {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await cli.result;
    }
    for (const home of homes.splice(0)) home.remove();
  });
  return async (db) => {
    const home = tempDir('serve-file');
    homes.push(home);
    const file = join(home.path, fileName);
    writeFileSync(file, yaml);
    const cli = startCli(['serve', file, '--offline', '--port', '0', '--db', db], { home: home.path });
    live.push(cli);
    await cli.waitForStdout('MCP:');
    return cli;
  };
}
