import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { TurnEvent } from '../../src/core/events.js';
import { createDb, poolConfig } from '../../src/store/postgres/connection.js';
import { migrate, openPostgresStore, schemaStatus, SCHEMA_VERSION } from '../../src/store/postgres/index.js';
import { SESSION_TITLE_LENGTH } from '../../src/store/sessionTitle.js';
import type { Store, StoredEvent } from '../../src/store/store.js';
import { POSTGRES_TESTS, usePostgresCluster } from './postgresCluster.js';

// What the PostgreSQL store promises beyond the conformance suites: schema migrations, the errors
// at open, seqs under concurrent writers (in one process and in several), and dropped connections.

function message(text: string, agent = 'orchestrator'): TurnEvent {
  return { type: 'message', text, turnId: 't', agent, at: 1, depth: 0 };
}

function turnStart(input: string): TurnEvent {
  return { type: 'turn-start', syndicate: 'council', input, turnId: 't', agent: 'orchestrator', at: 1, depth: 0 };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Polls until the store's backend is waiting on a lock, and returns its pid. */
async function waitingBackend(admin: pg.Client): Promise<number> {
  for (;;) {
    const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = 'syndicate' AND wait_event_type = 'Lock'`);
    if (rows[0] !== undefined) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every batch is three events named writer.lane.batch.index: checks seqs run 1..n, batches whole, lanes in order. */
function expectWholeOrderedBatches(events: readonly StoredEvent[], batchCount: number): void {
  expect(events.map((entry) => entry.seq)).toEqual(Array.from({ length: batchCount * 3 }, (_, i) => i + 1));
  const names = events.map((entry) => (entry.event as { text: string }).text.split('.'));
  const lastBatchOfLane = new Map<string, number>();
  for (let i = 0; i < names.length; i += 3) {
    const [writer, lane, batch] = names[i]!;
    expect(names.slice(i, i + 3)).toEqual([0, 1, 2].map((index) => [writer, lane, batch, String(index)]));
    const key = `${writer}.${lane}`;
    expect(Number(batch)).toBeGreaterThan(lastBatchOfLane.get(key) ?? -1);
    lastBatchOfLane.set(key, Number(batch));
  }
}

describe.runIf(POSTGRES_TESTS)('PostgreSQL store', () => {
  const cluster = usePostgresCluster();
  const opened: Store[] = [];
  const open = async (url: string, options?: Parameters<typeof openPostgresStore>[1]): Promise<Store> => {
    const store = await openPostgresStore(url, options);
    opened.push(store);
    return store;
  };
  const closeAll = () => Promise.all(opened.splice(0).map((store) => store.close()));

  describe('schema', () => {
    it('brings a new database to the latest schema version, with pgvector created', async () => {
      const url = await cluster().createDatabase();

      expect(await migrate(url)).toEqual({ from: 0, to: SCHEMA_VERSION });

      expect(await schemaStatus(url)).toMatchObject({ version: SCHEMA_VERSION, latest: SCHEMA_VERSION, pgvector: '0.8.0' });
    });

    it('migrates once when two processes start on a new database together: the second waits, then finds nothing to do', async () => {
      const url = await cluster().createDatabase();

      const results = await Promise.all([migrate(url), migrate(url)]);

      expect(results.map((result) => result.from).sort()).toEqual([0, SCHEMA_VERSION]);
      const applied = await withClient(url, (client) => client.query<{ version: number }>('SELECT version FROM syndicate_schema ORDER BY version'));
      expect(applied.rows.map((row) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    });

    it('refuses a database created by a newer syndicate, naming its schema version', async () => {
      const url = await cluster().createDatabase();
      await migrate(url);
      await withClient(url, (client) => client.query('INSERT INTO syndicate_schema (version, applied_at) VALUES ($1, 0)', [SCHEMA_VERSION + 1]));

      await expect(openPostgresStore(url)).rejects.toThrow(new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this build of syndicate supports \\(${SCHEMA_VERSION}\\).*upgrade syndicate`));
    });

    it('keeps no pending list on the full-text index of facts, so a search never reads through one', async () => {
      const url = await cluster().createDatabase();
      await migrate(url);

      const { rows } = await withClient(url, (client) => client.query<{ options: string[] }>(`SELECT reloptions AS options FROM pg_class WHERE relname = 'facts_search'`));
      expect(rows[0]!.options).toContain('fastupdate=off');
    });

    it('replaces the full-precision HNSW index of a database from schema version 7 with a half-precision one, which searches use', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      await store.facts.insertFact('council--local', { text: 'the office is in Rome', tag: 'FACT', date: null, source: 'user', keys: ['office'], provenance: null, embedding: new Float32Array([1, 0, 0]), embeddingModel: 'm' });
      await withClient(url, (client) =>
        client.query(`DROP INDEX facts_hnsw_half_3; CREATE INDEX facts_hnsw_3 ON facts USING hnsw ((embedding::vector(3)) vector_cosine_ops) WHERE dimensions = 3;
          DROP TABLE background_reports, background_pieces, background_jobs, dream_runs, sign_in_tokens, sign_ins, api_keys, users, task_runs, scheduled_tasks;
          ALTER TABLE sessions DROP COLUMN title;
          DELETE FROM syndicate_schema WHERE version > 7`),
      );

      expect(await migrate(url)).toEqual({ from: 7, to: SCHEMA_VERSION });

      const indexes = await withClient(url, (client) => client.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE indexname LIKE 'facts_hnsw%'`));
      expect(indexes.rows.map((row) => row.indexname)).toEqual(['facts_hnsw_half_3']);
      const plan = await withClient(url, async (client) => {
        await client.query('SET enable_seqscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT number FROM facts WHERE dimensions = 3 ORDER BY l2_normalize(embedding::vector(3))::halfvec(3) <=> l2_normalize('[0,1,0]'::vector(3))::halfvec(3) LIMIT 5`,
        );
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('facts_hnsw_half_3');
      const [hit] = await store.facts.searchVectors('council--local', { embedding: new Float32Array([1, 0.1, 0]), embeddingModel: 'm', limit: 1 });
      expect(hit?.fact.text).toBe('the office is in Rome');
      await closeAll();
    });

    it("titles the sessions of a database from before titles by their first turn's input", async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      await store.openSession('titled', 'council');
      await store.appendEvents('titled', [turnStart(`nul\u0000 lone\ud800 ${'🚀'.repeat(SESSION_TITLE_LENGTH)}`), message('an answer')]);
      await store.openSession('untitled', 'council');
      await store.appendEvents('untitled', [message('no turn started'), turnStart('too late')]);
      await closeAll();
      // Schema version 14: the last before titles.
      await withClient(url, (client) => client.query('ALTER TABLE sessions DROP COLUMN title; DELETE FROM syndicate_schema WHERE version > 14'));

      expect(await migrate(url)).toEqual({ from: 14, to: SCHEMA_VERSION });

      const titles = Object.fromEntries((await (await open(url)).listSessions()).map((session) => [session.id, session.title]));
      expect(titles).toStrictEqual({ titled: `nul\ufffd lone\ufffd ${'🚀'.repeat(SESSION_TITLE_LENGTH - 11)}`, untitled: null });
      await closeAll();
    });

    it('names the missing privilege and the fix when the user may not create the pgvector extension', async () => {
      const url = await cluster().createDatabase();
      await withClient(url, (client) => client.query(`CREATE ROLE app LOGIN; GRANT CREATE ON SCHEMA public TO app`));
      const asApp = url.replace('postgres@', 'app@');

      await expect(openPostgresStore(asApp)).rejects.toThrow(/pgvector is installed .* user "app" may not create the extension .*CREATE EXTENSION vector/);
    });
  });

  describe('opening', () => {
    it('fails at open naming the host, the port and the fix when nothing listens there', async () => {
      const { port } = cluster();
      const url = `postgres://postgres@127.0.0.1:${port + 1}/postgres`;

      await expect(openPostgresStore(url, { connectTimeoutMs: 2_000 })).rejects.toThrow(
        new RegExp(`cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port + 1} \\(database "postgres", user "postgres"\\): .*ECONNREFUSED.*start the server`),
      );
    });

    it('fails at open with the server’s own message and the fix for a database that does not exist', async () => {
      const url = `postgres://postgres@127.0.0.1:${cluster().port}/nowhere`;

      await expect(openPostgresStore(url)).rejects.toThrow(/database "nowhere" does not exist; create the database first \(createdb nowhere\)/);
    });
  });

  describe('appends', () => {
    it('gives concurrent appenders of two stores to one session gapless seqs, each batch whole and each appender’s batches in order', async () => {
      const url = await cluster().createDatabase();
      const stores = [await open(url, { poolSize: 4 }), await open(url, { poolSize: 4 })];
      await stores[0]!.openSession('shared', 'council');
      const appender = async (store: Store, name: string, batches: number) => {
        for (let batch = 0; batch < batches; batch++) {
          await store.appendEvents('shared', [0, 1, 2].map((index) => message(`${name}.0.${batch}.${index}`)));
        }
      };

      await Promise.all(stores.flatMap((store, s) => [0, 1, 2, 3].map((a) => appender(store, `s${s}a${a}`, 10))));

      expectWholeOrderedBatches(await stores[0]!.readEvents('shared'), 80);
      expect((await stores[1]!.getSession('shared'))!.eventCount).toBe(240);
      await closeAll();
    });

    it('creates a session once when appenders of two stores open it with their first batches at once, giving them gapless seqs, each batch whole', async () => {
      const url = await cluster().createDatabase();
      const stores = [await open(url, { poolSize: 4 }), await open(url, { poolSize: 4 })];
      const appender = async (store: Store, name: string) => {
        for (let batch = 0; batch < 10; batch++) {
          await store.appendEvents('opened-at-once', [0, 1, 2].map((index) => message(`${name}.0.${batch}.${index}`)), { openFor: 'council' });
        }
      };

      await Promise.all(stores.flatMap((store, s) => [0, 1, 2, 3].map((a) => appender(store, `s${s}a${a}`))));

      expectWholeOrderedBatches(await stores[0]!.readEvents('opened-at-once'), 80);
      const sessions = await withClient(url, (client) => client.query<{ count: number }>(`SELECT count(*)::int AS count FROM sessions WHERE id = 'opened-at-once'`));
      expect(sessions.rows[0]!.count).toBe(1);
      await closeAll();
    });

    it('returns for each batch the seq its last event is stored at, while another store appends to the session: a returned seq is final', async () => {
      const url = await cluster().createDatabase();
      const stores = [await open(url, { poolSize: 4 }), await open(url, { poolSize: 4 })];
      await stores[0]!.openSession('shared', 'council');
      const returned = new Map<string, number>();
      const appender = async (store: Store, name: string) => {
        for (let batch = 0; batch < 10; batch++) {
          const last = `${name}.0.${batch}.2`;
          returned.set(last, await store.appendEvents('shared', [0, 1, 2].map((index) => message(`${name}.0.${batch}.${index}`))));
        }
      };

      await Promise.all(stores.flatMap((store, s) => [0, 1, 2].map((a) => appender(store, `s${s}a${a}`))));

      const stored = new Map((await stores[0]!.readEvents('shared')).map((entry) => [(entry.event as { text: string }).text, entry.seq]));
      expect([...returned].filter(([last, seq]) => stored.get(last) !== seq)).toEqual([]);
      expect(returned.size).toBe(60);
      await closeAll();
    });

    it('leaves no event without its session when sessions are deleted and pruned while other stores append to them', async () => {
      const url = await cluster().createDatabase();
      const [writer, deleter] = [await open(url, { poolSize: 4 }), await open(url, { poolSize: 4 })];
      const ids = Array.from({ length: 8 }, (_, i) => `doomed-${i}`);
      for (const id of ids) await writer.openSession(id, 'council');
      const appender = async (id: string) => {
        for (let batch = 0; batch < 20; batch++) {
          // An append after the delete fails (the session is gone): that is the point.
          const appended = await writer.appendEvents(id, [message(`${id}.${batch}.0`), message(`${id}.${batch}.1`)]).catch(() => undefined);
          if (appended === undefined) return;
        }
      };
      const removals = async () => {
        for (const id of ids.slice(0, 4)) await deleter.deleteSession(id);
        await deleter.pruneSessions(Date.now() + 1);
      };

      await Promise.all([...ids.map(appender), removals()]);

      const orphans = await withClient(url, (client) =>
        client.query<{ count: number }>('SELECT count(*)::int AS count FROM events WHERE session_number NOT IN (SELECT number FROM sessions)'),
      );
      expect(orphans.rows[0]!.count).toBe(0);
      await closeAll();
    });

    it('commits appends to many sessions made at once in one transaction per group: two go alone, the ones that wait meanwhile together', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      const ids = Array.from({ length: 40 }, (_, i) => `grouped-${i}`);
      for (const id of ids.slice(1)) await store.openSession(id, 'council');

      const returned = await Promise.all(
        ids.map((id, i) => store.appendEvents(id, [0, 1, 2].map((index) => message(`${id}.${index}`)), i === 0 ? { openFor: 'council' } : undefined)),
      );

      expect(returned).toEqual(ids.map(() => 3));
      for (const id of ids) expect((await store.readEvents(id)).map(({ seq, event }) => [seq, (event as { text: string }).text])).toEqual([0, 1, 2].map((index) => [index + 1, `${id}.${index}`]));
      const transactions = await withClient(url, (client) => client.query<{ count: number }>('SELECT count(DISTINCT xmin::text)::int AS count FROM events'));
      expect(transactions.rows[0]!.count).toBe(3);
      await closeAll();
    });

    it('titles each session whose first turn is appended in a group by its own first message, and keeps the title of a session that had events', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      const ids = Array.from({ length: 20 }, (_, i) => `titled-${i}`);
      for (const id of ids.slice(10)) await store.openSession(id, 'council');
      await store.appendEvents('titled-19', [turnStart('Asked first.')]);

      await Promise.all(ids.map((id) => store.appendEvents(id, [turnStart(`Opened by ${id}.`)], { openFor: 'council' })));

      const titles = new Map((await store.listSessions({ limit: 100 })).map((session) => [session.id, session.title]));
      expect(ids.map((id) => titles.get(id))).toEqual(ids.map((id) => (id === 'titled-19' ? 'Asked first.' : `Opened by ${id}.`)));
      await closeAll();
    });

    it('stores every append of two stores appending to the same sessions at once, grouped in opposite orders: each session’s seqs gapless, each batch whole and in order', async () => {
      const url = await cluster().createDatabase();
      const stores = [await open(url, { poolSize: 4 }), await open(url, { poolSize: 4 })];
      const ids = Array.from({ length: 12 }, (_, i) => `crossed-${i}`);
      for (const id of ids) await stores[0]!.openSession(id, 'council');
      const appender = async (store: Store, name: string, id: string) => {
        for (let batch = 0; batch < 10; batch++) await store.appendEvents(id, [0, 1, 2].map((index) => message(`${name}.0.${batch}.${index}`)));
      };

      await Promise.all(stores.flatMap((store, s) => (s === 0 ? ids : [...ids].reverse()).map((id) => appender(store, `s${s}`, id))));

      for (const id of ids) expectWholeOrderedBatches(await stores[1]!.readEvents(id), 20);
      await closeAll();
    });

    it('fails only the grouped append the server refuses, with the server’s message, and stores the others of its group', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      const ids = Array.from({ length: 10 }, (_, i) => `neighbour-${i}`);
      for (const id of ids) await store.openSession(id, 'council');
      // Too long for the session id's index: the server refuses to create this session.
      const refused = randomBytes(4_000).toString('hex');

      const outcomes = await Promise.allSettled([...ids, refused].map((id) => store.appendEvents(id, [message(`${id.slice(0, 20)}.0`)], { openFor: 'council' })));

      expect(outcomes.slice(0, -1)).toEqual(ids.map(() => ({ status: 'fulfilled', value: 1 })));
      expect(outcomes.at(-1)).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/index row size .* exceeds .* maximum/) as unknown } });
      expect(await store.getSession(refused)).toBeUndefined();
      await closeAll();
    });

    it('refuses only the grouped append to a session that was never opened, and stores the others of its group', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      const ids = Array.from({ length: 10 }, (_, i) => `opened-${i}`);
      for (const id of ids) await store.openSession(id, 'council');

      const outcomes = await Promise.allSettled([...ids, 'never-opened'].map((id) => store.appendEvents(id, [message(`${id}.0`)])));

      expect(outcomes.slice(0, -1)).toEqual(ids.map(() => ({ status: 'fulfilled', value: 1 })));
      expect(outcomes.at(-1)).toMatchObject({ status: 'rejected', reason: { message: "cannot append to session 'never-opened': it was not opened (call openSession first)" } });
      await closeAll();
    });

    it('gives two processes appending to one session gapless seqs, each batch whole and in each writer’s order', async () => {
      const url = await cluster().createDatabase();
      const script = fileURLToPath(new URL('./fixtures/postgres-append.mjs', import.meta.url));
      const children = ['alpha', 'beta'].map((writer) => spawn(process.execPath, [script, url, 'shared', writer, '60'], { stdio: ['pipe', 'pipe', 'inherit'] }));
      const outputs = children.map((child) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        return { child, text: () => text };
      });
      try {
        for (const { text } of outputs) while (!text().includes('ready')) await new Promise((resolve) => setTimeout(resolve, 20));
        for (const { child } of outputs) child.stdin.end('go\n');
        const codes = await Promise.all(children.map(async (child) => (await once(child, 'exit'))[0] as number));
        expect(codes).toEqual([0, 0]);

        const store = await open(url);
        expectWholeOrderedBatches(await store.readEvents('shared'), 120);
        const returned = outputs.flatMap(({ text }) => JSON.parse(text().split('\n')[1]!) as number[]);
        expect(returned.sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => (i + 1) * 3));
      } finally {
        for (const child of children) child.kill();
        await closeAll();
      }
    });
  });

  describe('connections', () => {
    it('runs again a transaction PostgreSQL aborted to break a deadlock, so both sides of the cycle commit', async () => {
      const url = await cluster().createDatabase();
      await withClient(url, (admin) => admin.query("CREATE TABLE counters (name text PRIMARY KEY, n int NOT NULL); INSERT INTO counters VALUES ('a', 0), ('b', 0)"));
      const db = createDb(url);
      // Each holds its first row until the other holds its own, then asks for the other's: a cycle.
      let held = 0;
      const bothHeld = new Promise<void>((resolve) => {
        const check = setInterval(() => held >= 2 && (clearInterval(check), resolve()), 5);
      });
      const attempts = { ab: 0, ba: 0 };
      const bump = (first: 'a' | 'b', second: 'a' | 'b', side: 'ab' | 'ba') =>
        db.transaction(async (client) => {
          attempts[side]++;
          await client.query('UPDATE counters SET n = n + 1 WHERE name = $1', [first]);
          if (attempts[side] === 1) {
            held++;
            await bothHeld;
          }
          await client.query('UPDATE counters SET n = n + 1 WHERE name = $1', [second]);
        });

      await Promise.all([bump('a', 'b', 'ab'), bump('b', 'a', 'ba')]);

      const rows = await db.read<{ name: string; n: number }>('SELECT name, n FROM counters ORDER BY name');
      expect(rows).toEqual([{ name: 'a', n: 2 }, { name: 'b', n: 2 }]);
      expect(attempts.ab + attempts.ba).toBe(3);
      await db.end();
    });

    it('answers a read after the server dropped every connection of the pool', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      await store.openSession('s', 'council');
      await store.appendEvents('s', [message('kept')]);

      await withClient(url, (admin) => admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'syndicate'`));

      expect((await store.readEvents('s')).map((entry) => entry.event)).toEqual([message('kept')]);
      await closeAll();
    });

    it('reopens the connection that listens for cancels when the server drops it, saying so, and hears cancels again', async () => {
      const url = await cluster().createDatabase();
      const [watching, requesting] = [await open(url), await open(url)];
      const heard: string[] = [];
      const errors: string[] = [];
      const watch = await watching.tasks.watchCancels(({ taskId }) => heard.push(taskId), { onError: (error) => errors.push(error.message) });

      await withClient(url, (admin) => admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'syndicate' AND query LIKE 'LISTEN%'`));
      await vi.waitFor(() => expect(errors).toEqual([expect.stringContaining('stopped listening on syndicate_a2a_cancel')]), { timeout: 5_000 });

      await vi.waitFor(
        async () => {
          await requesting.tasks.requestCancel({ agent: 'a', taskId: 'after-the-drop' });
          expect(heard).toContain('after-the-drop');
        },
        { timeout: 10_000, interval: 300 },
      );
      await watch.stop();
      await closeAll();
    });

    it('fails an append loudly when its connection drops before the commit is confirmed, and stores nothing of it', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url);
      await store.openSession('s', 'council');
      await withClient(url, async (admin) => {
        const locker = new pg.Client({ connectionString: url });
        await locker.connect();
        await locker.query(`BEGIN; SELECT * FROM sessions WHERE id = 's' FOR UPDATE`);
        const append = store.appendEvents('s', [message('in flight')]);
        const outcome = expect(append).rejects.toThrow(/could not be confirmed: the connection failed .* it may or may not have been stored/);

        await admin.query('SELECT pg_terminate_backend($1)', [await waitingBackend(admin)]);

        await outcome;
        await locker.query('ROLLBACK');
        await locker.end();
      });
      expect(await store.readEvents('s')).toEqual([]);
      await closeAll();
    });

    it('cancels a statement that runs longer than the statement timeout', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url, { statementTimeoutMs: 300 });
      await store.openSession('s', 'council');
      const locker = new pg.Client({ connectionString: url });
      await locker.connect();
      try {
        await locker.query(`BEGIN; SELECT * FROM sessions WHERE id = 's' FOR UPDATE`);

        await expect(store.appendEvents('s', [message('stuck')])).rejects.toThrow(/canceling statement due to statement timeout/);
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
        await closeAll();
      }
    });

    it('commits without waiting for the WAL flush by default, and waits for it with durability fsync', async () => {
      const url = await cluster().createDatabase();
      const setting = async (durability?: 'write' | 'fsync'): Promise<string> => {
        const client = new pg.Client(poolConfig(url, durability === undefined ? {} : { durability }));
        await client.connect();
        try {
          return (await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit;
        } finally {
          await client.end();
        }
      };

      expect([await setting(), await setting('write'), await setting('fsync')]).toEqual(['off', 'off', 'on']);
    });

    it('opens no more connections than the pool size', async () => {
      const url = await cluster().createDatabase();
      const store = await open(url, { poolSize: 2 });

      await Promise.all(Array.from({ length: 20 }, (_, i) => store.getSession(`s${i}`)));

      const { rows } = await withClient(url, (admin) =>
        admin.query<{ count: number }>(`SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = 'syndicate' AND datname = current_database()`),
      );
      expect(rows[0]!.count).toBeLessThanOrEqual(2);
      await closeAll();
    });
  });
});
