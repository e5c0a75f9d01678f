import type { Memory } from '../memory/openMemory.js';
import type { Platform } from '../platform/createPlatform.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { Store } from '../store/store.js';
import type { ServedSyndicate } from './askTool.js';

/**
 * A syndicate served as an MCP tool with the platform's parts (syndicate mcp, and serve's MCP face):
 * each call's usage ledger and tracing, the caller's long-term memory, and each completed session
 * distilled with `remember`. A recorder is bound to one session, so each call gets its own. A
 * promise per call, tracked by the platform, resolves once its rows are written: the store must
 * outlive every call, including those a disconnecting client leaves cancelled.
 */
export function recordedSyndicate(platform: Platform, syndicate: CompiledSyndicate, store: Store, remember: (memory: Memory, sessionId: string) => Promise<void>): ServedSyndicate {
  return {
    syndicate,
    store: syndicate.memorySystem === 'internal-only' ? undefined : store,
    memoryFor: async (silo) => (await platform.memory(syndicate, silo))?.turn,
    afterTurn(silo, sessionId) {
      platform.track(
        (async () => {
          const memory = await platform.memory(syndicate, silo);
          if (memory) await remember(memory, sessionId);
        })(),
      );
    },
    recordingFor(sessionId) {
      const recorder = platform.recorder(syndicate.name, sessionId);
      let finished!: () => void;
      platform.track(new Promise<void>((resolve) => (finished = resolve)));
      return { observers: recorder.observers, settled: () => recorder.settled().finally(finished) };
    },
  };
}
