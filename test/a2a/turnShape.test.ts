import { TaskState, type Task } from '@a2a-js/sdk';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { serveA2a, type A2aServer } from '../../src/a2a/serveA2a.js';
import { resolveModel } from '../../src/models/resolveModel.js';
import type { CompileOptions } from '../../src/runtime/compileSyndicate.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { agent, compile } from '../runtime/fixtures.js';
import { clientFor, collectStream, sendRequest, tempDbPath, textOf } from './fixtures.js';

// How a task's turn runs, by what the caller asked for: a caller that waits for the finished task
// gets a turn whose model steps are fetched whole and an answer in one chunk; a streaming caller
// sees the answer as it is written. A task starts working when its turn starts, and a message
// that starts a conversation has no stored session to look for.

type Mode = 'generate' | 'stream';

/** The scripted model, noting how each call was made. */
function recordModes(modes: Mode[]): NonNullable<CompileOptions['resolveModel']> {
  return (id, context, env) => {
    const model = resolveModel(id, context, env);
    const recorded: LanguageModelV3 = {
      ...model,
      specificationVersion: 'v3',
      provider: model.provider,
      modelId: model.modelId,
      supportedUrls: model.supportedUrls,
      doGenerate: (options) => (modes.push('generate'), model.doGenerate(options)),
      doStream: (options) => (modes.push('stream'), model.doStream(options)),
    };
    return recorded;
  };
}

let server: A2aServer | undefined;
let store: SqliteStore | undefined;

afterEach(async () => {
  await server?.close();
  await store?.close();
  server = store = undefined;
});

async function serve(modes: Mode[], statements: string[] = []): Promise<string> {
  store = openSqliteStore(tempDbPath(), { onStatement: (sql) => statements.push(sql) });
  const syndicate = compile(agent('Assistant'), { resolveModel: recordModes(modes) }, { name: 'Assistant' });
  server = await serveA2a({ agents: [{ id: 'assistant', syndicate }], store, host: '127.0.0.1', port: 0, env: {}, version: '0.0.0-test' });
  return server.url;
}

describe('a task', () => {
  it('asked for with a blocking SendMessage runs its model calls whole and answers in one chunk', async () => {
    const modes: Mode[] = [];
    const client = await clientFor(await serve(modes), 'JSONRPC');

    const task = (await client.sendMessage(sendRequest('Should we adopt a four-day week?'))) as Task;

    expect(modes).toEqual(['generate']);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0]!.parts).toHaveLength(1);
    expect(textOf(task.artifacts[0]!.parts)).not.toBe('');
  });

  it('asked for with SendStreamingMessage streams its model calls', async () => {
    const modes: Mode[] = [];
    const client = await clientFor(await serve(modes), 'JSONRPC');

    await collectStream(client.sendMessageStream(sendRequest('Should we adopt a four-day week?')));

    expect(modes).toEqual(['stream']);
  });

  it('starts working when its turn starts, with no separate working update', async () => {
    const client = await clientFor(await serve([]), 'JSONRPC');

    const events = await collectStream(client.sendMessageStream(sendRequest('hello')));

    const first = events[0]?.payload;
    expect(first?.$case === 'task' && first.value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const statuses = events.flatMap((event) => (event.payload?.$case === 'statusUpdate' ? [event.payload.value.status?.state] : []));
    expect(statuses).toEqual([TaskState.TASK_STATE_COMPLETED]);
  });

  it('that starts a conversation does not look for its session in the database', async () => {
    const statements: string[] = [];
    const client = await clientFor(await serve([], statements), 'JSONRPC');
    statements.length = 0;

    const task = (await client.sendMessage(sendRequest('hello'))) as Task;

    expect(statements.filter((sql) => /FROM sessions/.test(sql))).toEqual([]);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('that the message did not name is never looked up in the database', async () => {
    const statements: string[] = [];
    const client = await clientFor(await serve([], statements), 'JSONRPC');
    statements.length = 0;

    const task = (await client.sendMessage(sendRequest('hello'))) as Task;

    expect(statements.filter((sql) => /^SELECT .* FROM a2a_tasks WHERE agent = /.test(sql))).toEqual([]);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await client.getTask({ tenant: '', id: task.id, historyLength: undefined })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('that continues a conversation appends to the same session', async () => {
    const modes: Mode[] = [];
    const client = await clientFor(await serve(modes), 'JSONRPC');
    const first = (await client.sendMessage(sendRequest('My name is Ada.'))) as Task;

    const second = (await client.sendMessage(sendRequest('What is my name?', { contextId: first.contextId }))) as Task;

    expect(second.contextId).toBe(first.contextId);
    const sessions = await store!.listSessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.eventCount).toBeGreaterThan(4);
  });
});
