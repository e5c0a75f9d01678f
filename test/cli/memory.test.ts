import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/memory/embeddings/embedder.js';
import { LOCAL_EMBEDDING_MODEL, localEmbedder } from '../../src/memory/embeddings/localEmbedder.js';
import { createDocuments, fileContentStore } from '../../src/memory/documents/index.js';
import type { FactRecord, FactTag } from '../../src/store/facts.js';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/store.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { runCli, tempDir } from './cli.js';

// `syndicate memory` run as the built CLI against a store filled through the public memory APIs:
// facts with the deterministic fake embedder's vectors, documents as real files under
// $SYNDICATE_HOME/memory. Each destructive command works on a silo of its own.

const home = tempDir('memory');
const DB = join(home.path, 'syndicate.db');
const FAKE = fakeEmbedder();
// Loading the real model takes seconds, and the CLI loads it again in its own process.
const REAL_EMBEDDER_TIMEOUT = 120_000;

const COUNCIL = 'council--local';
const facts: Record<string, FactRecord> = {};

const cli = (...args: string[]) => runCli(['memory', ...args], { home: home.path });
const json = <T>(stdout: string): T => JSON.parse(stdout) as T;

interface FactInput {
  text: string;
  tag?: FactTag;
  keys?: string[];
  createdAt: number;
  provenance?: { sessionId: string; turnId: string };
}

async function addFact(store: Store, silo: string, input: FactInput, embedder: Embedder = FAKE): Promise<FactRecord> {
  const [embedding] = await embedder.embed([input.text]);
  return store.facts.insertFact(silo, {
    text: input.text, tag: input.tag ?? 'FACT', date: null, source: 'user', keys: input.keys ?? ['dog'],
    provenance: input.provenance ?? null, embedding: embedding!, embeddingModel: embedder.model, createdAt: input.createdAt,
  });
}

async function addDocuments(store: Store, silo: string, bundle: string, documents: Record<string, string>): Promise<void> {
  const bundles = createDocuments({ storage: store.documents, content: fileContentStore(join(home.path, 'memory')), embedder: FAKE });
  for (const [path, content] of Object.entries(documents)) await bundles.write(silo, { bundle, path, content, actor: 'agent:Scribe', reason: 'notes' });
}

async function withStore<T>(use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(DB);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  await withStore(async (store) => {
    await store.openSession('trip', 'Council');
    await store.appendEvents('trip', [{ type: 'turn-start', syndicate: 'Council', input: 'My dog is called Rex.', turnId: 't1', agent: 'Moderator', at: 1_000, depth: 0 }]);
    facts.rex = await addFact(store, COUNCIL, { text: "The user's dog is called Rex.", createdAt: 1_000, provenance: { sessionId: 'trip', turnId: 't1' } });
    facts.tea = await addFact(store, COUNCIL, { text: 'The user prefers tea to coffee.', tag: 'PREFERENCE', keys: ['tea'], createdAt: 2_000 });
    facts.max = await addFact(store, COUNCIL, { text: "Correction: the user's dog is called Max.", tag: 'CORRECTION', createdAt: 3_000 });
    await store.facts.supersedeFacts(COUNCIL, [facts.rex.id], facts.max.id);
    await addDocuments(store, COUNCIL, 'notes', { 'plan.md': '# Plan\n\nShip the offsite in May.\n', 'people/ada.md': '# Ada\n\nAda runs the budget.\n' });

    facts.lisbon = await addFact(store, 'other--local', { text: 'The user lives in Lisbon.', keys: ['lisbon'], createdAt: 1_000 });
    await addDocuments(store, 'other--local', 'diary', { 'monday.md': '# Monday\n\nRain all day.\n' });

    facts.doomed = await addFact(store, 'delete--local', { text: 'The user is allergic to cats.', keys: ['cats'], createdAt: 1_000 });
    facts.kept = await addFact(store, 'delete--local', { text: 'The user owns a bicycle.', keys: ['bicycle'], createdAt: 2_000 });

    await addFact(store, 'purge--local', { text: 'The user plays the cello.', keys: ['cello'], createdAt: 1_000 });
    await addDocuments(store, 'purge--local', 'music', { 'pieces.md': '# Pieces\n\nBach suites.\n' });

    await addFact(store, 'reembed--local', { text: 'The user runs on Sundays.', keys: ['running'], createdAt: 1_000 });
    await addDocuments(store, 'reembed--local', 'training', { 'plan.md': '# Training\n\nTen kilometres a week.\n' });
  });
});

afterAll(home.remove);

