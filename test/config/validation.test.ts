import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

function load(yaml: string, knownTools?: string[]): ReturnType<typeof issuesOf> {
  const dir = writeFixture({ 'syndicate.yaml': yaml });
  return issuesOf(path.join(dir, 'syndicate.yaml'), { knownTools });
}

describe('validation', () => {
  it('refuses an unknown tool and suggests the closest known one', () => {
    const issues = load(syndicateYaml({ orchestrator: ['  tools: [calculator, web_serch]'] }), ['calculator', 'web_search']);

    expect(issues).toMatchObject([{ path: 'orchestrator.tools[1]', message: "unknown tool 'web_serch' — did you mean 'web_search'?" }]);
  });

  it('lists the known tools when an unknown tool has no close match', () => {
    const issues = load(syndicateYaml({ orchestrator: ['  tools: [teleport]'] }), ['calculator', 'web_search']);

    expect(issues[0]?.message).toBe(
      "unknown tool 'teleport' — known tools: calculator, web_search, x_search, collections_search, generate_image, inspect_image, preload_memory, load_memory, memory_search, memory_read, memory_write, memory_list, memory_follow, memory_graph, memory_delete, memory_history, delegate_background, parallel_subtasks, cancel_background_job, list_background_jobs, schedule_task, list_tasks, cancel_task, list_task_runs, get_task_run",
    );
  });

  it("knows web_search, the provider's own search, whatever tools the caller registers", () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ orchestrator: ['  tools: [web_search, calculator]'] }) });

    expect(loadSyndicate(path.join(dir, 'syndicate.yaml'), { knownTools: ['calculator'] }).root.tools).toEqual(['web_search', 'calculator']);
  });

  it('refuses an unknown key and suggests the closest known key', () => {
    const issues = load(syndicateYaml({ extra: ['max_step: 5'] }));

    expect(issues).toMatchObject([{ line: 2, column: 1, path: 'max_step', message: "unknown key 'max_step' — did you mean 'max_steps'?" }]);
  });

  it('refuses an unknown concurrency policy with where it is written', () => {
    const issues = load(syndicateYaml({ extra: ['concurrency: queue'] }));

    expect(issues).toMatchObject([{ line: 2, column: 14, path: 'concurrency' }]);
    expect(issues[0]?.message).toContain('enqueue');
  });

  it('compiles concurrency onto the syndicate, enqueue when the file sets none', () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ extra: ['concurrency: interrupt'] }), 'plain.yaml': syndicateYaml({}) });

    expect(loadSyndicate(path.join(dir, 'syndicate.yaml')).concurrency).toBe('interrupt');
    expect(loadSyndicate(path.join(dir, 'plain.yaml')).concurrency).toBe('enqueue');
  });

  it('says where a setting belongs when it is written one level too high', () => {
    const issues = load(syndicateYaml({ orchestrator: ['  temperature: 0.2'] }));

    expect(issues[0]?.message).toBe("unknown key 'temperature' — it belongs under 'generateContentConfig:'");
  });

  it('refuses a default_route that names no declared subagent', () => {
    const issues = load(syndicateYaml({ extra: ['dispatch:', '  default_route: Helpr'] }));

    expect(issues).toMatchObject([{ line: 3, column: 18, path: 'dispatch.default_route', message: "'Helpr' is not a subagent of this syndicate — did you mean 'Helper'?" }]);
  });

  it('matches routes to subagent names ignoring case and punctuation', () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ extra: ['dispatch:', '  default_route: HELPER', '  route_overrides:', '    - { route: "help-er", pattern: "^hi" }'] }) });

    const { root } = loadSyndicate(path.join(dir, 'syndicate.yaml'));

    expect(root.dispatch).toMatchObject({ default_route: 'Helper', route_overrides: [{ route: 'Helper', pattern: '^hi', flags: 'i' }] });
  });

  it('refuses a route override pattern that does not compile', () => {
    const issues = load(syndicateYaml({ extra: ['dispatch:', '  default_route: Helper', '  route_overrides:', '    - { route: Helper, pattern: "(unclosed" }'] }));

    expect(issues).toMatchObject([{ path: 'dispatch.route_overrides[0].pattern', message: expect.stringContaining('does not compile') }]);
  });

  it('refuses two agents whose names differ only in case', () => {
    const issues = load(syndicateYaml({ subagents: ['  - { name: Helper, description: A., instruction: A. }', '  - { name: helper, description: B., instruction: B. }'] }));

    expect(issues).toMatchObject([{ path: 'subagents[1].name', message: expect.stringContaining("agent name 'helper' is already used by 'Helper'") }]);
  });

  it('refuses a memory tool in a syndicate without long-term memory, saying what to set', () => {
    const issues = load(syndicateYaml({ orchestrator: ['  tools: [load_memory]'] }));

    expect(issues).toMatchObject([
      { path: 'orchestrator.tools[0]', message: 'load_memory needs memory_system: long-term (this file leaves it at the default, session-only) — set memory_system: long-term at the top of the file' },
    ]);
  });

  it('fills in defaults and leaves an unset subagent model to be inherited', () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ extra: ['description: A test team.'] }) });

    const syndicate = loadSyndicate(path.join(dir, 'syndicate.yaml'));

    expect(syndicate).toMatchObject({ memorySystem: 'session-only', maxSteps: 20, root: { description: 'A test team.' } });
    expect(syndicate.root.subagents[0]?.model).toBeUndefined();
  });
});
