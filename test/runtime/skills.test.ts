import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, assert, describe, expect, it } from 'vitest';
import { loadSkill } from '../../src/tools/skills/loadSkill.js';
import { addSkill } from '../../src/tools/skills/lockfile.js';
import { SyndicateConfigError } from '../../src/config/errors.js';
import { PDF_SKILL, removeSkills, writeSkill } from '../tools/skills/fixtures.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { UsageRow } from '../../src/store/store.js';
import { createUsageLedger } from '../../src/telemetry/ledger/usageLedger.js';
import { agent, collect, compile, ofType, recordCalls, tempDbPath, type ModelCall } from './fixtures.js';

afterEach(removeSkills);

function skilled(script: NonNullable<Parameters<typeof agent>[1]>['script']) {
  const dir = writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL, 'references/fields.md': 'Name, date.' });
  const folders = { project: path.dirname(dir), user: path.join(path.dirname(dir), 'none') };
  return { dir, compiled: compile(agent('Clerk', { skills: ['pdf-forms'], script }), { skillFolders: folders, resolveModel: recordCalls(calls) }) };
}

let calls: ModelCall[] = [];
afterEach(() => (calls = []));

describe('skills on an agent', () => {
  it('puts a catalog of its skills, name and description only, in the agent’s instructions', async () => {
    const { compiled } = skilled([{ reply: 'ok' }]);

    await collect(compiled, { input: 'hello' });

    const system = calls[0]!.options.prompt[0]!;
    expect(system.content).toContain('## Skills');
    expect(system.content).toContain('- pdf-forms: Fills in PDF forms.');
    expect(system.content).not.toContain('Read references/fields.md first.');
  });

  it('loads a skill’s instructions, files and hash with activate_skill, once per turn', async () => {
    const { compiled } = skilled([{ tool_calls: [{ tool: 'activate_skill', args: { name: 'pdf-forms' } }] }, { tool_calls: [{ tool: 'activate_skill', args: { name: 'pdf-forms' } }] }, { reply: 'done' }]);

    const events = await collect(compiled, { input: 'fill the form' });

    const [first, second] = ofType(events, 'tool-result').map((event) => event.output);
    expect(first).toEqual({ skill: 'pdf-forms', hash: expect.stringMatching(/^sha256:/), instructions: '# Filling forms\nRead references/fields.md first.', files: ['references/fields.md'] });
    expect(second).toMatchObject({ skill: 'pdf-forms', note: expect.stringContaining('Already loaded') });
  });

  it('names the tools a skill lists in allowed-tools when it is activated', async () => {
    const dir = writeSkill('release-notes', { 'SKILL.md': '---\nname: release-notes\ndescription: Writes release notes.\nallowed-tools: calculator read_skill_file\n---\nBody' });
    const folders = { project: path.dirname(dir), user: path.join(path.dirname(dir), 'none') };
    const compiled = compile(agent('Clerk', { skills: ['release-notes'], script: [{ tool_calls: [{ tool: 'activate_skill', args: { name: 'release-notes' } }] }, { reply: 'done' }] }), { skillFolders: folders });

    const events = await collect(compiled, { input: 'notes' });

    expect(ofType(events, 'tool-result')[0]!.output).toMatchObject({ skill: 'release-notes', allowed_tools: ['calculator', 'read_skill_file'] });
  });

  it('reports each skill it loads in a skill-activated event with its hash, once per turn', async () => {
    const { dir, compiled } = skilled([{ tool_calls: [{ tool: 'activate_skill', args: { name: 'pdf-forms' } }] }, { tool_calls: [{ tool: 'activate_skill', args: { name: 'pdf-forms' } }] }, { reply: 'done' }]);
    const loaded = loadSkill(dir);
    assert(loaded.ok);

    const events = await collect(compiled, { input: 'fill the form' });

    expect(ofType(events, 'skill-activated')).toEqual([expect.objectContaining({ agent: 'Clerk', skill: 'pdf-forms', hash: loaded.skill.hash })]);
  });

  it('names the skills a turn activated in every usage ledger row of that turn', async () => {
    const { dir, compiled } = skilled([{ tool_calls: [{ tool: 'activate_skill', args: { name: 'pdf-forms' } }] }, { reply: 'done' }]);
    const loaded = loadSkill(dir);
    assert(loaded.ok);
    const rows: UsageRow[] = [];
    const ledger = createUsageLedger({ store: { recordUsage: async (batch) => void rows.push(...batch) }, syndicate: 'Clerks', sessionId: null, onError: (error) => { throw error; } });

    await collect(compiled, { input: 'fill the form', observers: [ledger.observe] });
    await collect(compiled, { input: 'just talk', observers: [ledger.observe] });
    await ledger.settled();

    expect(rows.map((row) => row.skills)).toEqual([[{ name: 'pdf-forms', hash: loaded.skill.hash }], [{ name: 'pdf-forms', hash: loaded.skill.hash }], undefined]);
  });

  it('reads a skill’s file, and refuses a path that leaves its folder', async () => {
    const { dir, compiled } = skilled([
      { tool_calls: [{ tool: 'read_skill_file', args: { skill: 'pdf-forms', path: 'references/fields.md' } }] },
      { tool_calls: [{ tool: 'read_skill_file', args: { skill: 'pdf-forms', path: '../secret.txt' } }] },
      { reply: 'done' },
    ]);

    writeFileSync(path.join(path.dirname(dir), 'secret.txt'), 'not for agents');

    const events = await collect(compiled, { input: 'read' });

    const outputs = ofType(events, 'tool-result').map((event) => event.output);
    expect(outputs[0]).toBe('Name, date.');
    expect(outputs[1]).toBe("Refused: '../secret.txt' leaves the folder of skill pdf-forms.");
  });

  it('refuses to compile an agent whose skill cannot be found, saying where it looked', () => {
    const run = () => compile(agent('Clerk', { skills: ['no-such-skill'] }), { skillFolders: { project: '/nowhere/project', user: '/nowhere/user' } });

    expect(run).toThrow(SyndicateConfigError);
    expect(run).toThrow(/skill 'no-such-skill' is in neither \/nowhere\/project nor \/nowhere\/user/);
  });

  it('refuses a pinned skill whose files changed since it was added, until it is added again', () => {
    const source = loadSkill(writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL }));
    const project = path.join(path.dirname(writeSkill('unused', { 'SKILL.md': '' })), '.agents', 'skills');
    const added = addSkill(source.ok ? source.skill : assert.fail('fixture skill did not load'), project);
    writeFileSync(path.join(added.dir, 'SKILL.md'), PDF_SKILL.replace('Fills in PDF forms.', 'Sends your files away.'));
    const folders = { project, user: '/nowhere' };

    const refused = () => compile(agent('Clerk', { skills: ['pdf-forms'] }), { skillFolders: folders });

    expect(refused).toThrow(/skill 'pdf-forms' changed since it was added \(.*skills\.lock\.json pins sha256:.*\): check the change, then run syndicate skills add again/);
    const changed = loadSkill(added.dir);
    addSkill(changed.ok ? changed.skill : assert.fail('the changed skill did not load'), project);
    expect(refused).not.toThrow();
  });

  it("runs a skill's script in the sandbox with the model's input, and refuses a file outside scripts/", async () => {
    const dir = writeSkill('totals', { 'SKILL.md': '---\nname: totals\ndescription: Adds things up.\n---\nUse scripts/total.js.\n', 'scripts/total.js': 'return input.items.reduce((sum, n) => sum + n, 0) + (typeof process);', 'notes.md': 'x' });
    const script = [
      { tool_calls: [{ tool: 'run_skill_script', args: { skill: 'totals', path: 'scripts/total.js', input: { items: [1, 2, 3] } } }] },
      { tool_calls: [{ tool: 'run_skill_script', args: { skill: 'totals', path: 'notes.md' } }] },
      { reply: 'done' },
    ];
    const compiled = compile(agent('Clerk', { skills: ['totals'], script }), { skillFolders: { project: path.dirname(dir), user: '/nowhere' } });

    const events = await collect(compiled, { input: 'add' });

    const outputs = ofType(events, 'tool-result').map((event) => event.output);
    expect(outputs[0]).toMatchObject({ skill: 'totals', script: 'scripts/total.js', result: '6undefined', hash: expect.stringMatching(/^sha256:/) });
    expect(outputs[1]).toBe("Refused: only JavaScript files under scripts/ run, and 'notes.md' is not one.");
  });

  it('keeps an activated skill’s instructions in view of its agent in the session’s later turns', async () => {
    const db = openSqliteStore(tempDbPath());
    try {
      const { compiled } = skilled([{ match: 'fill', tool_calls: [{ tool: 'activate_skill', args: { name: 'pdf-forms' } }] }, { reply: 'ok', repeat: true }]);
      await collect(compiled, { input: 'fill the form', store: db, sessionId: 's1' });
      const firstTurnCalls = calls.length;

      await collect(compiled, { input: 'and the next one?', store: db, sessionId: 's1' });

      const projected = JSON.stringify(calls[firstTurnCalls]!.options.prompt.slice(1, -1));
      expect(projected).toContain('[skill pdf-forms, loaded in this turn]:');
      expect(projected).toContain('Read references/fields.md first.');
    } finally {
      await db.close();
      rmSync(path.dirname(db.path), { recursive: true, force: true });
    }
  });
});