describe('memory silos', () => {
  it('lists every silo with its active and superseded facts, documents and embedding model', async () => {
    const result = await cli('silos');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^SILO\s+FACTS\s+ACTIVE\s+SUPERSEDED\s+DOCUMENTS\s+EMBEDDING\n/);
    expect(result.stdout).toMatch(/\ncouncil--local\s+3\s+2\s+1\s+2\s+fake-bow-256\n/);
  });

  it('prints the silos as JSON with --json', async () => {
    const silos = json<Array<{ silo: string; facts: number; documents: number; bundles: string[] }>>((await cli('silos', '--json')).stdout);
    expect(silos.find((silo) => silo.silo === 'other--local')).toMatchObject({ facts: 1, documents: 1, bundles: ['diary'] });
  });

  it('reports an empty store without creating one', async () => {
    const empty = tempDir('memory-empty');
    try {
      const result = await runCli(['memory', 'silos'], { home: empty.path });
      expect(result.stdout).toBe(`No memory in ${empty.path}/syndicate.db: no silo holds facts or documents yet.\n`);
      expect(existsSync(join(empty.path, 'syndicate.db'))).toBe(false);
    } finally {
      empty.remove();
    }
  });
});

describe('memory list', () => {
  it('lists the facts of one silo, newest first', async () => {
    const result = await cli('list', '--silo', COUNCIL);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TAG\s+STATUS\s+DATE\s+TEXT$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([facts.max!.id, facts.tea!.id, facts.rex!.id]);
    expect(lines[3]).toContain("superseded  -     The user's dog is called Rex.");
  });

  it('filters by tag and status and caps the count', async () => {
    const ids = async (...args: string[]) => json<FactRecord[]>((await cli('list', '--silo', COUNCIL, '--json', ...args)).stdout).map((fact) => fact.id);
    expect(await ids('--tag', 'preference')).toEqual([facts.tea!.id]);
    expect(await ids('--status', 'superseded')).toEqual([facts.rex!.id]);
    expect(await ids('--status', 'active', '--limit', '1')).toEqual([facts.max!.id]);
  });

  it('lists the documents of the silo with --docs', async () => {
    const result = await cli('list', '--silo', COUNCIL, '--docs');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^BUNDLE\s+PATH\s+TITLE\s+BYTES\s+INDEXED\nnotes\s+people\/ada\.md\s+Ada\s+\d+\s+\S+ \S+\nnotes\s+plan\.md\s+Plan\s/);
  });

  it('refuses a silo it does not hold with exit code 1', async () => {
    const result = await cli('list', '--silo', 'nobody--local');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`No memory silo 'nobody--local' in ${DB}: it holds no facts and no documents. See: syndicate memory silos\n`);
  });

  it('requires --silo, and a well-formed one, with exit code 2', async () => {
    const missing = await cli('list');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--silo <id>' not specified");
    const malformed = await cli('purge', '--silo', '../etc', '--yes');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--silo "../etc" is not a silo id');
  });
});

describe('memory show', () => {
  it('shows a superseded fact with the correction that retired it and the turn it was learnt in', async () => {
    const result = await cli('show', '--silo', COUNCIL, facts.rex!.id);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  status:    superseded by ${facts.max!.id}\n`);
    expect(result.stdout).toMatch(new RegExp(`Superseded by \\(oldest correction first\\):\\n.*\\n  ${facts.max!.id}\\s+CORRECTION\\s+active`));
    expect(result.stdout).toContain('Learnt in session trip (Council), turn t1, where the user said: "My dog is called Rex."\n  See: syndicate sessions show trip\n');
  });

  it('shows a correction with the facts it retired, as JSON', async () => {
    const shown = json<{ fact: FactRecord; supersedes: FactRecord[]; supersededBy: FactRecord[]; provenance: null }>((await cli('show', '--silo', COUNCIL, facts.max!.id, '--json')).stdout);
    expect(shown.fact.id).toBe(facts.max!.id);
    expect(shown.supersedes.map((fact) => fact.id)).toEqual([facts.rex!.id]);
    expect(shown.supersededBy).toEqual([]);
    expect(shown.provenance).toBeNull();
  });

  it('exits 1 for a fact the silo does not hold', async () => {
    const result = await cli('show', '--silo', COUNCIL, facts.lisbon!.id);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`No fact ${facts.lisbon!.id} in silo ${COUNCIL}. See: syndicate memory list --silo ${COUNCIL}\n`);
  });
});

describe('memory delete', () => {
  it('only prints what it would delete without --yes', async () => {
    const result = await cli('delete', '--silo', 'delete--local', facts.doomed!.id);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Would delete 1 fact from silo delete--local, with its vector:\n`);
    expect(result.stdout).toContain('Dry run: nothing was changed. Run again with --yes to delete it.\n');
    expect(await withStore((store) => store.facts.getFact('delete--local', facts.doomed!.id))).toBeDefined();
  });

  it('refuses the whole list when one id is unknown', async () => {
    const result = await cli('delete', '--silo', 'delete--local', facts.doomed!.id, 'no-such-fact', '--yes');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No fact no-such-fact in silo delete--local; nothing was deleted.');
    expect(await withStore((store) => store.facts.getFact('delete--local', facts.doomed!.id))).toBeDefined();
  });

  it('deletes the fact and its vector with --yes', async () => {
    const result = await cli('delete', '--silo', 'delete--local', facts.doomed!.id, '--yes');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Deleted 1 fact from silo delete--local, with its vector:\n');
    const [probe] = await FAKE.embed(['The user is allergic to cats.']);
    const { fact, nearest } = await withStore(async (store) => ({
      fact: await store.facts.getFact('delete--local', facts.doomed!.id),
      nearest: await store.facts.searchVectors('delete--local', { embedding: probe!, embeddingModel: FAKE.model, limit: 10 }),
    }));
    expect(fact).toBeUndefined();
    expect(nearest.map((hit) => hit.fact.id)).toEqual([facts.kept!.id]);
  });
});

