import { errorMessage } from '../core/errors.js';
import type { TurnStatus } from '../core/events.js';
import type { Memory } from '../memory/openMemory.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { RunTurnOptions } from '../runtime/runTurn.js';
import type { Platform } from './createPlatform.js';

// What a server face (serve-a2a, serve) adds to each turn it runs for a caller: the session's usage
// ledger and tracing, the long-term memory of the caller's silo, and, once a turn completes, the
// session distilled into that memory so the caller's next turn already knows it.

export interface ServerTurn {
  /** Spread into runTurn's options. */
  options: Pick<RunTurnOptions, 'memory' | 'observers'>;
  /** Call once the turn has ended (not awaited: the platform tracks the work it starts). */
  ended(status: TurnStatus): void;
}

/** `remember` distils the session into the memory and reports how it went (the face decides where). */
export async function openServerTurn(platform: Platform, syndicate: CompiledSyndicate, sessionId: string, silo: string, remember: (memory: Memory, sessionId: string) => Promise<void>): Promise<ServerTurn> {
  const recorder = platform.recorder(syndicate.name, sessionId);
  const memory = await platform.memory(syndicate, silo);
  return {
    options: { memory: memory?.turn, observers: recorder.observers },
    ended(status) {
      platform.track(recorder.settled());
      if (status === 'completed' && memory) platform.track(remember(memory, sessionId));
    },
  };
}

/** A `remember` for a server process: it distils the session quietly, and warns only when that fails. */
export function rememberOrWarn(warn: (message: string) => void): (memory: Memory, sessionId: string) => Promise<void> {
  return async (memory, sessionId) => {
    try {
      await memory.facts.ingestSession(sessionId);
    } catch (error) {
      warn(`warning: could not update long-term memory from session ${sessionId}: ${errorMessage(error)}`);
    }
  };
}
