import { TaskState, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it } from 'vitest';
import { BINDINGS, clientFor, createGate, sendRequest, startServer, type TestServer } from './fixtures.js';
import { assistant } from './syndicates.js';

// ListTasks: newest status first, filtered by state and by status time.

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Lets the clock move on, so tasks sent one after another have distinct status times. */
const nextMillisecond = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2));

interface Sent {
  client: Client;
  /** Sent in this order: completed, input-required ("offsite" asks a question), completed. */
  first: Task;
  asking: Task;
  last: Task;
}

async function sendThree(binding: (typeof BINDINGS)[number]): Promise<Sent> {
  server = await startServer(assistant(createGate().tool));
  const client = await clientFor(server.url, binding);
  const first = (await client.sendMessage(sendRequest('hello'))) as Task;
  await nextMillisecond();
  const asking = (await client.sendMessage(sendRequest('plan the offsite'))) as Task;
  await nextMillisecond();
  const last = (await client.sendMessage(sendRequest('hello again'))) as Task;
  return { client, first, asking, last };
}

function list(client: Client, filters: { status?: TaskState; statusTimestampAfter?: string } = {}): Promise<Task[]> {
  return client
    .listTasks({ tenant: '', contextId: '', status: filters.status ?? TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: filters.statusTimestampAfter })
    .then((response) => response.tasks);
}

const ids = (tasks: readonly Task[]): string[] => tasks.map((task) => task.id);

describe.each(BINDINGS)('over %s', (binding) => {
  it('lists tasks newest first', async () => {
    const { client, first, asking, last } = await sendThree(binding);

    expect(ids(await list(client))).toEqual([last.id, asking.id, first.id]);
  });

  it('lists only the tasks in the requested state', async () => {
    const { client, first, asking, last } = await sendThree(binding);

    expect(ids(await list(client, { status: TaskState.TASK_STATE_COMPLETED }))).toEqual([last.id, first.id]);
    expect(ids(await list(client, { status: TaskState.TASK_STATE_INPUT_REQUIRED }))).toEqual([asking.id]);
  });

  it('lists only the tasks whose status is newer than statusTimestampAfter', async () => {
    const { client, first, asking, last } = await sendThree(binding);
    const justAfterFirst = new Date(Date.parse(first.status!.timestamp!) + 1).toISOString();

    expect(ids(await list(client, { statusTimestampAfter: justAfterFirst }))).toEqual([last.id, asking.id]);
  });

  // The spec's ListTasksRequest: "Only tasks with a status timestamp time greater than or equal to
  // this value will be returned."
  it('includes a task whose status time equals statusTimestampAfter', async () => {
    const { client, first, asking, last } = await sendThree(binding);

    expect(ids(await list(client, { statusTimestampAfter: first.status!.timestamp! }))).toEqual([last.id, asking.id, first.id]);
  });
});
