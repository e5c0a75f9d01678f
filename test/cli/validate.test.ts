import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, runCli, tempDir } from './cli.js';
import { SEED_EXAMPLES_DIR } from '../seedExamplesDir.js';

const dir = tempDir('validate');
afterAll(dir.remove);

const BROKEN = `syndicate_name: "Broken"
orchestrator:
  name: "Boss"
  model: "gpt-4.1-mini"
  instruction: "Hello {{audience}}"
subagents:
  - name: "Helper"
    instruction: "Help."
`;

describe('syndicate validate', () => {
  it('accepts every bundled example and every seed example', async () => {
    const files = [
      ...readdirSync(EXAMPLES_DIR).filter((f) => !f.includes('.script.')).map((f) => join(EXAMPLES_DIR, f)),
      ...readdirSync(SEED_EXAMPLES_DIR).filter((f) => f.endsWith('.yaml')).map((f) => join(SEED_EXAMPLES_DIR, f)),
    ];
    const result = await runCli(['validate', ...files], { home: dir.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(files.map((f) => `ok  ${f}\n`).join(''));
  });

  it('prints every issue with file:line:col and exits 1', async () => {
    writeFileSync(join(dir.path, 'broken.yaml'), BROKEN);
    const result = await runCli(['validate', 'council', 'broken.yaml'], { home: dir.path });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('ok  council\n');
    expect(result.stdout).toContain('error  broken.yaml\n');
    expect(result.stdout).toContain('broken.yaml:5:23 orchestrator.instruction: unresolved variable {{audience}}');
    expect(result.stdout).toContain('broken.yaml:7:5 subagents[0].description: required');
  });

  it('takes variable values from --bind and --bindings', async () => {
    writeFileSync(join(dir.path, 'bindings.json'), '{"audience": "engineers"}');
    const missing = BROKEN.replace('    instruction: "Help."', '    description: "Helps."\n    instruction: "Help."');
    writeFileSync(join(dir.path, 'needs-binding.yaml'), missing);
    expect((await runCli(['validate', 'needs-binding.yaml'], { home: dir.path })).code).toBe(1);
    expect((await runCli(['validate', 'needs-binding.yaml', '--bind', 'audience=ops'], { home: dir.path })).code).toBe(0);
    expect((await runCli(['validate', 'needs-binding.yaml', '--bindings', 'bindings.json'], { home: dir.path })).code).toBe(0);
  });

  it('passes a file with inert fields but warns where they are', async () => {
    writeFileSync(join(dir.path, 'inert.yaml'), 'syndicate_name: "Inert"\nguards: ["pii"]\norchestrator:\n  name: "Boss"\n  model: "gpt-4.1-mini"\n  instruction: "Hi"\nsubagents: []\n');
    const result = await runCli(['validate', 'inert.yaml'], { home: dir.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok {2}inert\.yaml\nwarning: inert\.yaml:2:1 guards: has no effect/);
  });

  it('passes a file with a setting its provider cannot honour but warns which agent has it', async () => {
    writeFileSync(join(dir.path, 'topk.yaml'), 'syndicate_name: "TopK"\norchestrator:\n  name: "Boss"\n  model: "gpt-4.1-mini"\n  instruction: "Hi"\n  generateContentConfig:\n    topK: 40\nsubagents: []\n');
    const result = await runCli(['validate', 'topk.yaml'], { home: dir.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok {2}topk\.yaml\nwarning: Agent 'Boss': topK is not supported by OpenAI models and will be ignored — remove it or use a Gemini, Claude/);
  });

  it('refuses web_search on a model without native search and says which models have it', async () => {
    writeFileSync(join(dir.path, 'search.yaml'), 'syndicate_name: "Search"\norchestrator:\n  name: "Boss"\n  model: "ollama/qwen3:8b"\n  instruction: "Hi"\n  tools: [web_search]\nsubagents: []\n');
    const result = await runCli(['validate', 'search.yaml'], { home: dir.path });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error  search.yaml\n');
    expect(result.stdout).toContain("orchestrator.tools[0]: agent 'Boss' lists web_search, but its model ollama/qwen3:8b has no native web search — web_search works with Gemini");
  });

  it('refuses a model id no provider serves at its file:line:col, with the corrected id', async () => {
    writeFileSync(join(dir.path, 'typo.yaml'), 'syndicate_name: "Typo"\norchestrator:\n  name: "Boss"\n  model: "gtp-4.1-mini"\n  instruction: "Hi"\nsubagents: []\n');
    const result = await runCli(['validate', 'typo.yaml'], { home: dir.path });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('typo.yaml:4:10 orchestrator.model: unknown model "gtp-4.1-mini" — did you mean "gpt-4.1-mini"?');
  });

  it('reports an unresolved alias, an alias bomb and a !!set each at its file:line:col and goes on to the next file', async () => {
    const bomb = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const [from, to] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g']] as const) bomb.push(`${to}: &${to} [${Array(9).fill(`*${from}`).join(', ')}]`);
    writeFileSync(join(dir.path, 'alias.yaml'), 'syndicate_name: *nowhere\n');
    writeFileSync(join(dir.path, 'bomb.yaml'), `${bomb.join('\n')}\n`);
    writeFileSync(join(dir.path, 'set.yaml'), 'syndicate_name: "Set"\nsubagents: !!set { a }\n');

    const result = await runCli(['validate', 'alias.yaml', 'bomb.yaml', 'set.yaml', 'council'], { home: dir.path });

    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error  alias.yaml\nalias.yaml:1:17 invalid YAML: unresolved alias *nowhere');
    expect(result.stdout).toContain('error  bomb.yaml\nbomb.yaml:2:8 invalid YAML: aliases expand too far');
    expect(result.stdout).toContain('error  set.yaml\nset.yaml:2:12 invalid YAML: tag !!set is not supported');
    expect(result.stdout).toMatch(/ok {2}council\n$/);
  });

  it('reports a file that does not exist as invalid', async () => {
    const result = await runCli(['validate', 'missing.yaml'], { home: dir.path });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`no such file: ${join(dir.path, 'missing.yaml')}`);
  });
});
