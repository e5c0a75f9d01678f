import { TaskState, type Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, sendRequest } from '../../a2a/fixtures.js';
import { connectHttp } from '../../mcp/fixtures.js';
import { memoryRoutes } from '../../../src/server/memory/memoryRoutes.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// One user's memory is one silo whichever face writes it: a note an agent keeps during an A2A
// task, a fact remembered over MCP and a document written over the API are all in Alice's silo,
// read back over the API and MCP, and none of it is Bob's.

const NOTEBOOK = `syndicate_name: "Notebook"
memory_system: "long-term"
orchestrator:
  name: "Scribe"
  model: "scripted"
  instruction: "Keep notes of what the user tells you."
  tools: ["memory_write"]
  script:
    - match: "seat"
      tool_calls: [{ tool: memory_write, args: { bundle: "prefs", path: "seat.md", content: "# Seat\\n\\nA window seat.\\n", reason: "told over A2A" } }]
    - reply: "Noted."
`;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer([], { files: { 'notebook.yaml': NOTEBOOK }, routes: memoryRoutes });
}, 60_000);

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

type Listing = { bundles: Array<{ name: string; tree: Array<{ path: string }> }> };

describe("a user's memory over A2A, MCP and the API", () => {
  it('is one silo: what each face wrote, the others read, and another user sees none of it', async () => {
    const a2a = await clientFor(`${t.server.url}/a2a/notebook`, 'JSONRPC', { authorization: 'Bearer alice-key' });
    const task = (await a2a.sendMessage(sendRequest('I like a window seat.'))) as Task;
    const mcp = await connectHttp(`${t.server.url}/mcp`, 'auto', { authorization: 'Bearer alice-key' });
    try {
      await mcp.callTool({ name: 'remember', arguments: { text: 'Alice flies from Lisbon.', keys: ['home airport'] } });
      await t.api(`/memory/notebook/documents/prefs/diet.md`, { method: 'PUT', body: JSON.stringify({ content: '# Diet\n\nVegetarian.\n' }) });

      const documents = (await (await t.api('/memory/notebook/documents')).json()) as Listing;
      const facts = (await (await t.api('/memory/notebook/facts')).json()) as { silo: string; facts: Array<{ text: string }> };
      const read = await mcp.callTool({ name: 'memory_read', arguments: { bundle: 'prefs', path: 'diet.md' } });
      const bobs = (await (await t.api('/memory/notebook/documents', { key: 'bob-key' })).json()) as Listing;
      const bobsFacts = (await (await t.api('/memory/notebook/facts', { key: 'bob-key' })).json()) as { silo: string; facts: unknown[] };

      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(documents.bundles).toEqual([{ name: 'prefs', tree: [expect.objectContaining({ path: 'diet.md' }), expect.objectContaining({ path: 'seat.md' })] }]);
      expect(facts.facts.map((fact) => fact.text)).toEqual(['Alice flies from Lisbon.']);
      expect(JSON.stringify(read.content)).toContain('Vegetarian.');
      expect(bobs.bundles).toEqual([]);
      expect(bobsFacts.facts).toEqual([]);
      expect(bobsFacts.silo).not.toBe(facts.silo);
    } finally {
      await mcp.close();
    }
  });
});
