import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BOARDROOM_PROPOSAL, EXAMPLES_DIR, runCli, tempDir } from './cli.js';
import { SEED_EXAMPLES_DIR } from '../seedExamplesDir.js';

const home = tempDir('run');
afterAll(home.remove);

interface ExampleCase {
  message: string;
  expected: string[];
  /** What the run prints after the resume line (long-term memory's note). */
  after?: string;
}

// Examples that need a server running beside them, with the test that runs them.
const RUN_ELSEWHERE: Record<string, string> = {
  librarian: 'test/mcp/librarian.test.ts (needs the mcp-demo server)',
};

// One case per bundled example; the first test fails if an example is added without one.
const EXAMPLES: Record<string, ExampleCase> = {
  boardroom: {
    message: BOARDROOM_PROPOSAL,
    expected: [
      `→ Chair consults Council (nested syndicate): "${BOARDROOM_PROPOSAL}"`,
      '  → Council consults Advocate',
      '  ← Advocate answered',
      '  → Council consults Skeptic',
      '  ← Skeptic answered',
      '← Council answered',
      '→ Chair consults Treasurer (nested syndicate)',
      '  ⚙ Treasurer calls calculator {"expression":"4800 / 12"}',
      '  ↳ calculator: {"expression":"4800 / 12","result":400}',
      '← Treasurer answered: A 4,800 budget for 12 people allows 400 each.',
      'Chair:\nConsulted Council and Treasurer.',
      'Treasurer: A 4,800 budget for 12 people allows 400 each.',
    ],
  },
  council: {
    message: 'Should our team adopt a four-day work week?',
    expected: ['→ Moderator consults Advocate', '← Advocate answered', '→ Moderator consults Skeptic', '← Skeptic answered', 'Moderator:\nConsulted Advocate and Skeptic.'],
  },
  critic: {
    message: 'Why is the sky blue?',
    expected: ['→ Editor consults Drafter', '← Drafter answered', '→ Editor consults Critic', '← Critic answered: {"message":', '"confidence":', 'Editor:\nConsulted Drafter and Critic.'],
  },
  quartermaster: {
    message: 'Plan the budget for the trip.',
    expected: ['⚙ Quartermaster calls calculator {"expression":"4800 / 12"}', '↳ calculator: {"expression":"4800 / 12","result":400}', 'Quartermaster:\nA 4,800 budget for 12 people allows 400 each.'],
  },
  concierge: {
    message: 'I live in Lisbon and prefer aisle seats.',
    expected: ['Concierge:\n[Concierge] On "I live in Lisbon and prefer aisle seats."'],
    // Offline nothing is extracted unless a script says so (see the long-term memory tests).
    after: '\nMemory (concierge--local): 0 new facts from 1 turn.\n',
  },
  triage: {
    message: 'I would like a refund for my last invoice.',
    expected: ['Routed to Billing — mentions a refund', '  Billing:\n  [Billing] On "I would like a refund for my last invoice."'],
  },
};