describe('memory purge', () => {
  it('only prints what it would purge without --yes', async () => {
    const result = await cli('purge', '--silo', 'purge--local');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Would purge silo purge--local: 1 fact (1 active, 0 superseded) with their vectors and ingestion marks, and 1 document in 1 bundle (music)');
    expect(existsSync(join(home.path, 'memory', 'purge--local', 'music', 'pieces.md'))).toBe(true);
  });

  it('deletes the facts, documents, revisions and files of that silo only', async () => {
    const result = await cli('purge', '--silo', 'purge--local', '--yes', '--json');
    expect(result.code).toBe(0);
    expect(json<{ dryRun: boolean; facts: number; documents: number }>(result.stdout)).toMatchObject({ dryRun: false, facts: 1, documents: 1 });
    const left = await withStore(async (store) => ({
      facts: await store.facts.listFacts('purge--local'),
      documents: await store.documents.listDocuments('purge--local'),
      revisions: await store.documents.listRevisions('purge--local', { bundle: 'music', path: 'pieces.md' }),
      others: await store.facts.listFacts('other--local'),
    }));
    expect(left).toMatchObject({ facts: [], documents: [], revisions: [] });
    expect(left.others).toHaveLength(1);
    expect(existsSync(join(home.path, 'memory', 'purge--local'))).toBe(false);
    expect(existsSync(join(home.path, 'memory', 'other--local', 'diary', 'monday.md'))).toBe(true);
  });
});

describe('memory export and import', () => {
  it('exports a bundle to a zip file and never overwrites one', async () => {
    const out = join(home.path, 'notes.zip');
    const result = await cli('export', '--silo', COUNCIL, '--bundle', 'notes', '--out', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Exported bundle notes of silo council--local \(2 documents, \d+ bytes\) to /);
    expect(Object.keys(unzipSync(readFileSync(out))).sort()).toEqual(['notes/index.md', 'notes/log.md', 'notes/people/ada.md', 'notes/plan.md']);
    const again = await cli('export', '--silo', COUNCIL, '--bundle', 'notes', '--out', out);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`${out} already exists; nothing was written. Choose another --out, or move the file away first.\n`);
  });

  it('reports collisions and imports nothing without --overwrite', async () => {
    const changed = join(home.path, 'changed.zip');
    writeFileSync(changed, zipSync({ 'notes/plan.md': strToU8('# Plan\n\nShip the offsite in June.\n'), 'notes/budget.md': strToU8('# Budget\n\n4,800.\n') }));
    const result = await cli('import', '--silo', COUNCIL, changed, '--yes');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Refused: 1 document of the archive differs from the one already in bundle notes of silo council--local; nothing was imported.\n');
    expect(result.stdout).toContain('Collisions (different content already stored):\n  plan.md\n');
    expect(readFileSync(join(home.path, 'memory', COUNCIL, 'notes', 'plan.md'), 'utf8')).toContain('May');
  });

  it('would replace the colliding documents with --overwrite', async () => {
    const result = await cli('import', '--silo', COUNCIL, join(home.path, 'changed.zip'), '--overwrite');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Would import into bundle notes of silo council--local: 1 new document, 1 replaced document.\nNew:\n  budget.md\nReplaced (collisions):\n  plan.md\n' +
        'Dry run: nothing was changed. Run again with --yes to import.\n',
    );
  });

  it('refuses an archive with a bad entry, naming it', async () => {
    const bad = join(home.path, 'bad.zip');
    writeFileSync(bad, zipSync({ 'notes/../escape.md': strToU8('# Out\n') }));
    const result = await cli('import', '--silo', COUNCIL, bad, '--yes');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Refused: the archive cannot be imported into');
    expect(result.stdout).toContain('notes/../escape.md: ');
  });

  it(
    'checks an archive without --yes and imports it into a new silo with it',
    async () => {
      const zip = join(home.path, 'notes-for-import.zip');
      expect((await cli('export', '--silo', COUNCIL, '--bundle', 'notes', '--out', zip)).code).toBe(0);
      const dry = await cli('import', '--silo', 'archive--local', zip);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain('Would import into bundle notes of silo archive--local: 2 new documents, 0 replaced documents.\nNew:\n  people/ada.md\n  plan.md\n');
      expect(dry.stdout).toContain('Dry run: nothing was changed. Run again with --yes to import.\n');
      const done = await cli('import', '--silo', 'archive--local', zip, '--yes', '--json');
      expect(done.code).toBe(0);
      expect(json<{ imported: boolean; added: string[] }>(done.stdout)).toMatchObject({ imported: true, added: ['people/ada.md', 'plan.md'] });
      const documents = await withStore((store) => store.documents.listDocuments('archive--local'));
      expect(documents.map((document) => [document.path, document.embeddingModel])).toEqual([['people/ada.md', LOCAL_EMBEDDING_MODEL], ['plan.md', LOCAL_EMBEDDING_MODEL]]);
    },
    REAL_EMBEDDER_TIMEOUT,
  );
});

