import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, sendRequest } from '../a2a/fixtures.js';
import { connectHttp } from '../mcp/fixtures.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// An edited syndicate file reaches the A2A and MCP faces too, not only the HTTP API: each new
// task, card and MCP request takes the file's latest valid version.

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer(['council.yaml']);
  const file = join(t.folder, 'council.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('Skeptic', 'Critic').replace('Stress-tests a claim or plan', 'Weighs a claim'));
  for (let attempt = 0; attempt < 400 && !t.registry.get('council')?.current?.compiled.agents.has('Critic'); attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

describe('a syndicate file edited while the server runs', () => {
  it("gives A2A callers the edited version's agent card", async () => {
    const client = await clientFor(`${t.server.url}/a2a/council`, 'JSONRPC', { authorization: 'Bearer alice-key' });
    const card = await client.getAgentCard();
    expect(card.description).toMatch(/^Weighs a claim/);
  });

  it("runs the next A2A task with the edited version's agents", async () => {
    const client = await clientFor(`${t.server.url}/a2a/council`, 'JSONRPC', { authorization: 'Bearer alice-key' });
    const task = (await client.sendMessage(sendRequest('We should move the office to Porto.'))) as Task;
    const store = await t.platform.store();
    const [session] = await store.listSessions({ idPrefix: 'a2a:council:', limit: 10 }).then((sessions) => sessions.filter((s) => s.id.endsWith(task.contextId)));
    const agents = new Set((await store.readEvents(session!.id)).map((stored) => ('agent' in stored.event ? stored.event.agent : undefined)));
    expect(agents).toContain('Critic');
    expect(agents).not.toContain('Skeptic');
  });

  it("describes the edited version's ask tool to MCP callers", async () => {
    const client = await connectHttp(`${t.server.url}/mcp`, 'auto', { authorization: 'Bearer alice-key' });
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'ask_council')?.description).toContain('Weighs a claim');
    } finally {
      await client.close();
    }
  });
});
