import { benchA2a } from './a2a.js';
import { benchBackgroundJobs } from './backgroundJobs.js';
import { benchCodeMode } from './codeMode.js';
import { benchColdStart } from './coldStart.js';
import { benchMemory } from './memory.js';
import { benchMemoryCalibration } from './memoryCalibration.js';
import { benchMemoryQuality } from './memoryQuality.js';
import { benchObservability } from './observability.js';
import { benchPostgres } from './postgres.js';
import { benchPostgresRecall } from './postgresRecall.js';
import { benchServerIdleStreams } from './serverIdleStreams.js';
import { benchSchedulerDispatch } from './schedulerDispatch.js';
import { benchServerStreams } from './serverStreams.js';
import { benchSessionAppend } from './sessionAppend.js';
import { benchTurnOverhead } from './turnOverhead.js';

// `npm run bench`: prints figures, asserts nothing. Machines here are noisy: compare
// figures within one run, not across runs.

const benches: Record<string, () => Promise<void>> = {
  turnOverhead: benchTurnOverhead,
  observability: benchObservability,
  sessionAppend: benchSessionAppend,
  coldStart: benchColdStart,
  memory: benchMemory,
  memoryQuality: benchMemoryQuality,
  memoryCalibration: benchMemoryCalibration,
  a2a: benchA2a,
  postgres: benchPostgres,
  postgresRecall: benchPostgresRecall,
  codeMode: benchCodeMode,
  serverStreams: benchServerStreams,
  serverIdleStreams: benchServerIdleStreams,
  backgroundJobs: benchBackgroundJobs,
  schedulerDispatch: benchSchedulerDispatch,
};

// BENCH=observability (or a comma-separated list) runs only those benches.
const only = process.env.BENCH?.split(',').map((name) => name.trim()).filter(Boolean);
const unknown = only?.filter((name) => !(name in benches)) ?? [];
if (unknown.length > 0) throw new Error(`unknown bench ${unknown.join(', ')} in BENCH; known: ${Object.keys(benches).join(', ')}`);

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
for (const [name, bench] of Object.entries(benches)) {
  if (!only || only.includes(name)) await bench();
}
