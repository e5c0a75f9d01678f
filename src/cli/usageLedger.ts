import { errorMessage } from '../core/errors.js';
import type { Store } from '../store/store.js';
import { createUsageLedger, type UsageLedger } from '../telemetry/ledger/usageLedger.js';
import { openSessionStore } from './sessionStore.js';

/**
 * The database of a syndicate that keeps no sessions, opened for the usage ledger alone. Failing to
 * open it costs the ledger rows, not the run: nothing else of the run needs it.
 */
export async function openLedgerOnlyStore(dbPath: string): Promise<Store | undefined> {
  try {
    return await openSessionStore(dbPath);
  } catch (error) {
    process.stderr.write(`warning: usage will not be recorded: ${errorMessage(error)}\n`);
    return undefined;
  }
}

/** A ledger that reports its first failed write on stderr, where it reaches a person even under --json. */
export function cliUsageLedger(store: Store, syndicate: string, sessionId: string | null): UsageLedger {
  const onError = (error: unknown): void => void process.stderr.write(`warning: the usage ledger could not be written: ${errorMessage(error)}\n`);
  return createUsageLedger({ store, syndicate, sessionId, onError });
}
