import { Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from '../cli/cli.js';
import { createMemoryAgent, memoryAgentIdFor } from '../../src/a2a/memoryAgent.js';
import type { Memory } from '../../src/memory/openMemory.js';
import { siloFor } from '../../src/core/silo.js';
import { createPlatform } from '../../src/platform/createPlatform.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { agent, compile } from '../runtime/fixtures.js';
import { clientFor, startServer, tempDbPath, textOf, type TestServer } from './fixtures.js';

// A syndicate's long-term memory served as an A2A agent, driven by the SDK's client over JSON-RPC.

const SECRET = 'memory-agent-test-secret';
const concierge = compile(agent('Concierge'), { embedder: fakeEmbedder() }, { name: 'Concierge', memorySystem: 'long-term' });

interface MemoryServer {
  server: TestServer;
  memoryOf: (silo: string) => Promise<Memory | undefined>;
}

/** Serves Concierge's memory agent on the store at `dbPath` (a new one by default), as serve-a2a does: from a platform. */
async function serveMemory(dbPath = tempDbPath()): Promise<MemoryServer> {
  const platform = await createPlatform({ store: dbPath, env: {} });
  const memoryOf = (silo: string): Promise<Memory | undefined> => platform.memory(concierge, silo);
  const memoryAgent = createMemoryAgent({ syndicate: concierge, memoryFor: memoryOf });
  const server = await startServer([], { moreAgents: [memoryAgent], env: { A2A_SERVER_SECRET: SECRET }, store: await platform.store() });
  const stop = async (): Promise<void> => {
    await server.stop();
    await platform.close();
  };
  return { server: { ...server, stop }, memoryOf };
}

let served: MemoryServer;

beforeAll(async () => {
  served = await serveMemory();
});
afterAll(() => served.server.stop());

function caller(user: string, on: TestServer = served.server): Promise<Client> {
  return clientFor(`${on.url}/${memoryAgentIdFor('Concierge')}`, 'JSONRPC', { authorization: `Bearer ${SECRET}`, 'x-syndicate-user': user });
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function message(part: Part, ids: { taskId?: string; contextId?: string } = {}): Message {
  return { messageId: crypto.randomUUID(), contextId: ids.contextId ?? '', taskId: ids.taskId ?? '', role: Role.ROLE_USER, parts: [part], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

async function send(client: Client, part: Part, ids: { taskId?: string; contextId?: string } = {}): Promise<Task> {
  const result = (await client.sendMessage({ tenant: '', message: message(part, ids), configuration: undefined, metadata: undefined })) as Task;
  if (typeof result?.id !== 'string' || result.status === undefined) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
}

const skill = (client: Client, name: string, args: Record<string, unknown>): Promise<Task> => send(client, dataPart({ skill: name, args }));

function resultText(task: Task): string {
  return task.artifacts.map((artifact) => textOf(artifact.parts)).join('');
}

describe('the memory agent', () => {
  it('lists the six memory skills on its card', async () => {
    const card = await (await caller('alice')).getAgentCard();

    expect(card.name).toBe('Concierge memory');
    expect(card.skills.map((entry) => entry.id)).toEqual(['remember', 'recall', 'read', 'list', 'history', 'export']);
  });

  it('remembers a fact sent as a data part and recalls it, stamped with the calling agent', async () => {
    const alice = await caller('alice');

    const stored = await skill(alice, 'remember', { text: 'The user lives in Lisbon.', keys: ['home'] });
    const recalled = await skill(alice, 'recall', { query: 'Where does the user live?' });

    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(recalled.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultText(recalled)).toContain('The user lives in Lisbon.');
    expect(resultText(recalled)).toContain('from a2a:client:alice');
  });

  it('routes free text to recall and says so in its status', async () => {
    const bob = await caller('bob');
    await skill(bob, 'remember', { text: 'Bob prefers window seats on trains.', keys: ['travel'] });

    const task = await send(bob, textPart('What do you recall about window seats?'));

    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.history.map((entry) => textOf(entry.parts))).toContainEqual(expect.stringMatching(/^Routed to recall — /));
    expect(resultText(task)).toContain('Bob prefers window seats on trains.');
  });

  it('asks for the fact when remember has none, and completes the same task with the reply', async () => {
    const carol = await caller('carol');

    const asked = await skill(carol, 'remember', { keys: ['pets'] });
    const answered = await send(carol, textPart('Carol has a cat named Miso.'), { taskId: asked.id, contextId: asked.contextId });
    const recalled = await skill(carol, 'recall', { query: 'cat' });

    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(asked.status?.message?.parts)).toContain('remember needs text (the fact as one sentence)');
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultText(recalled)).toContain('Carol has a cat named Miso.');
  });

  it('asks free text routed to remember for its keys, and takes them from a data part reply', async () => {
    const gina = await caller('gina');

    const asked = await send(gina, textPart('Remember a fact: Gina works night shifts.'));
    const answered = await send(gina, dataPart({ args: { keys: ['work'] } }), { taskId: asked.id, contextId: asked.contextId });

    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(asked.status?.message?.parts)).toContain('remember needs keys');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(answered.artifacts[0]?.parts[0]?.content)).toContain('"outcome":"stored"');
  });

  it('fails a call to a skill it does not have, listing the ones it has', async () => {
    const task = await skill(await caller('alice'), 'forget', {});

    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(task.status?.message?.parts)).toBe("Memory: there is no skill 'forget': use one of remember, recall, read, list, history, export.");
  });

  it('fails a call whose args are wrong, naming the arg', async () => {
    const task = await skill(await caller('alice'), 'recall', { query: 'home', limit: 500 });

    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(task.status?.message?.parts)).toContain('recall: limit:');
  });

  it('exports a bundle as a zip file part', async () => {
    const silo = siloFor('Concierge', 'dave');
    const memory = (await served.memoryOf(silo))!;
    await memory.documents.write(silo, { bundle: 'notes', path: 'trip.md', content: '# Trip\nLisbon in May.\n', actor: 'test', reason: 'fixture' });

    const task = await skill(await caller('dave'), 'export', { bundle: 'notes' });

    const part = task.artifacts[0]?.parts[0];
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(part?.mediaType).toBe('application/zip');
    expect(part?.content?.$case).toBe('raw');
    const files = unzipSync(new Uint8Array(part?.content?.$case === 'raw' ? part.content.value : []));
    expect(Object.keys(files)).toContain('notes/trip.md');
    expect(strFromU8(files['notes/trip.md']!)).toContain('Lisbon in May.');
  });

  it.each(['../../etc', 'notes/../../other-silo', 'Notes'])('refuses to export a bundle named %j, saying what a bundle name may be', async (bundle) => {
    const task = await skill(await caller('dave'), 'export', { bundle });

    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(task.status?.message?.parts)).toBe(`Memory: invalid bundle name ${JSON.stringify(bundle)}: use 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit`);
    expect(task.artifacts).toEqual([]);
  });

  it('refuses to export without a bundle name, naming the arg', async () => {
    const task = await skill(await caller('dave'), 'export', { bundle: '' });

    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(task.status?.message?.parts)).toMatch(/^Memory: export: bundle: /);
  });

  it("stamps a remembered fact with the caller's identity, not with a source the caller supplies", async () => {
    const hana = await caller('hana');

    const stored = await skill(hana, 'remember', { text: 'Hana speaks Japanese and Portuguese.', keys: ['languages'], source: 'admin' });

    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const memory = (await served.memoryOf(siloFor('Concierge', 'hana')))!;
    const [recalled] = await memory.facts.recall('Which languages does Hana speak?');
    expect(recalled?.fact).toMatchObject({ text: 'Hana speaks Japanese and Portuguese.', source: 'a2a:client:hana' });
  });

  it('cancels a write that waits for input: the task ends canceled', async () => {
    const jules = await caller('jules');
    const asked = await skill(jules, 'remember', { keys: ['pets'] });

    const cancelled = await jules.cancelTask({ tenant: '', id: asked.id, metadata: undefined });

    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await jules.getTask({ tenant: '', id: asked.id, historyLength: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('refuses a path that escapes the bundle', async () => {
    const task = await skill(await caller('dave'), 'read', { bundle: 'notes', path: '../../../etc/passwd' });

    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(task.status?.message?.parts)).toContain("escapes its bundle ('..' segments are not allowed)");
  });

  it("keeps each caller's facts in their own silo", async () => {
    const erin = await caller('erin');
    const frank = await caller('frank');
    await skill(erin, 'remember', { text: 'Erin is allergic to peanuts.', keys: ['allergy'] });

    const own = await skill(erin, 'recall', { query: 'allergic to peanuts' });
    const other = await skill(frank, 'recall', { query: 'allergic to peanuts' });

    expect(resultText(own)).toContain('Erin is allergic to peanuts.');
    expect(resultText(other)).not.toContain('peanuts');
  });
});

describe('the memory agent across a restart', () => {
  it('keeps a write waiting for input, and completes it with the reply on the next server', async () => {
    const dbPath = tempDbPath();
    const before = await serveMemory(dbPath);
    const asked = await skill(await caller('ivan', before.server), 'remember', { keys: ['pets'] });
    await before.server.stop();

    const after = await serveMemory(dbPath);
    try {
      const ivan = await caller('ivan', after.server);
      const answered = await send(ivan, textPart('Ivan has a parrot called Kiwi.'), { taskId: asked.id, contextId: asked.contextId });
      const recalled = await skill(ivan, 'recall', { query: 'parrot' });

      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(answered.id).toBe(asked.id);
      expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(resultText(recalled)).toContain('Ivan has a parrot called Kiwi. (fact, from a2a:client:ivan');
    } finally {
      await after.server.stop();
    }
  });

  it('cancels a write that was waiting for input before the restart', async () => {
    const dbPath = tempDbPath();
    const before = await serveMemory(dbPath);
    const asked = await skill(await caller('kim', before.server), 'remember', { keys: ['pets'] });
    await before.server.stop();

    const after = await serveMemory(dbPath);
    try {
      const cancelled = await (await caller('kim', after.server)).cancelTask({ tenant: '', id: asked.id, metadata: undefined });

      expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    } finally {
      await after.server.stop();
    }
  });
});

describe('syndicate serve-a2a --memory', () => {
  it("serves a long-term syndicate's memory as an agent, and recalls what a caller remembered", async () => {
    const home = tempDir('a2a-memory');
    const live = startCli(['serve-a2a', '--memory', 'concierge', '--offline', '--port', '0'], { home: home.path });
    let printed = '';
    live.child.stdout?.on('data', (chunk: string) => (printed += chunk));
    try {
      await live.waitForStdout('agent-card.json');
      const cardUrl = /Concierge memory: (\S+)/.exec(printed)?.[1] ?? '';
      const client = await clientFor(cardUrl.replace('/.well-known/agent-card.json', ''), 'JSONRPC');

      await skill(client, 'remember', { text: 'The user lives in Porto.', keys: ['home'] });
      const recalled = await skill(client, 'recall', { query: 'Where does the user live?' });

      expect(cardUrl).toMatch(/\/concierge-memory\/\.well-known\/agent-card\.json$/);
      expect(resultText(recalled)).toContain('The user lives in Porto. (fact, from a2a:local');
    } finally {
      live.child.kill('SIGTERM');
      await live.result;
      home.remove();
    }
  }, 60_000);

  it('refuses a --memory syndicate that keeps no long-term memory', async () => {
    const home = tempDir('a2a-memory');
    const result = await runCli(['serve-a2a', '--memory', 'triage', '--offline', '--port', '0'], { home: home.path });
    home.remove();

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('keeps no long-term memory; set memory_system: long-term');
  }, 60_000);
});
