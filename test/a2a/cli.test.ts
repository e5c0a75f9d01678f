import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli, startCli, tempDir, type LiveCli } from '../cli/cli.js';
import { clientFor, sendRequest, textOf } from './fixtures.js';

// The built CLI: `syndicate serve-a2a`, and how `run` shows a question from ask_user.

let home: ReturnType<typeof tempDir>;
let live: LiveCli | undefined;

beforeEach(() => {
  home = tempDir('a2a');
});

afterEach(async () => {
  if (live && live.child.exitCode === null) {
    live.child.kill('SIGKILL');
    await live.result;
  }
  live = undefined;
  home.remove();
});

/** A port that was free a moment ago (the CLI prints its URL, but LiveCli only waits for text). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('syndicate serve-a2a', () => {
  it('serves a bundled example as an A2A agent until SIGTERM', async () => {
    const port = await freePort();
    live = startCli(['serve-a2a', 'triage', '--offline', '--port', String(port)], { home: home.path });
    await live.waitForStdout('agent-card.json');
    const url = `http://127.0.0.1:${port}`;

    const client = await clientFor(`${url}/support-triage`, 'JSONRPC');
    const task = (await client.sendMessage(sendRequest('I was charged twice, I want a refund'))) as { artifacts: Array<{ parts: Parameters<typeof textOf>[0] }> };
    live.child.kill('SIGTERM');
    const result = await live.result;

    expect(textOf(task.artifacts[0]?.parts)).not.toBe('');
    expect(result.stdout).toContain(`Serving A2A at ${url}`);
    expect(result.stdout).toContain(`Support Triage: ${url}/support-triage/.well-known/agent-card.json`);
    expect(result.code).toBe(0);
  });

  it("distils each completed task into the caller's long-term memory, which a later task recalls", async () => {
    const port = await freePort();
    const script = join(home.path, 'extraction.json');
    const fact = { text: 'The user lives in Berlin.', tag: 'FACT', date: null, source: 'user', keys: ['home'], turn: 'any' };
    writeFileSync(script, JSON.stringify({ 'memory-extraction': [{ match: 'I live in Berlin', json: { facts: [fact] } }] }));
    live = startCli(['serve-a2a', 'concierge', '--offline', '--script', script, '--port', String(port)], { home: home.path });
    await live.waitForStdout('agent-card.json');
    const client = await clientFor(`http://127.0.0.1:${port}/concierge`, 'JSONRPC');
    const answerTo = async (text: string): Promise<string> => {
      const task = (await client.sendMessage(sendRequest(text))) as { artifacts: Array<{ parts: Parameters<typeof textOf>[0] }> };
      return textOf(task.artifacts[0]?.parts);
    };

    await answerTo('I live in Berlin now.');

    // Distilling runs after the task completes: a task sent meanwhile may not see the fact yet.
    await vi.waitFor(async () => expect(await answerTo('Where do I live?')).toBe('From memory: you live in Berlin, so I will plan from there.'), { timeout: 20_000, interval: 200 });
  }, 60_000);

  it('refuses to listen on a non-loopback address without a secret', async () => {
    const result = await runCli(['serve-a2a', 'triage', '--offline', '--host', '0.0.0.0', '--port', '0'], { home: home.path });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('A2A_SERVER_SECRET');
  });
});

describe('syndicate run with ask_user', () => {
  it('prints the question the agent asks', async () => {
    const file = join(home.path, 'planner.yaml');
    writeFileSync(
      file,
      [
        'syndicate_name: "Planner"',
        'orchestrator:',
        '  name: "Planner"',
        '  model: "scripted"',
        '  instruction: "Plan offsites."',
        '  tools: ["ask_user"]',
        '  script:',
        '    - match: "offsite"',
        '      tool_calls:',
        '        - tool: "ask_user"',
        '          args: { question: "Which city?" }',
        'subagents: []',
        '',
      ].join('\n'),
    );

    const result = await runCli(['run', file, 'plan an offsite'], { home: home.path });

    expect(result.stdout).toContain('? Waiting for your answer: Which city?');
  });
});
