import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { TurnEvent } from '../../src/core/events.js';
import type { Store } from '../../src/store/store.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { journalDir } from '../../src/store/sqlite/journal.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/schema.js';
import { SESSION_TITLE_LENGTH } from '../../src/store/sessionTitle.js';
import { describeStoreConformance, usageRow } from './conformance.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'syndicate-sqlite-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeStoreConformance('sqlite', async () => openSqliteStore(join(dir, 'conformance.db')));

function message(text: string, turnId = 'turn-1'): TurnEvent {
  return { type: 'message', text, turnId, agent: 'orchestrator', at: 1_700_000_000_000, depth: 0 };
}

function turnStart(input: string): TurnEvent {
  return { type: 'turn-start', syndicate: 'council', input, turnId: 'turn-1', agent: 'orchestrator', at: 1_700_000_000_000, depth: 0 };
}

function rawConnection(path: string): Database.Database {
  return new Database(path, { readonly: true, fileMustExist: true });
}

describe('SQLite store', () => {
  it('creates missing parent directories of the database file', async () => {
    const path = join(dir, 'nested', 'deeper', 'store.db');
    const store = openSqliteStore(path);
    await store.close();
    expect(existsSync(path)).toBe(true);
  });

  it('puts the database in WAL journal mode', async () => {
    const path = join(dir, 'wal.db');
    const store = openSqliteStore(path);
    const raw = rawConnection(path);
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('records the schema version in user_version', async () => {
    const path = join(dir, 'version.db');
    await openSqliteStore(path).close();
    const raw = rawConnection(path);
    try {
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      raw.close();
    }
  });

  it('refuses a database written by a newer schema version', async () => {
    const path = join(dir, 'future.db');
    const raw = new Database(path);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => openSqliteStore(path)).toThrow(/schema version 99 is newer/);
  });

  it("titles the sessions of a database from before titles by their first turn's input", async () => {
    const path = join(dir, 'untitled.db');
    const store = openSqliteStore(path);
    await store.openSession('titled', 'council');
    await store.appendEvents('titled', [turnStart(`nul\u0000 ${'🚀'.repeat(SESSION_TITLE_LENGTH)}`), message('an answer')]);
    await store.openSession('untitled', 'council');
    await store.appendEvents('untitled', [message('no turn started'), turnStart('too late')]);
    await store.close();
    const raw = new Database(path);
    // Schema version 18: the last before titles.
    raw.exec('ALTER TABLE sessions DROP COLUMN title');
    raw.pragma('user_version = 18');
    raw.close();

    const reopened = openSqliteStore(path);
    onTestFinished(() => reopened.close());

    const titles = Object.fromEntries((await reopened.listSessions()).map((session) => [session.id, session.title]));
    expect(titles).toStrictEqual({ titled: `nul\ufffd ${'🚀'.repeat(SESSION_TITLE_LENGTH - 5)}`, untitled: null });
  });

  it('shows a second connection what the first appended once it has moved from the journal into the database', async () => {
    const path = join(dir, 'shared.db');
    const first = openSqliteStore(path);
    const second = openSqliteStore(path);
    try {
      await first.openSession('shared', 'council');
      await first.appendEvents('shared', [message('from first')]);
      await vi.waitFor(async () => expect((await second.readEvents('shared')).map((entry) => entry.event)).toStrictEqual([message('from first')]));

      await second.appendEvents('shared', [message('from second')]);
      await vi.waitFor(async () =>
        expect((await first.readEvents('shared')).map((entry) => entry.event)).toStrictEqual([message('from first'), message('from second')]),
      );
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('takes the session\'s claim at its first append, in one transaction that reads its last seq', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'claim-path.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      await store.openSession('s', 'council');
      executed.length = 0;

      expect(await store.appendEvents('s', [message('a')])).toBe(1);

      expect(executed.map((sql) => sql.split(' ').slice(0, 3).join(' '))).toStrictEqual([
        'BEGIN IMMEDIATE',
        'SELECT writer, wanted_by',
        'INSERT INTO session_claims',
        'SELECT coalesce((SELECT seq',
        'COMMIT',
      ]);
    } finally {
      await store.close();
    }
  });

  it('takes the claims of sessions first appended to in one turn of the event loop in one transaction', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'claims-batch.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      const sessions = ['a', 'b', 'c', 'd'];
      for (const id of sessions) await store.openSession(id, 'council');
      executed.length = 0;

      // Two from this task, two from the loop's check phase: as concurrent requests arrive.
      const appended = [store.appendEvents('a', [message('a')]), store.appendEvents('b', [message('b'), message('b')])];
      const later = await new Promise<Promise<number>[]>((resolve) => setImmediate(() => resolve([store.appendEvents('c', [message('c')]), store.appendEvents('d', [message('d')])])));

      expect(await Promise.all([...appended, ...later])).toStrictEqual([1, 2, 1, 1]);
      expect(executed.filter((sql) => sql.startsWith('BEGIN')).length).toBeLessThanOrEqual(2);
      expect(executed.filter((sql) => sql.startsWith('INSERT INTO session_claims'))).toHaveLength(4);
      for (const id of sessions) expect((await store.readEvents(id)).map(({ seq }) => seq)).toStrictEqual(id === 'b' ? [1, 2] : [1]);
    } finally {
      await store.close();
    }
  });

  it('clears the notes of a session that has none with a read alone, taking no write lock', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'clear-no-notes.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      await store.openSession('s', 'council');
      executed.length = 0;

      await store.notes.clear('s');

      expect(executed.map((sql) => sql.split(' ').slice(0, 2).join(' '))).toStrictEqual(['SELECT 1']);
    } finally {
      await store.close();
    }
  });

  it('commits the ledger rows recorded together in one transaction', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'usage-batch.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      executed.length = 0;

      await Promise.all([store.recordUsage([usageRow('council', { turnId: 'a' })]), store.recordUsage([usageRow('council', { turnId: 'b' }), usageRow('council', { turnId: 'c' })])]);

      expect(executed.filter((sql) => sql.startsWith('BEGIN'))).toHaveLength(1);
      expect((await store.queryUsage()).map(({ turnId }) => turnId)).toStrictEqual(['a', 'b', 'c']);
    } finally {
      await store.close();
    }
  });

  it('commits ledger rows on its write thread once that is up, running none of it on the appending connection', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'usage-thread.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      await store.openSession('s', 'council');
      let recorded = 0;
      // The first commits may run on the appending connection while the thread starts (~50 ms).
      await vi.waitFor(
        async () => {
          executed.length = 0;
          await store.recordUsage([usageRow('council', { turnId: `t${recorded++}` })]);
          expect(executed.filter((sql) => sql.startsWith('INSERT INTO usage_ledger') || sql.startsWith('BEGIN'))).toStrictEqual([]);
        },
        { timeout: 10_000, interval: 20 },
      );

      expect((await store.queryUsage()).map(({ turnId }) => turnId)).toStrictEqual(Array.from({ length: recorded }, (_, i) => `t${i}`));
    } finally {
      await store.close();
    }
  });

  it('writes the ledger rows still waiting for their commit when it closes', async () => {
    const path = join(dir, 'usage-at-close.db');
    const store = openSqliteStore(path);
    const recorded = store.recordUsage([usageRow('council')]);
    await store.close();
    await recorded;

    const reopened = openSqliteStore(path);
    try {
      expect(await reopened.queryUsage()).toStrictEqual([usageRow('council')]);
    } finally {
      await reopened.close();
    }
  });

  it('appends to a session it holds the claim of by writing the journal, running no SQL at all', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'append-path.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      await store.openSession('s', 'council');
      await store.appendEvents('s', [message('claims the session')]);
      executed.length = 0;

      expect(await Promise.all([store.appendEvents('s', [message('a')]), store.appendEvents('s', [message('b'), message('c')])])).toEqual([2, 4]);

      expect(executed).toStrictEqual([]);
    } finally {
      await store.close();
    }
  });

  it('keeps at most 10,000 settled sessions in memory, and reads a forgotten one again to append to it in order', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'many-sessions.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      await store.openSession('first', 'council', { isNew: true });
      await store.appendEvents('first', [message('a')]);
      await store.listSessions({ limit: 1 });
      for (let i = 0; i < 10_000; i++) await store.openSession(`later-${i}`, 'council', { isNew: true });
      executed.length = 0;

      const seq = await store.appendEvents('first', [message('b')]);

      expect(executed.filter((sql) => sql.includes("WHERE s.id = 'first'"))).toHaveLength(1);
      expect(seq).toBe(2);
      expect((await store.readEvents('first')).map(({ event }) => (event as { text: string }).text)).toStrictEqual(['a', 'b']);
    } finally {
      await store.close();
    }
  });

  it('opens a session the caller says is new without reading the database', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'new-session.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      executed.length = 0;

      const opened = await store.openSession('minted', 'council', { isNew: true });

      expect(executed).toStrictEqual([]);
      expect(opened).toMatchObject({ id: 'minted', syndicate: 'council', eventCount: 0 });
    } finally {
      await store.close();
    }
  });

  it('keeps a new session whether or not events followed it, across a reopen', async () => {
    const path = join(dir, 'new-sessions-kept.db');
    const store = openSqliteStore(path);
    await store.openSession('with-events', 'council', { isNew: true });
    await store.appendEvents('with-events', [message('a'), message('b')]);
    await store.openSession('empty', 'council', { isNew: true });
    await store.close();

    const reopened = openSqliteStore(path);
    try {
      expect((await reopened.listSessions()).map(({ id, eventCount }) => ({ id, eventCount })).sort((a, b) => a.id.localeCompare(b.id))).toStrictEqual([
        { id: 'empty', eventCount: 0 },
        { id: 'with-events', eventCount: 2 },
      ]);
    } finally {
      await reopened.close();
    }
  });

  it('creates a session in the journal, with no commit, and shows it to other connections once moved into the database', async () => {
    const path = join(dir, 'journaled-session.db');
    const executed: string[] = [];
    const store = openSqliteStore(path, { onStatement: (sql) => executed.push(sql) });
    const other = openSqliteStore(path);
    executed.length = 0;
    try {
      const created = await store.openSession('new', 'council');

      expect(executed.filter((sql) => /^(BEGIN|INSERT|COMMIT)/.test(sql))).toStrictEqual([]);
      expect(await store.getSession('new')).toStrictEqual(created);
      await vi.waitFor(async () => expect(await other.getSession('new')).toStrictEqual(created));
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('moves journaled events into the database with one INSERT for all of them in one commit, rewriting nothing', async () => {
    const path = join(dir, 'ingest-path.db');
    const executed: string[] = [];
    const store = openSqliteStore(path, { onStatement: (sql) => executed.push(sql) });
    const raw = rawConnection(path);
    try {
      await store.openSession('long', 'council');
      for (let batch = 0; batch < 100; batch += 1) {
        await store.appendEvents('long', Array.from({ length: 10 }, (_, index) => message(`${batch}.${index}`)));
      }
      await store.readEvents('long', { limit: 1 });
      await store.appendEvents('long', [message('a'), message('b')]);
      await store.appendEvents('long', [message('c')]);
      executed.length = 0;

      await store.readEvents('long', { limit: 1 });

      const ingest = executed.slice(0, executed.indexOf('COMMIT') + 1);
      expect(ingest.map((sql) => sql.split('\n')[0]!.split(' (')[0]!.split(',')[0])).toStrictEqual([
        'BEGIN IMMEDIATE',
        'INSERT INTO sessions',
        'INSERT INTO events',
        // The A2A task states journaled with them (none here).
        'INSERT INTO a2a_tasks',
        'INSERT INTO journals_ingested',
        // The journal before this one, deleted once its batches were in.
        "DELETE FROM journals_ingested WHERE name = '" + ingest[5]!.split("'")[1] + "'",
        'SELECT json_group_object(s.id',
        "SELECT json_group_array(DISTINCT line.value->'task'->>'id') AS refusedTasks",
        // The session claims another process waits for, to hand them over.
        expect.stringMatching(/^SELECT json_group_array\(session\) AS wanted FROM session_claims WHERE writer = '[0-9a-f]{16}' AND wanted_by IS NOT NULL$/),
        'COMMIT',
      ]);
      // The statements' cost does not grow with the session: they scan only the batches being
      // moved (with json_each, and as `batch`, the events statement's materialized list of them),
      // and each read of events walks its index in seq order and stops at the first
      // (last-appended) entry.
      expect(ingest[2]).toMatch(/ORDER BY seq DESC LIMIT 1\)/);
      // Read once per batch, not once per event (which made one large batch quadratic: ingestJob.ts).
      expect(raw.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${ingest[2]}`).all().map((step) => step.detail)).toContain('MATERIALIZE batch');
      for (const sql of ingest.slice(1, -1)) {
        const plan = raw.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all();
        for (const step of plan) expect(step.detail).not.toMatch(/^SCAN (?!\w+ VIRTUAL TABLE|\(subquery|batch$)/);
      }
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('moves journaled events into the database on its write thread once that is up, for appends and reads alike, running none of it on the appending connection', async () => {
    const path = join(dir, 'write-thread.db');
    const executed: string[] = [];
    const store = openSqliteStore(path, { onStatement: (sql) => executed.push(sql) });
    const raw = rawConnection(path);
    const stored = (): unknown => raw.prepare('SELECT count(*) AS n FROM events').get();
    // The appending connection takes and gives up the session's claim (a small commit each), nothing more.
    const ingestedHere = (): string[] => executed.filter((sql) => /^(INSERT|UPDATE|DELETE)/.test(sql) && !sql.includes('session_claims'));
    try {
      await store.openSession('s', 'council');
      let appended = 0;
      // The first moves may run on the appending connection while the thread starts (~50 ms).
      await vi.waitFor(
        async () => {
          executed.length = 0;
          for (let batch = 0; batch < 150; batch += 1) await store.appendEvents('s', Array.from({ length: 10 }, (_, index) => message(`${batch}.${index}`)));
          appended += 1_500;
          await vi.waitFor(() => expect(stored()).toStrictEqual({ n: appended }), { timeout: 5_000, interval: 10 });
          expect(ingestedHere()).toStrictEqual([]);
        },
        { timeout: 10_000, interval: 50 },
      );

      // A read that must see every event waits for the thread too.
      await store.appendEvents('s', [message('last')]);
      expect((await store.readEvents('s', { afterSeq: appended })).map((entry) => entry.event)).toStrictEqual([message('last')]);
      expect(ingestedHere()).toStrictEqual([]);
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('keeps every event, in order, when appends go on while earlier batches are being moved into the database', async () => {
    const store = openSqliteStore(join(dir, 'appends-during-ingest.db'));
    try {
      await store.openSession('s', 'council');
      const texts: string[] = [];
      for (let batch = 0; batch < 500; batch += 1) {
        const events = Array.from({ length: 7 }, (_, index) => message(`${batch}.${index}`));
        texts.push(...events.map((event) => (event as { text: string }).text));
        await store.appendEvents('s', events);
        // Lets the write thread's replies land between appends.
        if (batch % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }

      const stored = await store.readEvents('s');

      expect(stored.map((entry) => entry.seq)).toStrictEqual(texts.map((_, index) => index + 1));
      expect(stored.map((entry) => (entry.event as { text: string }).text)).toStrictEqual(texts);
      expect((await store.openSession('s', 'council')).eventCount).toBe(texts.length);
    } finally {
      await store.close();
    }
  });

  it('returns a final seq to a store appending after another appended to the same session: it waits for the other\'s claim', async () => {
    const path = join(dir, 'renumbered.db');
    const first = openSqliteStore(path);
    const second = openSqliteStore(path);
    try {
      await first.openSession('s', 'council');
      await second.openSession('s', 'council');
      expect(await first.appendEvents('s', [message('first 1'), message('first 2')])).toBe(2);
      expect(await second.appendEvents('s', [message('second 1')])).toBe(3);

      await first.readEvents('s');
      await second.readEvents('s');

      expect((await first.readEvents('s')).map((entry) => [entry.seq, entry.event])).toStrictEqual([
        [1, message('first 1')],
        [2, message('first 2')],
        [3, message('second 1')],
      ]);
      expect((await second.openSession('s', 'council')).eventCount).toBe(3);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('returns each batch the seq its last event is stored at while another store appends to the same session', async () => {
    const path = join(dir, 'final-seqs.db');
    const stores = [openSqliteStore(path), openSqliteStore(path)];
    try {
      await stores[0]!.openSession('shared', 'council');
      await stores[1]!.openSession('shared', 'council');
      const returned = new Map<string, number>();
      const appender = async (store: Store, name: string) => {
        for (let batch = 0; batch < 10; batch++) {
          returned.set(`${name}.${batch}.2`, await store.appendEvents('shared', [0, 1, 2].map((index) => message(`${name}.${batch}.${index}`))));
        }
      };

      await Promise.all(stores.flatMap((store, s) => [0, 1].map((a) => appender(store, `s${s}a${a}`))));
      // Each store's reads move its own journaled batches in first.
      await stores[1]!.readEvents('shared');

      const stored = new Map((await stores[0]!.readEvents('shared')).map((entry) => [(entry.event as { text: string }).text, entry.seq]));
      expect(returned.size).toBe(40);
      expect([...returned].filter(([last, seq]) => stored.get(last) !== seq)).toStrictEqual([]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('replays the journals a closed writer left behind, skipping a generation the database already holds', async () => {
    const path = join(dir, 'replay.db');
    await openSqliteStore(path).close();
    const writer = '0123456789abcdef';
    const batch = (generation: number, seq: number, text: string): string =>
      `{"journal":1,"generation":${generation}}\n{"session":"s","syndicate":"council","seq":${seq},"appendedAt":5,"events":[${JSON.stringify(message(text))}]}\n`;
    writeFileSync(join(journalDir(path), `${writer}.1.journal`), batch(1, 1, 'already ingested'));
    writeFileSync(join(journalDir(path), `${writer}.2.journal`), `${batch(2, 2, 'not yet ingested')}{"session":"s","seq":3,"ev`);
    const raw = new Database(path);
    raw.prepare('INSERT INTO journals_ingested (name, generation) VALUES (?, 1)').run(`${writer}.1`);
    raw.close();

    const store = openSqliteStore(path);
    try {
      expect((await store.readEvents('s')).map((entry) => entry.event)).toStrictEqual([message('not yet ingested')]);
      expect(readdirSync(journalDir(path)).filter((file) => file.startsWith(writer))).toStrictEqual([]);
    } finally {
      await store.close();
    }
  });

  it('refuses to open beside a journal in the older PID-named format, naming the file and what to do', async () => {
    const path = join(dir, 'legacy-journal.db');
    await openSqliteStore(path).close();
    writeFileSync(join(journalDir(path), '4242-aaaaaa.journal'), '{"journal":1,"generation":1}\n');

    expect(() => openSqliteStore(path)).toThrow(/4242-aaaaaa\.journal is a journal written by an older syndicate: open the store once with that version/);
  });

  it('leaves no journal file behind when closed', async () => {
    const path = join(dir, 'closed.db');
    const store = openSqliteStore(path);
    await store.openSession('s', 'council');
    await store.appendEvents('s', [message('kept')]);

    await store.close();

    expect(readdirSync(journalDir(path))).toStrictEqual([]);
    const reopened = openSqliteStore(path);
    try {
      expect((await reopened.readEvents('s')).map((entry) => entry.event)).toStrictEqual([message('kept')]);
    } finally {
      await reopened.close();
    }
  });

  it('rejects an append made after close, to a session it has not read, naming the cause', async () => {
    const path = join(dir, 'append-after-close.db');
    const setup = openSqliteStore(path);
    await setup.openSession('elsewhere', 'council');
    await setup.close();
    const store = openSqliteStore(path);
    await store.close();

    await expect(store.appendEvents('elsewhere', [message('late')])).rejects.toThrow(/store is closed/);
  });

  it('fails only the bad batch of a shared commit', async () => {
    const store = openSqliteStore(join(dir, 'group-failure.db'));
    try {
      await store.openSession('a', 'council');

      const outcomes = await Promise.allSettled([store.appendEvents('a', [message('kept')]), store.appendEvents('never-opened', [message('lost')])]);

      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
      expect((await store.readEvents('a')).map((entry) => entry.event)).toStrictEqual([message('kept')]);
    } finally {
      await store.close();
    }
  });

  it('opens an existing session without taking the write lock', async () => {
    const path = join(dir, 'open-while-locked.db');
    const store = openSqliteStore(path);
    const writer = new Database(path);
    try {
      const opened = await store.openSession('existing', 'council');
      writer.exec('BEGIN IMMEDIATE');
      const started = Date.now();
      // A write transaction would wait out the 5 s busy timeout, then fail.
      expect(await store.openSession('existing', 'council')).toStrictEqual(opened);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      writer.close();
      await store.close();
    }
  });

  it('checkpoints the WAL into the database file off the appending thread', async () => {
    const path = join(dir, 'checkpointed.db');
    const store = openSqliteStore(path);
    try {
      await store.openSession('s', 'council');
      const before = statSync(path).size;
      // Fewer pages than the writer's own automatic checkpoint waits for, so only the worker
      // can have moved them into the database file.
      for (let batch = 0; batch < 300; batch += 1) await store.appendEvents('s', [message(`${batch}.0`), message(`${batch}.1`), message(`${batch}.2`), message(`${batch}.3`)]);
      await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before), { timeout: 10_000, interval: 20 });
    } finally {
      await store.close();
    }
  });

  it('keeps the WAL bounded while appends never pause', async () => {
    const path = join(dir, 'bounded-wal.db');
    const store = openSqliteStore(path);
    try {
      await store.openSession('s', 'council');
      // ~24,000 WAL pages: six times the writer's backstop of 4,000.
      for (let batch = 0; batch < 8_000; batch += 1) {
        await store.appendEvents('s', [message(`${batch}.0`), message(`${batch}.1`), message(`${batch}.2`)]);
      }
      expect(statSync(`${path}-wal`).size).toBeLessThan(24 * 1024 * 1024);
    } finally {
      await store.close();
    }
  });
});

/** The pid of a process that has exited: no live process owns it (until the OS reuses it). */
function exitedPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}

