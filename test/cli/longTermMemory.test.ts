import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, runCli, tempDir } from './cli.js';

// The whole long-term memory loop through the CLI, offline: each run is a session, distilled into
// facts when it ends (by a scripted extraction), and the next session's agent gets them preloaded.

const home = tempDir('long-term');
afterAll(home.remove);

const fact = (text: string, tag: string): unknown => ({ text, tag, date: null, source: 'user', keys: ['home'], turn: 'whichever' });
const script = join(home.path, 'extraction.json');
writeFileSync(
  script,
  JSON.stringify({
    'memory-extraction': [
      { match: 'I live in Lisbon', json: { facts: [fact('The user lives in Lisbon.', 'FACT')] } },
      { match: 'moved to Berlin', json: { facts: [fact('The user lives in Berlin.', 'CORRECTION')] } },
    ],
  }),
);

const run = (message: string, ...extra: string[]) => runCli(['run', 'concierge', message, '--offline', '--script', script, ...extra], { home: home.path });

describe('long-term memory through the CLI', () => {
  it('remembers offline with the example script shipped beside concierge.yaml, as its comments say', async () => {
    const shipped = join(EXAMPLES_DIR, 'concierge.script.yaml');
    const exampleHome = tempDir('concierge-script');
    try {
      const stated = await runCli(['run', 'concierge', 'I live in Berlin.', '--offline', '--script', shipped], { home: exampleHome.path });
      expect(stated.stdout).toContain('Memory (concierge--local): 1 new fact from 1 turn.');

      const asked = await runCli(['run', 'concierge', 'Where do I live?', '--offline', '--script', shipped], { home: exampleHome.path });
      expect(asked.stdout).toContain('From memory: you live in Berlin, so I will plan from there.');
    } finally {
      exampleHome.remove();
    }
  });

  it('remembers a fact, lets a correction supersede it, and answers the next session from the correction', async () => {
    const stated = await run('I live in Lisbon.');
    expect(stated.stdout).toContain('Memory (concierge--local): 1 new fact from 1 turn.');

    const corrected = await run('Correction: I moved to Berlin last month.');
    expect(corrected.stdout).toContain('Memory (concierge--local): 1 new fact from 1 turn (1 older fact superseded).');

    const asked = await run('Where do I live?', '--json');
    const events = asked.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; message?: string; output?: string });
    expect(events.find((event) => event.type === 'status')?.message).toBe('Recalled facts from long-term memory');
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', status: 'completed', output: 'From memory: you live in Berlin, so I will plan from there.' });

    const listed = await runCli(['memory', 'list', '--silo', 'concierge--local', '--json'], { home: home.path });
    const facts = JSON.parse(listed.stdout) as Array<{ text: string; status: string }>;
    expect(facts.map(({ text, status }) => [text, status])).toEqual([
      ['The user lives in Berlin.', 'active'],
      ['The user lives in Lisbon.', 'superseded'],
    ]);
  }, 60_000);
});
