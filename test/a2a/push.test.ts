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

/** A webhook on loopback; `redirectTo` makes it answer every POST with a 307 to that URL. */
async function startWebhook(redirectTo?: string): Promise<Webhook> {
  const deliveries: Delivery[] = [];
  const waiters: Array<{ text: string; resolve: (delivery: Delivery) => void }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const delivery = { headers: req.headers, body };
      deliveries.push(delivery);
      for (const waiter of waiters.filter((w) => body.includes(w.text))) waiter.resolve(delivery);
      if (redirectTo !== undefined) return void res.writeHead(307, { location: redirectTo }).end();
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
let target: Webhook | undefined;

afterEach(async () => {
  await server?.stop();
  await webhook?.close();
  await target?.close();
  server = undefined;
  webhook = undefined;
  target = undefined;
});

/** Collects the server's warnings; `next(pattern)` resolves with the first that matches. */
function warnings() {
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  return {
    lines,
    warn: (line: string) => {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) waiter.resolve(line);
    },
    next: (pattern: RegExp): Promise<string> => {
      const found = lines.find((line) => pattern.test(line));
      return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

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

describe('push configurations across a restart', () => {
  it('lists a configuration set before the server restarted, and delivers to it after', async () => {
    webhook = await startWebhook();
    const before = await startServer(assistant(createGate().tool), { env: LOOPBACK_WEBHOOKS });
    const asked = (await (await clientFor(before.url, 'JSONRPC')).sendMessage(sendRequest('plan our offsite'))) as { id: string; contextId: string };
    await (await clientFor(before.url, 'JSONRPC')).createTaskPushNotificationConfig(pushConfig(webhook.url, { taskId: asked.id, id: 'hook-1' }));
    await before.stop();

    server = await startServer(assistant(createGate().tool), { env: LOOPBACK_WEBHOOKS, dbPath: before.dbPath });
    const client = await clientFor(server.url, 'HTTP+JSON');
    const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId: asked.id, pageSize: 10, pageToken: '' });
    await client.sendMessage(sendRequest('Lisbon', { taskId: asked.id, contextId: asked.contextId }));
    const completed = await webhook.received('TASK_STATE_COMPLETED');

    expect(listed.configs).toMatchObject([{ id: 'hook-1', taskId: asked.id, url: webhook.url }]);
    expect(completed.headers.authorization).toBe('Bearer hook-secret');
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

describe('webhook delivery', () => {
  it('does not follow a webhook redirect to an address the guard refuses', async () => {
    target = await startWebhook();
    const port = new URL(target.url).port;
    webhook = await startWebhook(target.url);
    const log = warnings();
    // Only the name localhost is allowed: the redirect names 127.0.0.1 itself, a loopback address.
    server = await startServer(assistant(createGate().tool), { env: { SYNDICATE_ALLOWED_HOSTS: 'localhost' }, warn: log.warn });
    const client = await clientFor(server.url, 'JSONRPC');
    const hook = webhook.url.replace('127.0.0.1', 'localhost');

    await client.sendMessage(sendRequest('hello', {}, { taskPushNotificationConfig: pushConfig(hook) }));
    const outcome = await Promise.race([log.next(/not delivered/), target.received('TASK_STATE')]);

    expect(webhook.deliveries.length).toBeGreaterThan(0);
    expect(target.deliveries).toEqual([]);
    expect(outcome).toMatch(new RegExp(`not delivered to ${hook}: refused to fetch http://127\\.0\\.0\\.1:${port}/hook: 127\\.0\\.0\\.1 is a loopback address`));
  });

  it('refuses a webhook host that resolved to a public address when registered and to loopback at delivery', async () => {
    webhook = await startWebhook();
    const port = new URL(webhook.url).port;
    const log = warnings();
    const asked: string[] = [];
    // DNS rebinding: the first answer (the registration check) is public, every later one loopback.
    const resolveHost = async (hostname: string) => {
      asked.push(hostname);
      return [{ address: asked.length === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    };
    server = await startServer(assistant(createGate().tool), { resolveHost, warn: log.warn });
    const client = await clientFor(server.url, 'HTTP+JSON');
    const hook = `http://hooks.rebinding.test:${port}/hook`;

    await client.sendMessage(sendRequest('hello', {}, { taskPushNotificationConfig: pushConfig(hook) }));
    const outcome = await Promise.race([log.next(/not delivered/), webhook.received('TASK_STATE')]);

    expect(webhook.deliveries).toEqual([]);
    expect(asked.length).toBeGreaterThan(1);
    expect(outcome).toMatch(/refused to fetch http:\/\/hooks\.rebinding\.test:\d+\/hook: hooks\.rebinding\.test \(127\.0\.0\.1\) is a loopback address/);
  });
});
