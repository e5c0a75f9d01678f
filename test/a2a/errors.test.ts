import { TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentIdFor } from '../../src/a2a/createA2aApp.js';
import { serveA2a, type A2aServer } from '../../src/a2a/serveA2a.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/store.js';
import { BINDINGS, clientFor, createGate, sendRequest, startServer, tempDbPath, type TestServer } from './fixtures.js';
import { assistant } from './syndicates.js';

// The errors the A2A spec assigns, as this server produces them: through the SDK's client (typed
// errors) and on the wire (JSON-RPC codes, HTTP statuses).

let server: TestServer;

beforeEach(async () => {
  server = await startServer(assistant(createGate().tool));
});

afterEach(async () => server.stop());

interface RpcError {
  code: number;
  message: string;
}

interface RpcReply {
  id: unknown;
  error?: RpcError;
}

async function rpcReply(body: string, headers: Record<string, string> = { 'A2A-Version': '1.0' }, url = server.url): Promise<RpcReply> {
  const response = await fetch(`${url}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return (await response.json()) as RpcReply;
}

async function rpc(method: string, params: unknown, headers: Record<string, string> = { 'A2A-Version': '1.0' }, body?: string): Promise<RpcError | undefined> {
  return (await rpcReply(body ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), headers)).error;
}

/** A server whose store fails every task read, as a database that has gone away would. */
async function serveOnFailingStore(): Promise<{ server: A2aServer; stop(): Promise<void> }> {
  const store = openSqliteStore(tempDbPath());
  const failing: Store = {
    ...store,
    tasks: {
      ...store.tasks,
      get: async () => {
        throw new Error('disk I/O error');
      },
    },
  };
  const syndicate = assistant(createGate().tool);
  const served = await serveA2a({ host: '127.0.0.1', port: 0, env: {}, version: '0.0.0-test', agents: [{ id: agentIdFor(syndicate.name), syndicate }], store: failing });
  return {
    server: served,
    async stop() {
      await served.close();
      await store.close();
    },
  };
}

describe.each(BINDINGS)('typed errors over %s', (binding) => {
  it('reports an unknown task as TaskNotFound on get, cancel and subscribe', async () => {
    const client = await clientFor(server.url, binding);

    await expect(client.getTask({ tenant: '', id: 'no-such-task' })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(client.cancelTask({ tenant: '', id: 'no-such-task', metadata: undefined })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(client.resubscribeTask({ tenant: '', id: 'no-such-task' }).next()).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('refuses to cancel a completed task with TaskNotCancelable', async () => {
    const client = await clientFor(server.url, binding);
    const task = (await client.sendMessage(sendRequest('hello'))) as { id: string };

    await expect(client.cancelTask({ tenant: '', id: task.id, metadata: undefined })).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  it('refuses a message to a completed task with UnsupportedOperation', async () => {
    const client = await clientFor(server.url, binding);
    const task = (await client.sendMessage(sendRequest('hello'))) as { id: string };

    await expect(client.sendMessage(sendRequest('and again', { taskId: task.id }))).rejects.toBeInstanceOf(UnsupportedOperationError);
  });

  it('reports a push configuration of an unknown task as TaskNotFound', async () => {
    const client = await clientFor(server.url, binding);

    await expect(client.getTaskPushNotificationConfig({ tenant: '', taskId: 'no-such-task', id: 'x' })).rejects.toBeInstanceOf(TaskNotFoundError);
  });
});

describe('JSON-RPC error codes', () => {
  it('answers malformed JSON with -32700', async () => {
    expect((await rpc('GetTask', undefined, { 'A2A-Version': '1.0' }, '{"jsonrpc": "2.0", "id": 1, "method": '))?.code).toBe(-32700);
  });

  it('answers JSON that is not a JSON-RPC 2.0 request object with -32600, echoing a valid id', async () => {
    const wrongVersion = await rpcReply(JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'GetTask', params: { id: 'x' } }));
    const noMethod = await rpcReply(JSON.stringify({ jsonrpc: '2.0', id: 'a', params: {} }));
    const batch = await rpcReply('[]');

    expect(wrongVersion).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(noMethod).toMatchObject({ id: 'a', error: { code: -32600 } });
    expect(batch).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers a 0.3 request that is not a JSON-RPC 2.0 request object with -32600 too', async () => {
    expect(await rpcReply(JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tasks/get', params: { id: 'x' } }), {})).toMatchObject({ id: 7, error: { code: -32600 } });
  });

  it('answers a request the server fails on (its store) with -32603', async () => {
    const failing = await serveOnFailingStore();
    try {
      const reply = await rpcReply(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'any-task' } }), { 'A2A-Version': '1.0' }, failing.server.url);

      expect(reply.error?.code).toBe(-32603);
    } finally {
      await failing.stop();
    }
  });

  it('answers an unknown method with -32601', async () => {
    expect((await rpc('DoSomethingElse', {}))?.code).toBe(-32601);
  });

  it('answers invalid parameters with -32602', async () => {
    expect((await rpc('ListTasks', { pageSize: 1000 }))?.code).toBe(-32602);
    expect((await rpc('ListTasks', { pageSize: 10, pageToken: 'not-a-token' }))?.code).toBe(-32602);
  });

  it('answers an unknown task with -32001 and a finished one with -32002', async () => {
    const client = await clientFor(server.url, 'JSONRPC');
    const task = (await client.sendMessage(sendRequest('hello'))) as { id: string };

    expect((await rpc('GetTask', { id: 'no-such-task' }))?.code).toBe(-32001);
    expect((await rpc('CancelTask', { id: task.id }))?.code).toBe(-32002);
  });

  it('answers a message to a finished task with -32004', async () => {
    const client = await clientFor(server.url, 'JSONRPC');
    const task = (await client.sendMessage(sendRequest('hello'))) as { id: string };

    const error = await rpc('SendMessage', { message: { messageId: 'm2', role: 'ROLE_USER', taskId: task.id, parts: [{ text: 'again' }] } });

    expect(error?.code).toBe(-32004);
  });

  it('answers a message with no parts with -32602, sent or streamed, and starts no task', async () => {
    const empty = { message: { messageId: 'm-empty', role: 'ROLE_USER', parts: [] } };

    const sent = await rpc('SendMessage', empty);
    const streamed = await rpc('SendStreamingMessage', { ...empty, message: { ...empty.message, messageId: 'm-empty-2' } });
    const listed = (await rpcReply(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ListTasks', params: { pageSize: 10 } }))) as RpcReply & { result?: { tasks: unknown[] } };

    expect(sent).toMatchObject({ code: -32602, message: expect.stringContaining('parts') });
    expect(streamed).toMatchObject({ code: -32602, message: expect.stringContaining('parts') });
    expect(listed.result?.tasks).toEqual([]);
  });

  it('answers an unsupported protocol version with -32009', async () => {
    expect((await rpc('GetTask', { id: 'x' }, { 'A2A-Version': '9.0' }))?.code).toBe(-32009);
  });

  it('logs requests for an unsupported protocol version as one warning line, not a stack trace each', async () => {
    const warnings: string[] = [];
    const errors = vi.spyOn(console, 'error');
    const warned = await startServer(assistant(createGate().tool), { warn: (line) => warnings.push(line) });
    try {
      const body = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'GetTask', params: { id: 'x' } });
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => rpcReply(body(i), { 'A2A-Version': `9.${i}` }, warned.url)));

      expect(replies.map((reply) => reply.error?.code)).toEqual(Array(20).fill(-32009));
      expect(replies[3]).toMatchObject({ id: 3, error: { message: expect.stringContaining("'9.3' is not supported") } });
      expect(warnings).toEqual([expect.stringMatching(/^warning: refused an A2A JSON-RPC request for protocol version "9\.\d+" \(this server speaks [^\n]*\)$/)]);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      await warned.stop();
    }
  });
});

describe('HTTP+JSON error statuses', () => {
  it('answers a request the server fails on (its store) with 500 INTERNAL', async () => {
    const failing = await serveOnFailingStore();
    try {
      const response = await fetch(`${failing.server.url}/rest/tasks/any-task`, { headers: { 'A2A-Version': '1.0' } });

      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    } finally {
      await failing.stop();
    }
  });

  it('answers a message with no parts with 400 INVALID_ARGUMENT', async () => {
    const response = await fetch(`${server.url}/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ message: { messageId: 'm-empty', role: 'ROLE_USER', parts: [] } }),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('parts') } });
  });

  it('answers a body that is not JSON with 400', async () => {
    const response = await fetch(`${server.url}/rest/message:send`, { method: 'POST', headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' }, body: '{"message": ' });

    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('Invalid JSON payload');
  });

  it('answers an unknown task with 404, and a cancel of a finished one with 400 naming the reason', async () => {
    const client = await clientFor(server.url, 'HTTP+JSON');
    const task = (await client.sendMessage(sendRequest('hello'))) as { id: string };
    const headers = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

    const missing = await fetch(`${server.url}/rest/tasks/no-such-task`, { headers });
    const finished = await fetch(`${server.url}/rest/tasks/${task.id}:cancel`, { method: 'POST', headers, body: '{}' });

    expect(missing.status).toBe(404);
    expect(finished.status).toBe(400);
    expect(JSON.stringify(await finished.json())).toContain('TASK_NOT_CANCELABLE');
  });
});
