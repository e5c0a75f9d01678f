import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnService } from '../../src/server/turns/turnService.js';
import { waitingRoomYaml } from '../cli/serveFile.js';
import { readAll, readOwnEvents, readUntil } from './turns/harness.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// A server shuts down while one of alice's turns waits on a tool that never answers, and another
// of hers has finished: the grace period runs out, the waiting turn is cancelled, and a new server
// on the same store lists the two sessions apart, the cancelled one as interrupted.

const GRACE_MS = 200;

let after: TestServer;
let shutdown: { finished: number; interrupted: number };
let finished: string;
let waiting: string;

type Listed = { sessions: Array<{ id: string; lastTurn: { outcome: string; endedAt: number } | null }> };

beforeAll(async () => {
  const before = await startTestServer([], { files: { 'waiting-room.yaml': waitingRoomYaml() }, turns: (context) => createTurnService(context) });
  const post = (message: string) => before.api('/turns', { method: 'POST', body: JSON.stringify({ syndicate: 'waiting-room', message }) });
  const done = await post('Lisbon, please');
  finished = done.headers.get('x-session-id')!;
  await readAll(done);
  const stuck = await post('Please wait');
  waiting = stuck.headers.get('x-session-id')!;
  await readUntil(readOwnEvents(stuck), (message) => message.data.type === 'tool-call');

  shutdown = await before.server.close({ graceMs: GRACE_MS });
  after = await startTestServer([], { store: join(before.folder, 'syndicate.db') });
}, 60_000);

afterAll(async () => {
  await after?.server.close({ graceMs: 0 });
});

async function listed(id: string): Promise<Listed['sessions'][number] | undefined> {
  const body = (await (await after.api('/sessions')).json()) as Listed;
  return body.sessions.find((session) => session.id === id);
}

describe('sessions after a shutdown cancelled a turn', () => {
  it('cancels the turn still running when the grace period runs out', () => {
    expect(shutdown).toEqual({ finished: 0, interrupted: 1 });
  });

  it('lists the session whose turn the shutdown cancelled as interrupted', async () => {
    expect((await listed(waiting))?.lastTurn?.outcome).toBe('interrupted');
  });

  it('lists the session whose turn finished before the shutdown as completed', async () => {
    expect((await listed(finished))?.lastTurn?.outcome).toBe('completed');
  });

  it('marks the stored turn-end of the cancelled turn interrupted', async () => {
    const body = (await (await after.api(`/sessions/${encodeURIComponent(waiting)}/events`)).json()) as { events: Array<{ event: { type: string } }> };

    expect(body.events.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'cancelled', interrupted: true, error: expect.stringContaining('the server shut down') });
  });
});
