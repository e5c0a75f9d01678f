import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumerProject, packPackage, REPO, runIn } from './consumerProject.js';

// The package as a user gets it: packed, installed into a fresh project, imported by name, its
// declarations type-checked with skipLibCheck false, and programs run offline. Every ```ts block
// of the README is one of these programs, so the README cannot drift from the API. Needs
// `npm run build` first.

/** The README's TypeScript blocks, each a whole program. */
function readmePrograms(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

// Touches every entry point and the types a program names, and runs a turn with its own tool.
const SURFACE = `
import { z } from 'zod';
import {
  compileSyndicate, createPlatform, defineAgent, defineSyndicate, defineTool, loadSyndicate, openStore, parseStoreLocation, runTurn,
  ModelConfigError, StoreLocationError, SyndicateConfigError, TurnError,
  type AgentDefinition, type CompiledSyndicate, type Platform, type Store, type Tool, type ToolContext, type TurnEvent, type TurnEventOf,
} from 'syndicate';
import { a2aRemoteAgents, createA2aApp, serveA2a } from 'syndicate/a2a';
import { createAgentMcpTools, serveMcpHttp, syndicateServerFactory } from 'syndicate/mcp';
import { openSqliteStore } from 'syndicate/sqlite';
import { openPostgresStore } from 'syndicate/postgres';
import { collectTurn, createScriptedModel } from 'syndicate/testing';

const seen: string[] = [];
const roll: Tool<{ sides: number }, { rolled: number }> = defineTool({
  name: 'roll_die',
  description: 'Rolls a die.',
  inputSchema: z.object({ sides: z.number().int().min(2) }),
  execute: ({ sides }, ctx: ToolContext) => {
    seen.push(ctx.agent);
    return { rolled: sides };
  },
});
const root: AgentDefinition = defineAgent('Croupier', {
  model: 'scripted',
  tools: [roll],
  script: [{ tool_calls: [{ tool: 'roll_die', args: { sides: 6 } }] }, { match: 'rolled', reply: 'You rolled a six.' }],
});
const syndicate: CompiledSyndicate = compileSyndicate(defineSyndicate(root));
const events: TurnEvent[] = [];
for await (const event of runTurn(syndicate, { input: 'roll' })) events.push(event);
const result = events.find((event): event is TurnEventOf<'tool-result'> => event.type === 'tool-result');
const end = events.at(-1) as TurnEventOf<'turn-end'>;
const scripted = compileSyndicate(defineSyndicate(defineAgent('Echo', { model: createScriptedModel({ agentName: 'Echo', subagents: [], script: [{ reply: 'echo' }] }) })));
const collected = await collectTurn(scripted, { input: 'x' });
const store: Store = await openSqliteStore('surface.db');
await store.close();
const platform: Platform = await createPlatform({ store: parseStoreLocation('sqlite:surface.db'), a2aClient: a2aRemoteAgents });
await platform.close();
const exported = [loadSyndicate, openStore, createA2aApp, serveA2a, createAgentMcpTools, serveMcpHttp, syndicateServerFactory, openPostgresStore, ModelConfigError, StoreLocationError, SyndicateConfigError, TurnError];
console.log(JSON.stringify({ output: end.output, result: result?.output, seen, scripted: collected.end.output, exported: exported.every((value) => typeof value === 'function') }));
`;

let dir: string;
let tsc: ReturnType<typeof runIn>;
const programs = readmePrograms();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'package-'));
  const project = join(dir, 'consumer');
  mkdirSync(join(project, 'src'), { recursive: true });
  createConsumerProject(project, packPackage(dir));
  writeFileSync(join(project, 'src', 'surface.ts'), SURFACE);
  programs.forEach((program, index) => writeFileSync(join(project, 'src', `readme-${index + 1}.ts`), program));
  tsc = runIn(project, join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.']);
  // Minutes on a loaded machine: npm ci of ~200 packages and a full type-check of their declarations.
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

const project = (): string => join(dir, 'consumer');
const node = (file: string) => runIn(project(), process.execPath, [join('out', file)]);

describe('the packed package', () => {
  it('type-checks a program using every entry point with skipLibCheck false', () => {
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('runs an offline turn with a tool the program defines', () => {
    const run = node('surface.js');

    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ output: 'You rolled a six.', result: { rolled: 6 }, seen: ['Croupier'], scripted: 'echo', exported: true });
  });

  it('has TypeScript examples in its README', () => {
    expect(programs.length).toBeGreaterThanOrEqual(5);
  });

  it.each(programs.map((program, index) => [index + 1, program.split('\n').find((line) => line.startsWith('import {')) ?? '']))('runs README example %i (%s)', (index) => {
    const run = node(`readme-${index}.js`);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).not.toBe('');
  });

  it('refuses a deep import of an internal module', () => {
    const run = runIn(project(), process.execPath, ['--input-type=module', '-e', "await import('syndicate/dist/runtime/runTurn.js')"]);

    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('installs the syndicate command, which runs a shipped example offline', () => {
    const run = runIn(project(), join(project(), 'node_modules', '.bin', 'syndicate'), ['run', 'council', 'Should we ship on Fridays?', '--offline']);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Resume with:');
  });
});
