import type { TurnEvent } from '../core/events.js';

// A session's title, kept in its row so a list of sessions reads no events: its first event's
// input when that event is a turn's start (a session holds nothing before one), as the sessions
// list named it when it read each session's first event.

/** Code points of the first message a title keeps: a list shows a line of it, and search looks in it. */
export const SESSION_TITLE_LENGTH = 500;

// A NUL (PostgreSQL text cannot hold one) and a lone surrogate (no UTF-8 for it) become U+FFFD.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The title of a session whose first events are `firstBatch`; null when the first is no turn's start. */
export function sessionTitle(firstBatch: readonly TurnEvent[]): string | null {
  const first = firstBatch[0];
  if (first?.type !== 'turn-start') return null;
  // At most two UTF-16 units a code point: the cut never needs more of the input than this.
  const head = first.input.slice(0, SESSION_TITLE_LENGTH * 2).replace(UNSTORABLE, '\uFFFD');
  return head.length <= SESSION_TITLE_LENGTH ? head : Array.from(head).slice(0, SESSION_TITLE_LENGTH).join('');
}
