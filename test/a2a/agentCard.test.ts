import type { AgentCard } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor, sendRequest, startServer, textOf, type TestServer } from './fixtures.js';
import { council, helpDesk } from './syndicates.js';

// One agent card per served syndicate, built from the syndicate.

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function cardAt(url: string): Promise<AgentCard> {
  const response = await fetch(`${url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } });
  expect(response.status).toBe(200);
  return (await response.json()) as AgentCard;
}

describe('agent cards', () => {
  it('describes a syndicate: name, description, version, capabilities, modes and both interfaces', async () => {
    server = await startServer(helpDesk());

    const card = await cardAt(`${server.url}/help-desk`);

    expect(card).toMatchObject({
      name: 'Help Desk',
      description: 'Routes each question to one specialist.',
      version: '0.0.0-test',
      capabilities: { streaming: true, pushNotifications: true },
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain'],
    });
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${server.url}/help-desk/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }),
      expect.objectContaining({ url: `${server.url}/help-desk/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }),
      expect.objectContaining({ url: `${server.url}/help-desk/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }),
      expect.objectContaining({ url: `${server.url}/help-desk/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' }),
    ]);
    expect(card.securitySchemes ?? {}).toEqual({});
  });

  it('lists the dispatch routes as skills, with their descriptions', async () => {
    server = await startServer(helpDesk());

    const card = await cardAt(`${server.url}/help-desk`);

    expect(card.skills.map((skill) => [skill.name, skill.description, skill.tags[0]])).toEqual([
      ['Billing', 'Handles invoices and refunds.', 'route'],
      ['General', 'Answers everything else.', 'route'],
    ]);
  });

  it('lists the subagents of a delegating syndicate as skills', async () => {
    server = await startServer(council());

    const card = await cardAt(`${server.url}/council`);

    expect(card.skills.map((skill) => [skill.name, skill.tags[0]])).toEqual([
      ['Advocate', 'subagent'],
      ['Skeptic', 'subagent'],
    ]);
  });

  it('also serves a single syndicate at the root, with root endpoints', async () => {
    server = await startServer(council());

    const card = await cardAt(server.url);

    expect(card.name).toBe('Council');
    expect(card.supportedInterfaces[0]?.url).toBe(`${server.url}/jsonrpc`);
  });

  it('serves several syndicates from one process, each under its own id, and none at the root', async () => {
    server = await startServer([council(), helpDesk()]);

    const desk = await clientFor(`${server.url}/help-desk`, 'JSONRPC');
    const task = (await desk.sendMessage(sendRequest('I need a refund'))) as { artifacts: Array<{ parts: Parameters<typeof textOf>[0] }> };

    expect((await cardAt(`${server.url}/council`)).name).toBe('Council');
    expect(textOf(task.artifacts[0]?.parts)).toMatch(/^\[Billing\]/);
    expect((await fetch(`${server.url}/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('serves a 0.3-shaped card to a client that sends no A2A-Version', async () => {
    server = await startServer(council());

    const legacy = (await (await fetch(`${server.url}/council/.well-known/agent-card.json`)).json()) as { url?: string; protocolVersion?: string };

    expect(legacy.url).toBe(`${server.url}/council/jsonrpc`);
    expect(legacy.protocolVersion).toMatch(/^0\.3/);
  });
});