describe('syndicate run --offline', () => {
  it('has a case for every bundled example', () => {
    const names = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.yaml') && !f.endsWith('.script.yaml')).map((f) => f.slice(0, -'.yaml'.length));
    expect([...Object.keys(EXAMPLES), ...Object.keys(RUN_ELSEWHERE)].sort()).toEqual(names.sort());
  });

  it.each(Object.entries(EXAMPLES))('runs %s and prints its trace, answer and session', async (name, { message, expected, after = '' }) => {
    const result = await runCli(['run', name, message, '--offline'], { home: home.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const text of expected) expect(result.stdout).toContain(text);
    expect(result.stdout).toMatch(new RegExp(`Session (\\S+) stored in ${home.path}/syndicate\\.db\\nResume with: syndicate chat ${name} --session \\1 --offline\\n${after.replace(/[.()]/g, '\\$&')}$`));
  });

  it('routes through the classifier when no override matches', async () => {
    const result = await runCli(['run', 'triage', 'The app crashes with an error at login', '--offline'], { home: home.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Routed to Technical — shares the words "crashes", "error", "login" with Technical');
  });

  it('takes SYNDICATE_OFFLINE=1 instead of --offline', async () => {
    const result = await runCli(['run', 'quartermaster', 'budget'], { home: home.path, env: { SYNDICATE_OFFLINE: '1' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('A 4,800 budget for 12 people allows 400 each.');
  });

  it('says nothing was stored for memory_system: internal-only', async () => {
    const result = await runCli(['run', join(SEED_EXAMPLES_DIR, 'council.yaml'), 'Remote work beats the office.', '--offline'], { home: home.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('→ Moderator consults Advocate');
    expect(result.stdout).toMatch(/Nothing was stored \(memory_system: internal-only\)\.\n$/);
  });

  it('prints load warnings on stderr, keeping stdout for the turn', async () => {
    const dir = tempDir('inert');
    try {
      writeFileSync(join(dir.path, 'inert.yaml'), 'syndicate_name: "Inert"\norchestrator:\n  name: "Boss"\n  model: "gpt-4.1-mini"\n  instruction: "Hi"\n  outputKey: "x"\nsubagents: []\n');
      const result = await runCli(['run', 'inert.yaml', 'hi', '--offline', '--json'], { home: home.path, cwd: dir.path });
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/^warning: inert\.yaml:6:3 orchestrator\.outputKey: has no effect/);
      expect(result.stdout.trimEnd().split('\n').every((line) => line.startsWith('{'))).toBe(true);
    } finally {
      dir.remove();
    }
  });

  it('prints every event as NDJSON with --json, ending with turn-end', async () => {
    const result = await runCli(['run', 'boardroom', BOARDROOM_PROPOSAL, '--offline', '--json'], { home: home.path });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { type: string; status?: string; depth: number; tool?: string });
    expect(events[0]?.type).toBe('turn-start');
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', status: 'completed' });
    expect(events.filter((e) => e.type === 'turn-end')).toHaveLength(1);
    expect(events.some((e) => e.type === 'tool-call' && e.tool === 'calculator')).toBe(true);
    expect(events.some((e) => e.type === 'text-delta')).toBe(true);
    expect(result.stderr).toMatch(/^Session \S+ stored in /);
  });

  it('uses steps from --script and values from --bind', async () => {
    const dir = tempDir('script');
    try {
      writeFileSync(join(dir.path, 'greeter.yaml'), 'syndicate_name: "Greeter"\norchestrator:\n  name: "Greeter"\n  model: "gpt-4.1-mini"\n  instruction: "Greet {{who}}."\nsubagents: []\n');
      writeFileSync(join(dir.path, 'script.yaml'), 'Greeter:\n  - thinking: "Who is it?"\n    reply: "Hello from the script file."\n');
      const result = await runCli(['run', 'greeter.yaml', 'hi', '--offline', '--script', 'script.yaml', '--bind', 'who=Ada'], { home: home.path, cwd: dir.path });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Greeter is thinking…\n\nGreeter:\nHello from the script file.');
      expect(result.stdout).toContain("Resume with: syndicate chat greeter.yaml --session");
      expect(result.stdout).toContain('--offline --script script.yaml --bind who=Ada');
    } finally {
      dir.remove();
    }
  });
});

describe('syndicate run waiting for the user', () => {
  it('prints the question and exits 3 when the turn ends waiting for an answer, which --session continues', async () => {
    const dir = tempDir('ask');
    try {
      writeFileSync(
        join(dir.path, 'planner.yaml'),
        [
          'syndicate_name: "Planner"',
          'orchestrator:',
          '  name: "Planner"',
          '  model: "gpt-4.1-mini"',
          '  instruction: "Plan offsites."',
          '  tools: ["ask_user"]',
          '  script:',
          '    - match: "offsite"',
          '      tool_calls: [{ tool: "ask_user", args: { question: "Which city?" } }]',
          '    - match: "lisbon"',
          '      reply: "Lisbon it is."',
          'subagents: []',
          '',
        ].join('\n'),
      );
      const asked = await runCli(['run', 'planner.yaml', 'Plan an offsite', '--offline', '--new-session', 'ask-1'], { home: home.path, cwd: dir.path });
      expect(asked.code).toBe(3);
      expect(asked.stdout).toContain('Which city?');

      const answered = await runCli(['run', 'planner.yaml', 'Lisbon', '--offline', '--session', 'ask-1'], { home: home.path, cwd: dir.path });
      expect(answered.code).toBe(0);
      expect(answered.stdout).toContain('Lisbon it is.');
    } finally {
      dir.remove();
    }
  });
});

describe('syndicate run failures', () => {
  it('names the missing key and --offline, and exits 1', async () => {
    const result = await runCli(['run', 'boardroom', 'hello'], { home: home.path });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("✖ Agent 'Chair' uses claude-sonnet-4-5 but ANTHROPIC_API_KEY is not set.");
    expect(result.stdout).toContain('--offline');
  });

  it("prints each setting an agent's provider cannot honour on stderr before the turn", async () => {
    const dir = tempDir('topk');
    try {
      writeFileSync(join(dir.path, 'topk.yaml'), 'syndicate_name: "TopK"\norchestrator:\n  name: "Boss"\n  model: "gpt-4.1-mini"\n  instruction: "Hi"\n  generateContentConfig:\n    topK: 40\nsubagents: []\n');
      const result = await runCli(['run', 'topk.yaml', 'hi'], { home: home.path, cwd: dir.path });
      expect(result.stderr).toMatch(/^warning: Agent 'Boss': topK is not supported by OpenAI models and will be ignored/);
    } finally {
      dir.remove();
    }
  });

  it('refuses web_search on a model without native search before any turn, and exits 1', async () => {
    const dir = tempDir('search');
    try {
      writeFileSync(join(dir.path, 'search.yaml'), 'syndicate_name: "Search"\norchestrator:\n  name: "Boss"\n  model: "ollama/qwen3:8b"\n  instruction: "Hi"\n  tools: [web_search]\nsubagents: []\n');
      const result = await runCli(['run', 'search.yaml', 'hi'], { home: home.path, cwd: dir.path });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain("orchestrator.tools[0]: agent 'Boss' lists web_search, but its model ollama/qwen3:8b has no native web search");
    } finally {
      dir.remove();
    }
  });

  it('prints config issues with file:line:col and exits 1', async () => {
    const dir = tempDir('broken');
    try {
      writeFileSync(join(dir.path, 'broken.yaml'), 'syndicate_name: "Broken"\norchestrator:\n  name: "Boss"\n  model: "gpt-4.1-mini"\n  instruction: "Hi"\n  temperture: 0.3\nsubagents: []\n');
      const result = await runCli(['run', 'broken.yaml', 'hi', '--offline'], { home: home.path, cwd: dir.path });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain("broken.yaml:6:3 orchestrator.temperture: unknown key 'temperture'");
    } finally {
      dir.remove();
    }
  });

  it('exits 2 for a name that resolves to nothing, listing where it looked', async () => {
    const result = await runCli(['run', 'nosuch', 'hi', '--offline'], { home: home.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no syndicate file or name 'nosuch'");
    expect(result.stderr).toContain(join('syndicates', 'nosuch.yaml'));
    expect(result.stderr).toContain(join(EXAMPLES_DIR, 'nosuch.yaml'));
  });

  it('exits 2 for a malformed --bind', async () => {
    const result = await runCli(['run', 'council', 'hi', '--offline', '--bind', 'no-equals'], { home: home.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--bind expects name=value');
  });
});
