import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { siloFor } from '../../src/core/silo.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import { openStore } from '../../src/store/openStore.js';
import { StoreLocationError } from '../../src/store/storeLocation.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { agent, syndicate } from '../runtime/fixtures.js';
import { startOtlpReceiver } from '../telemetry/otlpReceiver.js';

let dir: string;
let platforms: Platform[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'syndicate-platform-'));
  platforms = [];
});

afterEach(async () => {
  await Promise.all(platforms.map((platform) => platform.close()));
  await rm(dir, { recursive: true, force: true });
});

async function platformOn(store: string | undefined, env: NodeJS.ProcessEnv = {}, documentsDir?: string): Promise<Platform> {
  const platform = await createPlatform({ store, env, documentsDir });
  platforms.push(platform);
  return platform;
}

async function playTurn(platform: Platform, sessionId: string | null): Promise<void> {
  const compiled = platform.compile(syndicate(agent('Solo')));
  const recorder = platform.recorder(compiled.name, sessionId);
  const store = sessionId === null ? undefined : await platform.store();
  for await (const _event of runTurn(compiled, { input: 'hello', sessionId: sessionId ?? undefined, store, observers: recorder.observers })) {
    // The turn is played to its end; the recorder observes it.
  }
}

describe('createPlatform: the store', () => {
  it('opens the store at the path given on first use, and names it for a person', async () => {
    const dbPath = join(dir, 'given.db');
    const platform = await platformOn(dbPath);
    expect(existsSync(dbPath)).toBe(false);

    await (await platform.store()).openSession('s1', 'Solo');

    expect(platform.storeName).toBe(dbPath);
    expect(existsSync(dbPath)).toBe(true);
  });

  it('takes sqlite:<path> as the SQLite file at that path', async () => {
    const dbPath = join(dir, 'prefixed.db');
    const platform = await platformOn(`sqlite:${dbPath}`);

    await platform.store();

    expect(existsSync(dbPath)).toBe(true);
  });

  it('uses SYNDICATE_DB when no store is given', async () => {
    const dbPath = join(dir, 'from-env.db');
    const platform = await platformOn(undefined, { SYNDICATE_DB: dbPath, SYNDICATE_HOME: join(dir, 'home') });

    await platform.store();

    expect(existsSync(dbPath)).toBe(true);
    expect(existsSync(join(dir, 'home'))).toBe(false);
  });

  it('defaults to syndicate.db in SYNDICATE_HOME', async () => {
    const platform = await platformOn(undefined, { SYNDICATE_HOME: join(dir, 'home') });

    await platform.store();

    expect(existsSync(join(dir, 'home', 'syndicate.db'))).toBe(true);
  });

  it('gives no store, and creates none, to a reader when there is none yet', async () => {
    const dbPath = join(dir, 'absent.db');
    const platform = await platformOn(dbPath);

    expect(await platform.existingStore()).toBeUndefined();
    expect(existsSync(dbPath)).toBe(false);
  });

  it('never takes a PostgreSQL URL as a path: it opens it as PostgreSQL, names it without its password, and creates nothing', async () => {
    const platform = await platformOn('postgres://app:s3cret@127.0.0.1:9/syndicate');

    await expect(platform.store()).rejects.toThrow(/cannot connect to PostgreSQL at 127\.0\.0\.1:9 /);
    expect(platform.storeName).toBe('postgres://app:***@127.0.0.1:9/syndicate');
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a store value of an unknown kind at once', async () => {
    await expect(createPlatform({ store: 'mysql://127.0.0.1/db', env: {} })).rejects.toThrow(StoreLocationError);
    await expect(createPlatform({ env: { SYNDICATE_DB: 'mysql://127.0.0.1/db' } })).rejects.toThrow(/^SYNDICATE_DB "mysql:/);
  });
});

describe('createPlatform: memory and its documents', () => {
  const concierge = syndicate(agent('Concierge'), { name: 'Concierge', memorySystem: 'long-term' });
  const note = { actor: 'test', reason: 'a test', bundle: 'notes', path: 'hello.md', content: '# Hello\n\nA note.\n' };

  it('keeps documents in memory/<silo>/ beside the SQLite file by default', async () => {
    const platform = await platformOn(join(dir, 'data', 'syndicate.db'));
    const memory = (await platform.memory(platform.compile(concierge, { embedder: fakeEmbedder() })))!;

    await memory.documents.write(siloFor('Concierge'), note);

    expect(platform.documentsDir).toBe(join(dir, 'data', 'memory'));
    expect(existsSync(join(dir, 'data', 'memory', siloFor('Concierge'), 'notes', 'hello.md'))).toBe(true);
  });

  it('keeps documents in the folder configured instead', async () => {
    const platform = await platformOn(join(dir, 'syndicate.db'), {}, join(dir, 'elsewhere'));
    const memory = (await platform.memory(platform.compile(concierge, { embedder: fakeEmbedder() })))!;

    await memory.documents.write(siloFor('Concierge'), note);

    expect(existsSync(join(dir, 'elsewhere', siloFor('Concierge'), 'notes', 'hello.md'))).toBe(true);
    expect(existsSync(join(dir, 'memory'))).toBe(false);
  });

  it('takes the documents folder from SYNDICATE_DOCUMENTS_DIR', async () => {
    const platform = await platformOn(join(dir, 'syndicate.db'), { SYNDICATE_DOCUMENTS_DIR: join(dir, 'docs') });

    expect(platform.documentsDir).toBe(join(dir, 'docs'));
  });

  it('keeps documents in the database on PostgreSQL unless a folder is configured', async () => {
    expect((await platformOn('postgres://127.0.0.1:9/syndicate')).documentsDir).toBeUndefined();
    expect((await platformOn('postgres://127.0.0.1:9/syndicate', {}, join(dir, 'docs'))).documentsDir).toBe(join(dir, 'docs'));
  });

  it('opens one memory per silo, shared by every caller, and none for a syndicate without long-term memory', async () => {
    const platform = await platformOn(join(dir, 'syndicate.db'));
    const compiled = platform.compile(concierge, { embedder: fakeEmbedder() });

    const first = await platform.memory(compiled, 'concierge--ana');

    expect(await platform.memory(compiled, 'concierge--ana')).toBe(first);
    expect(await platform.memory(compiled, 'concierge--ben')).not.toBe(first);
    expect(await platform.memory(platform.compile(syndicate(agent('Solo'))))).toBeUndefined();
  });
});

describe('createPlatform: network policy and clients', () => {
  it('builds one network policy from the environment and gives it to the MCP and A2A clients', async () => {
    const platform = await platformOn(join(dir, 'syndicate.db'), { ALLOW_PRIVATE_MCP: 'true', SYNDICATE_ALLOWED_HOSTS: 'tools.internal' });

    expect(platform.network).toEqual({ allowPrivate: true, allowedHosts: new Set(['tools.internal']) });
    expect(platform.mcp.policy).toBe(platform.network);
    expect(platform.a2a.policy).toBe(platform.network);
  });

  it('takes a network policy and client timeouts from its configuration', async () => {
    const network = { allowPrivate: false, allowedHosts: new Set(['a2a.internal']) };
    const platform = await createPlatform({ store: join(dir, 'syndicate.db'), env: { ALLOW_PRIVATE_MCP: 'true' }, network, mcp: { connectTimeoutMs: 1234 }, a2a: { cardTimeoutMs: 99 } });
    platforms.push(platform);

    expect(platform.mcp).toMatchObject({ policy: network, connectTimeoutMs: 1234 });
    expect(platform.a2a).toMatchObject({ policy: network, cardTimeoutMs: 99 });
  });
});

describe('createPlatform: close', () => {
  it('writes the usage ledger of every recorded turn before it closes the store', async () => {
    const dbPath = join(dir, 'syndicate.db');
    const platform = await createPlatform({ store: dbPath, env: {} });
    await playTurn(platform, 'session-1');
    await playTurn(platform, null);

    await platform.close();

    const reopened = await openStore(dbPath);
    const rows = await reopened.queryUsage();
    await reopened.close();
    expect(rows.map((row) => row.sessionId)).toEqual(['session-1', null]);
  });

  it('waits for tracked work before it closes the store', async () => {
    const platform = await createPlatform({ store: join(dir, 'syndicate.db'), env: {} });
    const store = await platform.store();
    const order: string[] = [];
    const closeStore = store.close.bind(store);
    store.close = async () => {
      order.push('store closed');
      await closeStore();
    };
    platform.track(
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await store.openSession('late', 'Solo');
        order.push('work done');
      })(),
    );

    await platform.close();

    expect(order).toEqual(['work done', 'store closed']);
  });

  it('closes the syndicates it compiled after the work in flight', async () => {
    const platform = await createPlatform({ store: join(dir, 'syndicate.db'), env: {} });
    const compiled = platform.compile(syndicate(agent('Solo')));
    const order: string[] = [];
    const closeSyndicate = compiled.close.bind(compiled);
    compiled.close = async () => {
      order.push('syndicate closed');
      await closeSyndicate();
    };
    platform.track(new Promise((resolve) => setTimeout(resolve, 20)).then(() => void order.push('work done')));

    await platform.close();

    expect(order).toEqual(['work done', 'syndicate closed']);
  });

  it('exports the spans of the last turns, as turns of their session, before it resolves', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const platform = await createPlatform({ store: join(dir, 'syndicate.db'), env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
      await playTurn(platform, 'session-7');

      await platform.close();

      expect(receiver.spans.length).toBeGreaterThan(0);
      expect(receiver.spans.find((span) => span.name === 'invoke_agent Solo')?.attributes['gen_ai.conversation.id']).toBe('session-7');
    } finally {
      await receiver.close();
    }
  });

  it('still closes the store when a tracked piece of work failed, then reports the failure', async () => {
    const dbPath = join(dir, 'syndicate.db');
    const platform = await createPlatform({ store: dbPath, env: {} });
    const store = await platform.store();
    let closed = false;
    const closeStore = store.close.bind(store);
    store.close = async () => {
      closed = true;
      await closeStore();
    };
    platform.track(Promise.reject(new Error('distilling failed')));

    await expect(platform.close()).rejects.toThrow('distilling failed');
    expect(closed).toBe(true);
  });

  it('refuses new work once closed', async () => {
    const platform = await createPlatform({ store: join(dir, 'syndicate.db'), env: {} });

    await platform.close();

    await expect(platform.store()).rejects.toThrow('the platform is closed');
  });
});
