import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { BINDINGS, clientFor, createGate, sendRequest, startServer, type TestServer } from './fixtures.js';
import { assistant } from './syndicates.js';

// Push notifications: task updates POSTed to the client's webhook, with the client's credentials.

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Webhook {
  url: string;
  deliveries: Delivery[];
  /** Resolves with the first delivery whose body contains `text`. */
  received(text: string): Promise<Delivery>;
  close(): Promise<void>;
}

async function startWebhook(): Promise<Webhook> {
  const deliveries: Delivery[] = [];
  const waiters: Array<{ text: string; resolve: (delivery: Delivery) => void }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const delivery = { headers: req.headers, body };
      deliveries.push(delivery);
      for (const waiter of waiters.filter((w) => body.includes(w.text))) waiter.resolve(delivery);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    received: (text) => {
      const found = deliveries.find((delivery) => delivery.body.includes(text));
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ text, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function pushConfig(url: string, overrides: Partial<TaskPushNotificationConfig> = {}): TaskPushNotificationConfig {
  return { tenant: '', id: '', taskId: '', url, token: '', authentication: { scheme: 'Bearer', credentials: 'hook-secret' }, ...overrides };
}

// The test webhook listens on loopback, which the SSRF guard refuses unless told otherwise.
const LOOPBACK_WEBHOOKS = { ALLOW_PRIVATE_MCP: 'true' };

let server: TestServer | undefined;
let webhook: Webhook | undefined;

afterEach(async () => {
  await server?.stop();
  await webhook?.close();
  server = undefined;
  webhook = undefined;
});

describe.each(BINDINGS)('push notifications over %s', (binding) => {
  it('delivers the task updates to the webhook named in SendMessage, with its authentication', async () => {
    webhook = await startWebhook();
    server = await startServer(assistant(createGate().tool), { env: LOOPBACK_WEBHOOKS });
    const client = await clientFor(server.url, binding);

    await client.sendMessage(sendRequest('hello', {}, { taskPushNotificationConfig: pushConfig(webhook.url) }));
    const completed = await webhook.received('TASK_STATE_COMPLETED');

    expect(completed.headers.authorization).toBe('Bearer hook-secret');
    expect(completed.headers['content-type']).toContain('application/a2a+json');
  });

  it('creates, gets, lists and deletes a task push configuration, then delivers to it', async () => {
    webhook = await startWebhook();
    const gate = createGate();
    server = await startServer(assistant(gate.tool), { env: LOOPBACK_WEBHOOKS });
    const client = await clientFor(server.url, binding);
    const asked = await client.sendMessage(sendRequest('plan our offsite'));
    const taskId = (asked as { id: string }).id;

    const created = await client.createTaskPushNotificationConfig(pushConfig(webhook.url, { taskId, id: 'hook-1' }));
    const fetched = await client.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'hook-1' });
    const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 10, pageToken: '' });
    await client.sendMessage(sendRequest('Lisbon', { taskId }));
    const completed = await webhook.received('TASK_STATE_COMPLETED');
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: 'hook-1' });
    const after = await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 10, pageToken: '' });

    expect(created).toMatchObject({ id: 'hook-1', taskId, url: webhook.url });
    expect(fetched).toMatchObject({ id: 'hook-1', url: webhook.url });
    expect(listed.configs.map((config) => config.id)).toEqual(['hook-1']);
    expect(completed.headers.authorization).toBe('Bearer hook-secret');
    expect(after.configs).toEqual([]);
  });
});

describe('webhook addresses', () => {
  it('refuses a webhook on this machine unless private addresses are allowed', async () => {
    server = await startServer(assistant(createGate().tool));
    const client = await clientFor(server.url, 'JSONRPC');

    const sending = client.sendMessage(sendRequest('hello', {}, { taskPushNotificationConfig: pushConfig('http://127.0.0.1:9/hook') }));

    await expect(sending).rejects.toThrow(/loopback address.*ALLOW_PRIVATE_MCP/);
  });

  it('refuses a cloud metadata address even when private addresses are allowed', async () => {
    server = await startServer(assistant(createGate().tool), { env: LOOPBACK_WEBHOOKS });
    const client = await clientFor(server.url, 'HTTP+JSON');
    const task = (await client.sendMessage(sendRequest('plan our offsite'))) as { id: string };

    const creating = client.createTaskPushNotificationConfig(pushConfig('http://169.254.169.254/latest/meta-data', { taskId: task.id, id: 'steal' }));

    await expect(creating).rejects.toThrow(/metadata/);
  });
});
