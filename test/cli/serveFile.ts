import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { REPO_ROOT, startCli, tempDir, type LiveCli } from './cli.js';

// `syndicate serve` processes (the built CLI) serving one syndicate file offline on a free port,
// each in a home of its own; every one still running is killed, and its home removed, after each test.
// And the waiting room, a syndicate whose turns wait as long as a test needs.

/**
 * Starts `serve <file> --db <db>` with the call's `content` as the file, or else `yaml` (a file that
 * must be written when the server starts gives none); resolves once the server listens.
 */
export function useServedFiles(fileName: string, yaml?: string): (db: string, content?: string) => Promise<LiveCli> {
  const live: LiveCli[] = [];
  const homes: Array<{ remove(): void }> = [];
  afterEach(async () => {
    for (const cli of live.splice(0)) {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await cli.result;
    }
    for (const home of homes.splice(0)) home.remove();
  });
  return async (db, content = yaml) => {
    if (content === undefined) throw new Error(`no content for ${fileName}: pass it to useServedFiles or to this call`);
    const home = tempDir('serve-file');
    homes.push(home);
    const file = join(home.path, fileName);
    writeFileSync(file, content);
    const cli = startCli(['serve', file, '--offline', '--port', '0', '--db', db], { home: home.path });
    live.push(cli);
    await cli.waitForStdout('MCP:');
    return cli;
  };
}

/** The MCP server whose `hang` tool never answers: a turn or a piece that calls it runs until cancelled. */
export const FLAKY_MCP_SERVER = join(REPO_ROOT, 'test', 'tools', 'mcp', 'fixtures', 'flakyServer.mjs');

/**
 * Writes waiting-room.yaml into `folder`: a syndicate that waits as long as asked ("wait": an MCP
 * tool that never answers) and asks the user a question ("offsite"), answered by "Lisbon".
 */
export function waitingRoom(folder: string): string {
  const file = join(folder, 'waiting-room.yaml');
  writeFileSync(file, waitingRoomYaml());
  return file;
}

/** The waiting room's syndicate file, as text. */
export function waitingRoomYaml(): string {
  const server = FLAKY_MCP_SERVER;
  return `syndicate_name: "Waiting Room"
memory_system: "session-only"
orchestrator:
  name: "Receptionist"
  model: "scripted"
  instruction: "Wait when asked to; ask which city an offsite is in."
  tools: [ask_user]
  mcp_servers:
    - { name: flaky, transport: stdio, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(server)}] }
  script:
    - { match: "wait", tool_calls: [{ tool: flaky_hang, args: {} }], repeat: true }
    - { match: "offsite", tool_calls: [{ tool: ask_user, args: { question: "Which city should the offsite be in?" } }], repeat: true }
    - { match: "lisbon", reply: "Lisbon booked.", repeat: true }
`;
}