const childScript = fileURLToPath(new URL('./fixtures/append-until-killed.mjs', import.meta.url));
const compiledStore = fileURLToPath(new URL('../../dist/store/sqlite/index.js', import.meta.url));

/**
 * Runs the child until it has reported `killAfter` committed batches, then SIGKILLs it after
 * `delayMs`; resolves to the last batch number the child reported as committed. Killing the
 * moment a report arrives would hit the child right after its print, between batches; the delay
 * lets it run on so the kill lands anywhere, mid-batch included.
 */
function appendUntilKilled(dbPath: string, sessionId: string, killAfter: number, delayMs: number, label = 'batch'): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, dbPath, sessionId, label], { stdio: ['ignore', 'pipe', 'pipe'] });
    // A test that times out must not leave the child appending forever (it outlives the worker).
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    let reported = 0;
    let killScheduled = false;
    let pending = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) reported = Number(line);
      if (reported >= killAfter && !killScheduled) {
        killScheduled = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(reported);
      else reject(new Error(`child exited on its own (code ${code}): ${stderr}`));
    });
  });
}

/** Event count per batch (turnId), in the order the batches were stored. */
async function batchSizes(store: Store, sessionId: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const { event } of await store.readEvents(sessionId)) sizes.set(event.turnId, (sizes.get(event.turnId) ?? 0) + 1);
  return sizes;
}

