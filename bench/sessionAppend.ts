import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TurnEvent } from '../src/core/events.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { report } from './stats.js';

// Session append cost as a session grows: events per second and bytes handed to write(2)
// per event (journal and database together), measured in a window ending at 10, 1,000 and 10,000 events. Appends go in
// batches of 3, the size of a typical step (usage, message, tool call).

const CHECKPOINTS = [10, 1_000, 10_000];
const BATCH = 3;

function writtenBytes(): number {
  // wchar: bytes this process passed to write-like syscalls (Linux).
  const line = readFileSync('/proc/self/io', 'utf8').split('\n').find((l) => l.startsWith('wchar:'));
  return Number(line?.split(/\s+/)[1] ?? Number.NaN);
}

function sampleEvent(i: number): TurnEvent {
  return { type: 'message', text: `Step ${i}: the Advocate argues the claim holds for small teams.`, turnId: 'bench-turn', agent: 'Advocate', depth: 1, at: Date.now() };
}

export async function benchSessionAppend(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-append-'));
  const store = openSqliteStore(join(dir, 'append.db'));
  await store.openSession('grow', 'bench');
  let appended = 0;
  for (const checkpoint of CHECKPOINTS) {
    const windowSize = Math.max(BATCH * 3, Math.min(1_000, Math.floor(checkpoint / 10)));
    while (appended < checkpoint - windowSize) {
      await store.appendEvents('grow', [sampleEvent(appended), sampleEvent(appended + 1), sampleEvent(appended + 2)]);
      appended += BATCH;
    }
    const bytesBefore = writtenBytes();
    const start = process.hrtime.bigint();
    const windowStart = appended;
    while (appended < checkpoint) {
      await store.appendEvents('grow', [sampleEvent(appended), sampleEvent(appended + 1), sampleEvent(appended + 2)]);
      appended += BATCH;
    }
    // Appends land in the store's journal first; reading makes it move them into the database,
    // so the window pays for both writes.
    await store.readEvents('grow', { afterSeq: appended });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const events = appended - windowStart;
    report(`append at ${checkpoint} events`, { window: events, events_per_s: events / seconds, bytes_per_event: (writtenBytes() - bytesBefore) / events });
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
