import type { LastTurn } from '../../store/store.js';
import { when } from './format.js';

// How a session's last turn ended, beside the session: a completed one quietly (the usual end),
// any other in its status colour, so a session left failed, cancelled or interrupted stands out.

export function LastTurnBadge({ lastTurn }: { lastTurn: LastTurn | null }) {
  if (lastTurn === null) return null;
  const { outcome, endedAt } = lastTurn;
  const why = outcome === 'interrupted' ? ': the server shut down before it finished' : '';
  return (
    <span class={outcome === 'completed' ? 'badge last-turn' : `status status-${outcome} last-turn`} data-outcome={outcome} title={`Its last turn ended ${outcome}, ${when(endedAt)}${why}`}>
      {outcome}
    </span>
  );
}
