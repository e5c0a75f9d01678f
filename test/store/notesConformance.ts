import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_NOTE_BYTES, MAX_NOTES_PER_SESSION } from '../../src/core/notes.js';
import type { TurnEvent } from '../../src/core/events.js';
import type { Store } from '../../src/store/store.js';
import { nextMillisecond } from './conformance.js';

// The behaviour every SessionNotes implementation must show (the scratchpad), against the Store
// interface so the PostgreSQL implementation runs it unchanged. Each test uses fresh session ids.

const lastEvent: TurnEvent = { type: 'turn-end', status: 'completed', output: 'done', turnId: 'turn-1', agent: 'orchestrator', at: 1_700_000_000_000, depth: 0 };

export function describeSessionNotesConformance(name: string, open: () => Promise<Store>, cleanup: () => Promise<void> = async () => undefined): void {
  describe(`${name} session notes`, () => {
    let store: Store;
    let session: string;

    beforeEach(async () => {
      store = await open();
      session = `session-${randomUUID()}`;
    });
    afterEach(async () => store.close());
    afterAll(cleanup);

    it('reads back a note as it was written, and replaces it on the next write', async () => {
      await store.notes.write(session, 'plan', 'first', 'replace');

      const second = await store.notes.write(session, 'plan', 'second ✓', 'replace');

      expect(second).toEqual({ ok: true, bytes: 10 });
      expect(await store.notes.read(session, 'plan')).toBe('second ✓');
    });

    it('appends to the end of a note, creating it if needed', async () => {
      await store.notes.write(session, 'log', 'a', 'append');
      await store.notes.write(session, 'log', 'b', 'append');

      expect(await store.notes.read(session, 'log')).toBe('ab');
    });

    it('finds nothing under a name the session never wrote', async () => {
      expect(await store.notes.read(session, 'missing')).toBeUndefined();
    });

    it('keeps each session’s notes to itself', async () => {
      const other = `session-${randomUUID()}`;
      await store.notes.write(other, 'plan', 'theirs', 'replace');

      expect(await store.notes.read(session, 'plan')).toBeUndefined();
      expect(await store.notes.list(session)).toEqual([]);
    });

    it('refuses an append that would pass the size limit, leaving the note as it was', async () => {
      await store.notes.write(session, 'big', 'x'.repeat(MAX_NOTE_BYTES - 1), 'replace');

      const refused = await store.notes.write(session, 'big', 'yy', 'append');

      expect(refused).toEqual({ ok: false, reason: 'too-large', bytes: MAX_NOTE_BYTES + 1 });
      expect((await store.notes.read(session, 'big'))?.length).toBe(MAX_NOTE_BYTES - 1);
    });

    it('refuses one note more than the limit, but still rewrites a note it has', async () => {
      for (let i = 0; i < MAX_NOTES_PER_SESSION; i++) await store.notes.write(session, `n${i}`, 'x', 'replace');

      const refused = await store.notes.write(session, 'one-more', 'x', 'replace');
      const rewritten = await store.notes.write(session, 'n0', 'y', 'replace');

      expect(refused).toMatchObject({ ok: false, reason: 'too-many' });
      expect(rewritten).toMatchObject({ ok: true });
      expect(await store.notes.list(session)).toHaveLength(MAX_NOTES_PER_SESSION);
    });

    it('lets concurrent writes together stay within the note limit', async () => {
      await Promise.all(Array.from({ length: MAX_NOTES_PER_SESSION + 8 }, (_, i) => store.notes.write(session, `c${i}`, 'x', 'replace')));

      expect(await store.notes.list(session)).toHaveLength(MAX_NOTES_PER_SESSION);
    });

    it('deletes a session’s notes with the session, and only its notes', async () => {
      const other = `session-${randomUUID()}`;
      await store.openSession(session, 'notes');
      await store.notes.write(session, 'plan', 'mine', 'replace');
      await store.notes.write(other, 'plan', 'theirs', 'replace');

      await store.deleteSession(session);

      expect(await store.notes.list(session)).toEqual([]);
      expect(await store.notes.read(other, 'plan')).toBe('theirs');
    });

    it('deletes the notes of the sessions it prunes, keeping those of newer sessions', async () => {
      const fresh = `session-${randomUUID()}`;
      await store.openSession(session, 'notes');
      await store.notes.write(session, 'plan', 'stale', 'replace');
      await nextMillisecond();
      const cutoff = Date.now();
      await store.openSession(fresh, 'notes');
      await store.notes.write(fresh, 'plan', 'fresh', 'replace');

      expect(await store.pruneSessions(cutoff)).toBeGreaterThanOrEqual(1);

      expect(await store.notes.list(session)).toEqual([]);
      expect(await store.notes.read(fresh, 'plan')).toBe('fresh');
    });

    it('lists the notes by name with their sizes, and clears them all', async () => {
      await store.notes.write(session, 'b', 'bb', 'replace');
      await store.notes.write(session, 'a', 'a', 'replace');

      expect(await store.notes.list(session)).toEqual([
        { name: 'a', bytes: 1 },
        { name: 'b', bytes: 2 },
      ]);
      await store.notes.clear(session);
      expect(await store.notes.list(session)).toEqual([]);
    });

    it('clears the session\'s notes, and only its own, with a batch appended with clearNotes', async () => {
      const other = `session-${randomUUID()}`;
      await store.openSession(session, 'notes');
      await store.notes.write(session, 'plan', 'mine', 'replace');
      await store.notes.write(other, 'plan', 'theirs', 'replace');

      const seq = await store.appendEvents(session, [lastEvent], { clearNotes: true });

      expect(seq).toBe(1);
      expect((await store.readEvents(session)).map(({ event }) => event)).toEqual([lastEvent]);
      expect(await store.notes.list(session)).toEqual([]);
      expect(await store.notes.read(other, 'plan')).toBe('theirs');
    });

    it('keeps the session\'s notes when a batch is appended without clearNotes', async () => {
      await store.openSession(session, 'notes');
      await store.notes.write(session, 'plan', 'mine', 'replace');

      await store.appendEvents(session, [lastEvent]);

      expect(await store.notes.read(session, 'plan')).toBe('mine');
    });
  });
}
