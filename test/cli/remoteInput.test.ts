import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRemoteServer, type RemoteServer } from '../a2a/client/remoteServer.js';
import { runCli, tempDir } from './cli.js';

// `syndicate run` with a remote A2A agent (an SDK-built loopback server) that asks a question: the
// run exits 3 showing it, as with ask_user, and `run --session` with the answer continues the same
// remote task, in a new process that kept nothing in memory.

const QUESTION = 'Which city do you mean?';
// The remote agent is on loopback, which the SSRF guard refuses unless told otherwise.
const ENV = { ALLOW_PRIVATE_MCP: 'true' };

let home: ReturnType<typeof tempDir>;
let weather: RemoteServer;

beforeEach(async () => {
  home = tempDir('remote-input');
  weather = await startRemoteServer({ reply: (text) => (text.includes('Lyon') ? { kind: 'answer', chunks: ['Sunny in Lyon.'] } : { kind: 'ask', question: QUESTION }) });
});

afterEach(async () => {
  await weather.stop();
  home.remove();
});

function writeSyndicate(lines: readonly string[]): string {
  const file = join(home.path, 'desk.yaml');
  writeFileSync(file, [...lines, ''].join('\n'));
  return file;
}

function delegating(): string {
  return writeSyndicate([
    'syndicate_name: "Weather Desk"',
    'orchestrator:',
    '  name: "Chair"',
    '  model: "scripted"',
    '  instruction: "Consult Weather."',
    'subagents:',
    '  - name: "Weather"',
    `    a2a_url: "${weather.cardUrl}"`,
  ]);
}

function dispatching(): string {
  return writeSyndicate([
    'syndicate_name: "Weather Desk"',
    'dispatch:',
    '  default_route: "General"',
    'orchestrator:',
    '  name: "Desk"',
    '  model: "scripted"',
    '  instruction: "Route each message."',
    'subagents:',
    '  - name: "General"',
    '    description: "Answers everything else."',
    '    instruction: "Answer briefly."',
    '  - name: "Weather"',
    '    description: "Forecasts the weather for any city."',
    `    a2a_url: "${weather.cardUrl}"`,
  ]);
}

async function askThenAnswer(file: string) {
  const asked = await runCli(['run', file, 'What is the weather like?', '--offline', '--new-session', 'weather-1'], { home: home.path, env: ENV });
  const answered = await runCli(['run', file, 'Lyon', '--offline', '--session', 'weather-1'], { home: home.path, env: ENV });
  return { asked, answered };
}

describe('syndicate run with a remote agent that asks for input', () => {
  it('as a delegate, prints its question and exits 3, and --session with the answer continues the remote task', async () => {
    const { asked, answered } = await askThenAnswer(delegating());

    expect(asked.code).toBe(3);
    expect(asked.stdout).toContain(`? Waiting for your answer: ${QUESTION}`);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain('Weather: Sunny in Lyon.');
    const [question, reply] = weather.received;
    expect(reply).toMatchObject({ text: 'Lyon', continuedTaskId: question?.taskId, contextId: question?.contextId });
  });

  it('as a dispatch route, prints its question and exits 3, and --session with the answer goes back to it', async () => {
    const { asked, answered } = await askThenAnswer(dispatching());

    expect(asked.code).toBe(3);
    expect(asked.stdout).toContain('Routed to Weather (remote A2A agent) — shares the word "weather" with Weather');
    expect(asked.stdout).toContain(`? Waiting for your answer: ${QUESTION}`);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain('Routed to Weather (remote A2A agent) — answers the question Weather asked');
    expect(answered.stdout).toContain('Sunny in Lyon.');
    const [question, reply] = weather.received;
    expect(reply).toMatchObject({ text: 'Lyon', continuedTaskId: question?.taskId, contextId: question?.contextId });
  });
});
