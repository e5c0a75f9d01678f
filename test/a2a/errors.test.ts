import { TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BINDINGS, clientFor, createGate, sendRequest, startServer, type TestServer } from './fixtures.js';
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

async function rpc(method: string, params: unknown, headers: Record<string, string> = { 'A2A-Version': '1.0' }, body?: string): Promise<RpcError | undefined> {
  const response = await fetch(`${server.url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const reply = (await response.json()) as { error?: RpcError };
  return reply.error;
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

  it('answers an unsupported protocol version with -32009', async () => {
    expect((await rpc('GetTask', { id: 'x' }, { 'A2A-Version': '9.0' }))?.code).toBe(-32009);
  });
});

describe('HTTP+JSON error statuses', () => {
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
