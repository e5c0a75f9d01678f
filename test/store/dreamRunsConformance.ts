import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DREAM_INTERRUPTED_ERROR } from '../../src/store/backgroundJobs.js';
import type { Store } from '../../src/store/store.js';

// The crash rule every DreamRunRecords must show, against the Store interface so PostgreSQL runs it
// unchanged: a running dream is held under a lease its process renews, and one whose lease expired
// (its process died) is interrupted. Two stores opened on one database stand for two processes.
// Each test dreams in a silo of its own; the sweep is database-wide, so results are read per silo.

const LEASE = 1_000;

export function describeDreamRunsConformance(name: string, open: () => Promise<Store>, cleanup: () => Promise<void> = async () => undefined): void {
  describe(`${name} dream runs`, () => {
    let store: Store;
    let other: Store;
    let silo: string;
    const startedAt = 7_000_000;

    beforeEach(async () => {
      store = await open();
      other = await open();
      silo = `team--${randomUUID().slice(0, 8)}`;
    });
    afterEach(async () => {
      await Promise.all([store.close(), other.close()]);
    });
    afterAll(cleanup);

    const start = (id: string, runner = 'runner-a') =>
      store.dreamRuns.start({ id, syndicate: 'team', silo, sessionId: `dream:${silo}:${id}`, since: 0, startedAt, runner, leaseExpiresAt: startedAt + LEASE });
    const outcome = { status: 'answered', endedAt: startedAt + 10, journalPath: 'journal/2026-12-01.md', facts: 1, sessions: 2, error: null } as const;
    const statusOf = async (id: string) => (await other.dreamRuns.list('team', silo, 10)).find((run) => run.id === id);

    it('marks a running dream whose lease expired interrupted, for any process to see', async () => {
      await start(`${silo}-1`);

      const interrupted = await other.dreamRuns.interruptExpired(startedAt + LEASE);

      expect(interrupted.filter((run) => run.silo === silo).map((run) => run.id)).toEqual([`${silo}-1`]);
      expect(await statusOf(`${silo}-1`)).toMatchObject({ status: 'interrupted', error: DREAM_INTERRUPTED_ERROR, endedAt: startedAt + LEASE });
    });

    it('leaves a dream whose lease is renewed running', async () => {
      await start(`${silo}-1`);

      expect(await store.dreamRuns.heartbeat(`${silo}-1`, 'runner-a', startedAt + 3 * LEASE)).toBe(true);
      const interrupted = await other.dreamRuns.interruptExpired(startedAt + 2 * LEASE);

      expect(interrupted.filter((run) => run.silo === silo)).toEqual([]);
      expect((await statusOf(`${silo}-1`))?.status).toBe('running');
    });

    it('renews and ends a dream only for the runner that holds it', async () => {
      await start(`${silo}-1`);

      expect(await other.dreamRuns.heartbeat(`${silo}-1`, 'runner-b', startedAt + 3 * LEASE)).toBe(false);
      expect(await other.dreamRuns.finish(`${silo}-1`, 'runner-b', outcome)).toBe(false);
      expect((await statusOf(`${silo}-1`))?.status).toBe('running');
      expect(await store.dreamRuns.finish(`${silo}-1`, 'runner-a', outcome)).toBe(true);
      expect(await statusOf(`${silo}-1`)).toMatchObject({ status: 'answered', journalPath: 'journal/2026-12-01.md' });
    });

    it('keeps the interrupted record when its stalled runner ends the dream late', async () => {
      await start(`${silo}-1`);
      await other.dreamRuns.interruptExpired(startedAt + LEASE);

      expect(await store.dreamRuns.heartbeat(`${silo}-1`, 'runner-a', startedAt + 3 * LEASE)).toBe(false);
      expect(await store.dreamRuns.finish(`${silo}-1`, 'runner-a', outcome)).toBe(false);
      expect((await statusOf(`${silo}-1`))?.status).toBe('interrupted');
    });

    it('never interrupts an ended dream', async () => {
      await start(`${silo}-1`);
      await store.dreamRuns.finish(`${silo}-1`, 'runner-a', outcome);

      const interrupted = await other.dreamRuns.interruptExpired(startedAt + 10 * LEASE);

      expect(interrupted.filter((run) => run.silo === silo)).toEqual([]);
      expect((await statusOf(`${silo}-1`))?.status).toBe('answered');
    });
  });
}
