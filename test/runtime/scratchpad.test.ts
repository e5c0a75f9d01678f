import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/core/tool.js';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/store.js';
import { POSTGRES_TESTS, usePostgresDatabase } from '../store/postgresCluster.js';
import { agent, collect, compile, ofType, tempDbPath, turnEnd } from './fixtures.js';

const opened: SqliteStore[] = [];

function store(): SqliteStore {
  const created = openSqliteStore(tempDbPath());
  opened.push(created);
  return created;
}

afterEach(async () => {
  for (const created of opened.splice(0)) {
    await created.close();
    rmSync(dirname(created.path), { recursive: true, force: true });
  }
});

const TOOLS = ['write_tmp', 'append_tmp', 'read_tmp'];

describe('the scratchpad', () => {
  it('keeps a note across the tool calls of a turn', async () => {
    const root = agent('Writer', {
      tools: TOOLS,
      script: [
        { tool_calls: [{ tool: 'write_tmp', args: { name: 'plan', text: 'Book the venue.' } }] },
        { tool_calls: [{ tool: 'append_tmp', args: { name: 'plan', text: ' Then the flights.' } }] },
        { tool_calls: [{ tool: 'read_tmp', args: { name: 'plan' } }] },
        { reply: 'Planned.' },
      ],
    });

    const events = await collect(compile(root), { input: 'plan', store: store(), sessionId: 's1' });

    expect(ofType(events, 'tool-result').map((event) => event.output)).toEqual(['Wrote \'plan\' (15 bytes).', 'Appended to \'plan\' (33 bytes).', 'Book the venue. Then the flights.']);
  });

  it('answers a missing note, a bad name and a full note as results the model reads', async () => {
    const root = agent('Writer', {
      tools: TOOLS,
      script: [
        { tool_calls: [{ tool: 'read_tmp', args: { name: 'nothing' } }] },
        { tool_calls: [{ tool: 'write_tmp', args: { name: '../etc/passwd', text: 'x' } }] },
        { tool_calls: [{ tool: 'write_tmp', args: { name: 'huge', text: 'x'.repeat(1024 * 1024 + 1) } }] },
        { reply: 'Understood.' },
      ],
    });

    const events = await collect(compile(root), { input: 'try', store: store(), sessionId: 's1' });

    const results = ofType(events, 'tool-result');
    expect(results.map((event) => event.isError)).toEqual([false, false, false]);
    expect(results[0]!.output).toBe("There is no note 'nothing'; there are no notes yet.");
    expect(results[1]!.output).toMatch(/^'\.\.\/etc\/passwd' is not a note name/);
    expect(results[2]!.output).toMatch(/^Not written: 'huge' would be 1048577 bytes, more than the 1048576/);
    expect(turnEnd(events).status).toBe('completed');
  });

  it('says there is no scratchpad when the turn keeps no session', async () => {
    const root = agent('Writer', { tools: TOOLS, script: [{ tool_calls: [{ tool: 'write_tmp', args: { name: 'plan', text: 'x' } }] }, { reply: 'Done.' }] });

    const events = await collect(compile(root, {}, { memorySystem: 'internal-only' }), { input: 'plan', store: store(), sessionId: 's1' });

    expect(ofType(events, 'tool-result')[0]).toMatchObject({ isError: false, output: expect.stringMatching(/^There is no scratchpad in this conversation/) });
  });

  it('is reachable from a code-mode script', async () => {
    const code = "await write_tmp({ name: 'draft', text: 'one' });\nawait append_tmp({ name: 'draft', text: ', two' });\nreturn await read_tmp({ name: 'draft' });";
    const root = agent('Coder', { codeMode: true, tools: TOOLS, script: [{ tool_calls: [{ tool: 'execute_code', args: { code } }] }, { reply: 'Done.' }] });

    const events = await collect(compile(root), { input: 'draft', store: store(), sessionId: 's1' });

    expect(ofType(events, 'tool-result').at(-1)).toMatchObject({ tool: 'execute_code', output: { result: 'one, two' } });
  });
});

// When a session goes idle is the runtime's business, not the store's: the same on either store.
function describeIdleClearing(name: string, open: () => Promise<Store>): void {
  describe(`the scratchpad on ${name}`, () => {
    it('clears the session’s notes when its turn ends', async () => {
      const db = await open();
      const sessionId = `s-${randomUUID()}`;
      const root = agent('Writer', { tools: TOOLS, script: [{ tool_calls: [{ tool: 'write_tmp', args: { name: 'plan', text: 'x' } }] }, { reply: 'Done.' }] });

      const events = await collect(compile(root), { input: 'plan', store: db, sessionId });

      expect(ofType(events, 'tool-result')[0]!.output).toBe("Wrote 'plan' (1 bytes).");
      expect(await db.notes.list(sessionId)).toEqual([]);
    });

    it('keeps the notes while another turn of the session is still running', async () => {
      const db = await open();
      const sessionId = `s-${randomUUID()}`;
      let release: () => void = () => undefined;
      let entered: () => void = () => undefined;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const hold = defineTool({
        name: 'hold',
        description: 'Waits until released.',
        inputSchema: z.object({}),
        execute: () =>
          new Promise<string>((resolve) => {
            release = () => resolve('released');
            entered();
          }),
      });
      const tools = createToolRegistry([...builtinTools.values(), hold]);
      const slow = compile(agent('Slow', { tools: [...TOOLS, 'hold'], script: [{ tool_calls: [{ tool: 'write_tmp', args: { name: 'shared', text: 'kept' } }] }, { tool_calls: [{ tool: 'hold', args: {} }] }, { reply: 'Done.' }] }), { tools });
      const quick = compile(agent('Quick', { script: [{ reply: 'Quick answer.' }] }));
      const slowTurn = collect(slow, { input: 'slow', store: db, sessionId });
      await inside;

      await collect(quick, { input: 'quick', store: db, sessionId });
      const duringSlowTurn = await db.notes.read(sessionId, 'shared');
      release();
      await slowTurn;

      expect(duringSlowTurn).toBe('kept');
      expect(await db.notes.list(sessionId)).toEqual([]);
    });
  });
}

describeIdleClearing('SQLite', async () => store());

describe.runIf(POSTGRES_TESTS)('on PostgreSQL', () => {
  const database = usePostgresDatabase();
  const stores: Store[] = [];
  afterEach(async () => {
    for (const created of stores.splice(0)) await created.close();
  });
  describeIdleClearing('PostgreSQL', async () => {
    const created = await openPostgresStore(database());
    stores.push(created);
    return created;
  });
});
