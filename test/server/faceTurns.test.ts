import { TaskState, type Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { siloFor } from '../../src/core/silo.js';
import { clientFor, sendRequest } from '../a2a/fixtures.js';
import { connectHttp } from '../mcp/fixtures.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// A turn the server runs over its A2A or MCP face gets what an API turn gets: the session's usage
// ledger, and once it completes, the session distilled into the caller's long-term memory.

const NOTEBOOK = `syndicate_name: "Notebook"
memory_system: "long-term"
orchestrator:
  name: "Scribe"
  model: "scripted"
  instruction: "Keep notes of what the user tells you."
  script:
    - reply: "Noted."
      repeat: true
`;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer([], { files: { 'notebook.yaml': NOTEBOOK } });
}, 60_000);

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

async function sessionsOfNotebook(): Promise<string[]> {
  const store = await t.platform.store();
  return (await store.listSessions({ syndicate: 'Notebook' })).map((session) => session.id);
}

describe("the server's A2A face", () => {
  it("distils a completed task's session into the caller's silo and records its model calls", async () => {
    const before = new Set(await sessionsOfNotebook());
    const a2a = await clientFor(`${t.server.url}/a2a/notebook`, 'JSONRPC', { authorization: 'Bearer alice-key' });

    const task = (await a2a.sendMessage(sendRequest('I like a window seat.'))) as Task;

    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [sessionId] = (await sessionsOfNotebook()).filter((id) => !before.has(id));
    const store = await t.platform.store();
    await vi.waitFor(async () => expect(await store.facts.ingestedThrough(siloFor('Notebook', 'alice'), sessionId!)).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    await vi.waitFor(async () => expect((await store.queryUsage({ syndicate: 'Notebook' })).filter((row) => row.sessionId === sessionId)).not.toHaveLength(0), { timeout: 10_000, interval: 50 });
  });
});

describe("the server's MCP face", () => {
  it("records a call's model usage under its session and distils the session into the caller's silo", async () => {
    const before = new Set(await sessionsOfNotebook());
    const mcp = await connectHttp(`${t.server.url}/mcp`, 'auto', { authorization: 'Bearer alice-key' });
    try {
      await mcp.callTool({ name: 'ask_notebook', arguments: { message: 'I like an aisle seat.' } });
    } finally {
      await mcp.close();
    }

    const [sessionId] = (await sessionsOfNotebook()).filter((id) => !before.has(id));
    const store = await t.platform.store();
    await vi.waitFor(async () => expect((await store.queryUsage({ syndicate: 'Notebook' })).filter((row) => row.sessionId === sessionId)).not.toHaveLength(0), { timeout: 10_000, interval: 50 });
    await vi.waitFor(async () => expect(await store.facts.ingestedThrough(siloFor('Notebook', 'alice'), sessionId!)).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
  });
});
