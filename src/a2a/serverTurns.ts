import type { Memory } from '../memory/openMemory.js';
import type { Platform } from '../platform/createPlatform.js';
import { openServerTurn, type ServerTurn } from '../platform/serverTurn.js';
import type { TurnExecutorOptions } from './executor.js';

/**
 * The A2A face's turns with the platform's parts (serve-a2a, and serve's A2A face): each task's
 * session gets its usage ledger, tracing and the caller's long-term memory, and once its turn has
 * ended the ledger is settled and a completed session is distilled with `remember`.
 */
export function a2aServerTurns(platform: Platform, remember: (memory: Memory, sessionId: string) => Promise<void>): Pick<TurnExecutorOptions, 'turnOptions' | 'afterTurn'> {
  const turns = new Map<string, ServerTurn>();
  return {
    async turnOptions(request) {
      const turn = await openServerTurn(platform, request.syndicate, request.sessionId, request.silo, remember);
      turns.set(request.taskId, turn);
      return turn.options;
    },
    afterTurn(request, status) {
      turns.get(request.taskId)?.ended(status);
      turns.delete(request.taskId);
    },
  };
}
