import { join } from 'node:path';
import { scratchDir } from '../../support/scratchDir.js';
import type { ScriptStep } from '../../../src/config/schema.js';
import { createFactMemory, type FactMemory, type FactMemoryOptions } from '../../../src/memory/facts/factMemory.js';
import { createScriptedModel } from '../../../src/models/scripted/createScriptedModel.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/index.js';
import { fakeEmbedder } from '../fakeEmbedder.js';

export function tempStore(): SqliteStore {
  return openSqliteStore(join(scratchDir('memory'), 'memory.db'));
}

/** The extraction model: the built-in scripted model following `script`. */
export function extractor(script: ScriptStep[] = []) {
  return createScriptedModel({ agentName: 'MemoryExtractor', subagents: [], script });
}

export function memoryOn(store: SqliteStore, overrides: Partial<FactMemoryOptions> = {}): FactMemory {
  return createFactMemory({ store, embedder: fakeEmbedder(), silo: 'assistant--local', model: extractor(), ...overrides });
}
