import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './cli.js';

const home = tempDir('sessions');
afterAll(home.remove);

describe('sessions', () => {
  it('resumes a session across processes and shows both turns', async () => {
    const first = await runCli(['run', 'quartermaster', 'Work out the budget.', '--offline', '--new-session', 'trip'], { home: home.path });
    expect(first.code).toBe(0);
    const second = await runCli(['run', 'quartermaster', 'What was the result?', '--offline', '--session', 'trip'], { home: home.path });
    expect(second.code).toBe(0);

    const shown = await runCli(['sessions', 'show', 'trip'], { home: home.path });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Quartermaster · session trip');
    expect(shown.stdout).toContain('── Turn 1 · ');
    expect(shown.stdout).toContain('You: Work out the budget.\n⚙ Quartermaster calls calculator {"expression":"4800 / 12"}\n↳ calculator: {"expression":"4800 / 12","result":400}\nQuartermaster:\nA 4,800 budget for 12 people allows 400 each.');
    expect(shown.stdout).toContain('── Turn 2 · ');
    expect(shown.stdout).toContain('You: What was the result?');
  });

  it('labels each agent and its delegations in the transcript', async () => {
    await runCli(['run', 'council', 'Ship on Fridays.', '--offline', '--new-session', 'friday'], { home: home.path });
    const shown = await runCli(['sessions', 'show', 'friday'], { home: home.path });
    expect(shown.stdout).toContain('You: Ship on Fridays.\n→ Moderator consults Advocate: "Ship on Fridays."\n  Advocate:\n  [Advocate] On "Ship on Fridays."');
    expect(shown.stdout).toContain('← Advocate answered\n');
    expect(shown.stdout).toContain('Moderator:\nConsulted Advocate and Skeptic.');
  });

  it('prints stored events as NDJSON with --json', async () => {
    const shown = await runCli(['sessions', 'show', 'trip', '--json'], { home: home.path });
    const events = shown.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.filter((e) => e.type === 'turn-start')).toHaveLength(2);
    expect(events.at(-1)?.type).toBe('turn-end');
  });

  it('lists sessions as a table and as JSON', async () => {
    const table = await runCli(['sessions', 'list'], { home: home.path });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^SESSION\s+SYNDICATE\s+EVENTS\s+UPDATED\n/);
    expect(table.stdout).toMatch(/\ntrip\s+Quartermaster\s+\d+\s+\d{4}-\d\d-\d\d \d\d:\d\d\n/);
    const json = await runCli(['sessions', 'list', '--json'], { home: home.path });
    const sessions = JSON.parse(json.stdout) as Array<{ id: string; syndicate: string }>;
    expect(sessions.map((s) => s.id).sort()).toEqual(['friday', 'trip']);
  });

  it('refuses to resume another syndicate’s session', async () => {
    const result = await runCli(['run', 'council', 'hi', '--offline', '--session', 'trip'], { home: home.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("session trip belongs to the syndicate 'Quartermaster', not 'Council'");
  });

  it('deletes a session; showing or deleting it again exits 1', async () => {
    const deleted = await runCli(['sessions', 'delete', 'friday'], { home: home.path });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe('Deleted session friday.\n');
    const shown = await runCli(['sessions', 'show', 'friday'], { home: home.path });
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain('No session friday in ');
    expect((await runCli(['sessions', 'delete', 'friday'], { home: home.path })).code).toBe(1);
  });

  it('reads an empty store without creating one', async () => {
    const empty = tempDir('empty');
    try {
      const result = await runCli(['sessions', 'list'], { home: empty.path });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`No sessions in ${empty.path}/syndicate.db.\n`);
    } finally {
      empty.remove();
    }
  });
});