describe('memory reembed', () => {
  it('requires the target model, by --embedding or --syndicate', async () => {
    const result = await cli('reembed', '--silo', 'reembed--local', '--yes');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('say which embedding model to re-embed with: --embedding <model> (e.g. local), or --syndicate <file|name>');
  });

  it('only prints the change without --yes', async () => {
    const result = await cli('reembed', '--silo', 'reembed--local', '--embedding', 'local');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Would re-embed 1 fact and 1 document of silo reembed--local from fake-bow-256 to ${LOCAL_EMBEDDING_MODEL}.\nDry run: nothing was changed. Run again with --yes to re-embed.\n`);
  });

  it(
    "moves the silo's facts and documents to the syndicate's embedder with --yes",
    async () => {
      const result = await cli('reembed', '--silo', 'reembed--local', '--syndicate', 'council', '--yes');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`Re-embedded 1 fact and 1 document of silo reembed--local with ${LOCAL_EMBEDDING_MODEL}.\n`);
      const models = await withStore(async (store) => ({ facts: await store.facts.siloEmbeddingModel('reembed--local'), documents: await store.documents.embeddingModels('reembed--local') }));
      expect(models).toEqual({ facts: LOCAL_EMBEDDING_MODEL, documents: [LOCAL_EMBEDDING_MODEL] });
    },
    REAL_EMBEDDER_TIMEOUT,
  );
});

describe('memory dupes', () => {
  it(
    'groups active facts with the same tag that say the same thing',
    async () => {
      const real = localEmbedder();
      const [rex, again] = await withStore(async (store) => [
        await addFact(store, 'dupes--local', { text: "The user's dog is called Rex.", createdAt: 1_000 }, real),
        await addFact(store, 'dupes--local', { text: "The user's dog is called Rex", createdAt: 2_000 }, real),
        await addFact(store, 'dupes--local', { text: 'The user lives in Lisbon.', keys: ['lisbon'], createdAt: 3_000 }, real),
        await addFact(store, 'dupes--local', { text: "The user's dog is called Rex.", tag: 'EPISODE', createdAt: 4_000 }, real),
      ]);
      const result = await cli('dupes', '--silo', 'dupes--local', '--json');
      expect(result.code).toBe(0);
      const { groups } = json<{ groups: Array<{ facts: FactRecord[]; similarity: number }> }>(result.stdout);
      expect(groups.map((group) => group.facts.map((fact) => fact.id))).toEqual([[rex!.id, again!.id]]);
      expect(groups[0]!.similarity).toBeGreaterThanOrEqual(0.93);
    },
    REAL_EMBEDDER_TIMEOUT,
  );

  it('says how to move a silo whose embedding model cannot be loaded', async () => {
    const result = await cli('dupes', '--silo', COUNCIL);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("silo 'council--local' holds vectors from the embedding model 'fake-bow-256', which cannot be loaded here");
    expect(result.stderr).toContain(`syndicate memory reembed --silo council--local --embedding ${LOCAL_EMBEDDING_MODEL} --yes`);
  });
});
