import type { Store } from '../store/store.js';

// Which sessions have a turn running in this process, so a session's scratchpad is cleared when
// its last turn ends and not while another still uses it. A turn counts from runTurn's call to its
// turn-end. Turns of the same session in other processes are not seen (see README: Scratchpad).

const active = new WeakMap<Store, Map<string, number>>();

export function sessionTurnStarted(store: Store, sessionId: string): void {
  let sessions = active.get(store);
  if (!sessions) active.set(store, (sessions = new Map()));
  sessions.set(sessionId, (sessions.get(sessionId) ?? 0) + 1);
}

/** True when that was the session's last running turn: the session is now idle. */
export function sessionTurnEnded(store: Store, sessionId: string): boolean {
  const sessions = active.get(store);
  const running = sessions?.get(sessionId);
  if (sessions === undefined || running === undefined) throw new Error(`session '${sessionId}' ended a turn it never started (a runtime invariant)`);
  if (running > 1) {
    sessions.set(sessionId, running - 1);
    return false;
  }
  sessions.delete(sessionId);
  return true;
}
