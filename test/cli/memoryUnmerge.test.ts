import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFactMemory } from '../../src/memory/facts/factMemory.js';
import type { FactRecord } from '../../src/store/facts.js';
import { openStore } from '../../src/store/openStore.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { extractor } from '../memory/facts/helpers.js';
import { runCli, tempDir } from './cli.js';

// `syndicate memory unmerge` run as the built CLI on a restatement merged through remember.

const home = tempDir('memory-unmerge');
const DB = join(home.path, 'syndicate.db');
afterAll(home.remove);
const cli = (...args: string[]) => runCli(['memory', ...args], { home: home.path });

async function mergedPair(silo: string): Promise<{ primary: FactRecord; merged: FactRecord }> {
  const store = await openStore(DB);
  try {
    const memory = createFactMemory({ store, embedder: fakeEmbedder(), silo, model: extractor() });
    const first = await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const again = await memory.remember({ text: 'the user lives in Paris', keys: ['home'] });
    if (first.kind !== 'stored' || again.kind !== 'duplicate') throw new Error('expected a fact and its merged restatement');
    return { primary: first.fact, merged: again.restatement };
  } finally {
    await store.close();
  }
}

async function factById(silo: string, id: string): Promise<FactRecord | undefined> {
  const store = await openStore(DB);
  try {
    return await store.facts.getFact(silo, id);
  } finally {
    await store.close();
  }
}

describe('memory unmerge', () => {
  it('makes a merged restatement an active fact of its own again', async () => {
    const silo = 'unmerge--local';
    const { primary, merged } = await mergedPair(silo);
    const result = await cli('unmerge', '--silo', silo, merged.id);
    expect(result).toMatchObject({ code: 0, stdout: `Unmerged fact ${merged.id} from ${primary.id}: it is an active fact of its own again.\n` });
    expect(await factById(silo, merged.id)).toMatchObject({ status: 'active', restates: null, text: 'the user lives in Paris' });
    expect(await factById(silo, primary.id)).toMatchObject({ status: 'active' });
  });

  it('refuses a fact that is not merged, naming its status', async () => {
    const { primary } = await mergedPair('unmerge-primary--local');
    const result = await cli('unmerge', '--silo', 'unmerge-primary--local', primary.id);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Fact ${primary.id} is active, not merged into another fact: there is nothing to unmerge.`);
  });

  it('refuses an unknown fact id', async () => {
    await mergedPair('unmerge-unknown--local');
    const result = await cli('unmerge', '--silo', 'unmerge-unknown--local', 'no-such-fact');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No fact no-such-fact in silo unmerge-unknown--local.');
  });
});
