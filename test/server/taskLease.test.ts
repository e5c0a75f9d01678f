import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskState, type Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { agentMessage } from '../../src/a2a/messages.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import { startServer, type RunningServer } from '../../src/server/app/startServer.js';
import { loadSyndicates } from '../../src/server/app/syndicateRegistry.js';
import { SHIPPED_PRICES } from '../../src/telemetry/ledger/prices.js';
import { scratchDir } from '../support/scratchDir.js';
import { EXAMPLES, idleTurns, tokenAuth } from './serverFixture.js';

// The A2A face `serve` mounts holds a task lease, as serve-a2a does: at startup it marks failed only
// what dead processes left running, and its lease ends when the server closes.

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close({ graceMs: 0 });
});

function workingTask(id: string, runner: string) {
  const statusAt = new Date().toISOString();
  const task: Task = {
    id,
    contextId: 'context-1',
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: statusAt },
    artifacts: [],
    history: [agentMessage('hello', id, 'context-1')],
    metadata: undefined,
  };
  return { id, agent: 'triage', owner: 'alice', contextId: 'context-1', state: 'TASK_STATE_WORKING', statusAt, document: task, runner };
}

async function serve(platform: Platform, folder: string): Promise<RunningServer> {
  const warn = () => undefined;
  const server = await startServer({
    platform,
    syndicates: loadSyndicates([folder], { platform, warn, offline: true, watch: false }),
    auth: tokenAuth(),
    turns: idleTurns(),
    host: '127.0.0.1',
    port: 0,
    adminConfigured: false,
    version: '0.0.0-test',
    prices: SHIPPED_PRICES,
    warn,
  });
  servers.push(server);
  return server;
}

describe('the A2A task lease of serve', () => {
  it('marks failed at startup the tasks of a process whose lease expired, and leaves a live process\'s running', async () => {
    const folder = scratchDir('server-lease');
    copyFileSync(join(EXAMPLES, 'triage.yaml'), join(folder, 'triage.yaml'));
    const platform = await createPlatform({ store: join(folder, 'syndicate.db'), env: {} });
    const store = await platform.store();
    await store.tasks.renewLease('dead', Date.now() - 1_000);
    await store.tasks.renewLease('alive', Date.now() + 60_000);
    await store.tasks.save(workingTask('left-by-dead', 'dead'), { isNew: true });
    await store.tasks.save(workingTask('run-by-alive', 'alive'), { isNew: true });

    const server = await serve(platform, folder);

    expect(server.app.interruptedTasks).toBe(1);
    expect((await store.tasks.get('triage', 'alice', 'left-by-dead'))?.state).toBe('TASK_STATE_FAILED');
    expect((await store.tasks.get('triage', 'alice', 'run-by-alive'))?.state).toBe('TASK_STATE_WORKING');
  });
});
