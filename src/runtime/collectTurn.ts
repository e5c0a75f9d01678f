import type { TurnEvent, TurnEventOf } from '../core/events.js';
import type { CompiledSyndicate } from './compileSyndicate.js';
import { runTurn, type RunTurnOptions } from './runTurn.js';

/** One turn's events, read to the end, with its `turn-end` (tests, batch jobs: no one watches it live). */
export interface CollectedTurn {
  events: TurnEvent[];
  end: TurnEventOf<'turn-end'>;
}

export async function collectTurn(syndicate: CompiledSyndicate, options: RunTurnOptions): Promise<CollectedTurn> {
  const events: TurnEvent[] = [];
  for await (const event of runTurn(syndicate, options)) events.push(event);
  const end = events[events.length - 1];
  // runTurn always ends with exactly one turn-end; anything else is a bug in the runtime.
  if (end?.type !== 'turn-end') throw new Error(`the turn's stream ended without a turn-end event (last: ${JSON.stringify(end)})`);
  return { events, end };
}
