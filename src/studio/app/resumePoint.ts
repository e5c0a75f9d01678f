import type { StreamedEvent } from './api.js';

// Where a dropped turn stream resumes, and which of the events sent again the chat has had.

/**
 * Which events of a resumed stream are new. Stored events carry a seq: those at or below the last
 * one seen come again and are dropped. Live-only ones (text deltas) have none: the server replays
 * those that followed the last seq, so after a reconnect as many as were seen since are dropped,
 * until a stored event shows the replay has moved past them.
 */
export class ResumePoint {
  lastSeq: number | undefined;
  private unseqdSinceLast = 0;
  private toSkip = 0;

  reconnected(): void {
    this.toSkip = this.unseqdSinceLast;
  }

  accept(event: StreamedEvent): boolean {
    if (event.seq === undefined) {
      if (this.toSkip > 0) {
        this.toSkip--;
        return false;
      }
      this.unseqdSinceLast++;
      return true;
    }
    this.toSkip = 0;
    if (this.lastSeq !== undefined && event.seq <= this.lastSeq) return false;
    this.lastSeq = event.seq;
    this.unseqdSinceLast = 0;
    return true;
  }
}