/** Resolves once the child has printed `line`. */
function printed(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.split('\n').includes(line)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited (code ${code}) before printing ${line}`)));
  });
}

/**
 * Takes the write lock while `writer` keeps committing: its write thread leaves gaps too short for
 * a busy handler's sleeps to hit when the machine is loaded, so the writer is frozen for each try.
 */
async function lockWhileWriterCommits(db: Database.Database, writer: ChildProcess): Promise<void> {
  db.pragma('busy_timeout = 0');
  for (;;) {
    writer.kill('SIGSTOP');
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    } finally {
      writer.kill('SIGCONT');
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves once `condition` holds, checking every 20 ms; the test's own timeout bounds the wait. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

// These tests start, kill and reopen writer processes: on a loaded CI machine a spawn alone can take seconds.
describe('SQLite store durability', { timeout: 120_000 }, () => {
  beforeAll(() => {
    if (!existsSync(compiledStore)) {
      throw new Error(`${compiledStore} is missing: the crash test runs the compiled store; build first (npx tsc -p tsconfig.build.json)`);
    }
  });

  it('finishes close() before the process ends on its own, while a write job is on the write thread', async () => {
    const path = join(dir, 'exit.db');
    const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/append-then-close.mjs', import.meta.url)), path, 'exit']);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise((resolve) => child.on('exit', resolve));

    expect(output).toBe('closed\n');
    expect(readdirSync(journalDir(path))).toStrictEqual([]);
    const store = openSqliteStore(path);
    try {
      expect((await store.getSession('exit'))!.eventCount).toBe((400 + 334) * 3);
    } finally {
      await store.close();
    }
  });

  it('lets a process that never closes its store end on its own, losing nothing', async () => {
    const path = join(dir, 'left-open.db');
    const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/append-and-leave-open.mjs', import.meta.url)), path, 'open']);
    const ended = new Promise((resolve) => child.on('exit', resolve));
    // A process kept alive by the store would still be running long after its last line.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await ended;
    clearTimeout(timer);

    expect(code).toBe(0);
    const store = openSqliteStore(path);
    try {
      expect((await store.getSession('open'))!.eventCount).toBe(2 * 400 * 3);
    } finally {
      await store.close();
    }
  });

  it('keeps every committed batch, and no partial batch, when the writing process is SIGKILLed', async () => {
    const path = join(dir, 'crash.db');
    // Several kills at random points raise the odds that one lands inside a transaction. Each
    // round after the first also opens a database whose WAL a killed writer left behind.
    const reportedPerRound: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const killAfter = 100 + Math.floor(Math.random() * 200);
      reportedPerRound.push(await appendUntilKilled(path, `crash-${round}`, killAfter, Math.random() * 3));
    }

    const raw = rawConnection(path);
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      raw.close();
    }

    const store = openSqliteStore(path);
    try {
      for (const [round, reported] of reportedPerRound.entries()) {
        const sizes = await batchSizes(store, `crash-${round}`);
        expect([...sizes].filter(([, size]) => size !== 3), 'partial batches').toStrictEqual([]);
        // The child may have committed batches it did not live to report; those must be whole too.
        expect(sizes.size).toBeGreaterThanOrEqual(reported);
        expect([...sizes.keys()]).toStrictEqual(Array.from({ length: sizes.size }, (_, index) => `batch-${index + 1}`));
        expect((await store.getSession(`crash-${round}`))!.eventCount).toBe(3 * sizes.size);
      }
    } finally {
      await store.close();
    }
  });

  it('takes over the session a killed writer held once its journal is replayed, and returns the final seq', async () => {
    const path = join(dir, 'taken-over.db');
    const setup = openSqliteStore(path);
    await setup.openSession('held', 'council');
    await setup.close();
    // Open while the writer lives, so its journal is left to it, and replayed only when the claim is taken over.
    const store = openSqliteStore(path);
    try {
      const reported = await appendUntilKilled(path, 'held', 50, 0);
      await store.openSession('held', 'council');

      const seq = await store.appendEvents('held', [message('after the kill', 'after')]);

      const stored = await store.readEvents('held');
      expect(stored.at(-1)).toStrictEqual({ seq, sessionId: 'held', event: message('after the kill', 'after') });
      expect(stored.map((entry) => entry.seq)).toStrictEqual(Array.from({ length: stored.length }, (_, index) => index + 1));
      expect(stored.length).toBeGreaterThanOrEqual(3 * reported + 1);
    } finally {
      await store.close();
    }
  });

  it('leaves a live writer its journal even when the PID in its process is not alive here', async () => {
    const path = join(dir, 'live-writer.db');
    const release = join(dir, 'live-writer.release');
    const fixture = fileURLToPath(new URL('./fixtures/append-while-another-replays.mjs', import.meta.url));
    const child = spawn(process.execPath, [fixture, path, 'owned', String(await exitedPid()), release]);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await printed(child, 'appended');

    // Opening a store replays the journals of writers that are gone.
    await openSqliteStore(path).close();
    writeFileSync(release, '');
    await exited;

    const store = openSqliteStore(path);
    try {
      expect((await store.readEvents('owned')).map(({ seq, event }) => [seq, event.turnId])).toStrictEqual([1, 2, 3, 4, 5].map((n) => [n, `batch-${n}`]));
    } finally {
      await store.close();
    }
  });

  it('replays the journals of a killed writer in the order it wrote them', async () => {
    const path = join(dir, 'killed-order.db');
    await openSqliteStore(path).close();
    const blocker = new Database(path);
    const child = spawn(process.execPath, [childScript, path, 'ordered', 'batch'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const killed = new Promise((resolve) => child.on('exit', resolve));
    try {
      // Once the writer is up, the database is locked: its batches stay journaled, one journal per
      // attempt to move them, until it is killed with several journals left.
      await printed(child, '100');
      await lockWhileWriterCommits(blocker, child);
      await until(() => readdirSync(journalDir(path)).filter((file) => file.endsWith('.journal')).length >= 3);
    } finally {
      child.kill('SIGKILL');
    }
    await killed;
    const left = readdirSync(journalDir(path)).filter((file) => file.endsWith('.journal'));
    blocker.exec('ROLLBACK');
    blocker.close();

    const store = openSqliteStore(path);
    try {
      expect(left.length).toBeGreaterThanOrEqual(3);
      const stored = await store.readEvents('ordered');
      const batches = [...new Set(stored.map(({ event }) => event.turnId))];
      expect(batches).toStrictEqual(batches.map((_, index) => `batch-${index + 1}`));
      expect(stored.map(({ seq }) => seq)).toStrictEqual(stored.map((_, index) => index + 1));
    } finally {
      await store.close();
    }
  });

  it('numbers events 1, 2, 3... with every batch whole and contiguous when two processes append to one session', async () => {
    const path = join(dir, 'two-writers.db');
    const setup = openSqliteStore(path);
    await setup.openSession('shared', 'council');
    await setup.close();

    await Promise.all(['a', 'b'].map((label) => appendUntilKilled(path, 'shared', 150, Math.random() * 3, label)));

    const store = openSqliteStore(path);
    try {
      const stored = await store.readEvents('shared');
      expect(stored.map((entry) => entry.seq)).toStrictEqual(Array.from({ length: stored.length }, (_, index) => index + 1));
      expect((await store.getSession('shared'))!.eventCount).toBe(stored.length);
      const runs: { turnId: string; size: number }[] = [];
      for (const { event } of stored) {
        const last = runs[runs.length - 1];
        if (last?.turnId === event.turnId) last.size += 1;
        else runs.push({ turnId: event.turnId, size: 1 });
      }
      expect(runs.filter((run) => run.size !== 3), 'split or partial batches').toStrictEqual([]);
      for (const label of ['a', 'b']) {
        const mine = runs.filter((run) => run.turnId.startsWith(`${label}-`)).map((run) => run.turnId);
        expect(mine.length).toBeGreaterThanOrEqual(150);
        expect(mine).toStrictEqual(Array.from({ length: mine.length }, (_, index) => `${label}-${index + 1}`));
      }
    } finally {
      await store.close();
    }
  });
});
