import type { TurnEvent } from '../../../core/events.js';

// The text and reasoning parts a turn's events make, per run: the root run, or one delegation's run
// (named by its callId). A part's id depends only on its run, the model call it came from and its
// place among that call's parts, so a replay of the stored events (whole `message` / `thinking`
// events, no deltas) makes the same parts with the same ids as the live stream did, even where
// parallel delegations interleave.

export type PartKind = 'text' | 'reasoning';

export interface Part {
  kind: PartKind;
  id: string;
  /** The delegation whose run made the part; undefined for the root run. */
  run: string | undefined;
}

export type PartChange = { change: 'open'; part: Part } | { change: 'delta'; part: Part; delta: string } | { change: 'close'; part: Part };

export interface RunParts {
  /** The parts an event opens, extends or closes (turn-end closes every open part). */
  changes(event: TurnEvent): PartChange[];
  /** Closes the run's open part, if any: a tool call or the run's end comes between parts. */
  close(run: string | undefined): PartChange[];
  /** The id of the message of the run's latest model call, the one a tool call of the run came from. */
  messageId(run: string | undefined): string;
}

interface RunState {
  /** Model calls of the run that have reported (usage events). */
  calls: number;
  open: Part | undefined;
  /** Kinds streamed as deltas whose whole event (message / thinking) has not come yet. */
  streamed: Set<PartKind>;
  /** Parts opened so far per model call and kind. */
  opened: Map<string, number>;
}

const DELTAS: Partial<Record<TurnEvent['type'], PartKind>> = { 'text-delta': 'text', 'thinking-delta': 'reasoning' };
const WHOLES: Partial<Record<TurnEvent['type'], PartKind>> = { message: 'text', thinking: 'reasoning' };

/** `prefix` starts every id (AG-UI message ids must be unique in a thread, across its runs). */
export function createRunParts(prefix: string): RunParts {
  const runs = new Map<string | undefined, RunState>();
  const stateOf = (run: string | undefined): RunState => {
    let state = runs.get(run);
    if (state === undefined) runs.set(run, (state = { calls: 0, open: undefined, streamed: new Set(), opened: new Map() }));
    return state;
  };
  const callMessageId = (run: string | undefined, call: number): string => `${prefix}${run ?? 'root'}:${call}`;

  const close = (run: string | undefined): PartChange[] => {
    const state = stateOf(run);
    const part = state.open;
    state.open = undefined;
    return part === undefined ? [] : [{ change: 'close', part }];
  };
  const open = (run: string | undefined, kind: PartKind, call: number): PartChange[] => {
    const state = stateOf(run);
    const out = close(run);
    const key = `${call}:${kind}`;
    const n = (state.opened.get(key) ?? 0) + 1;
    state.opened.set(key, n);
    // The first text part of a call is the call's message: a tool call of the call joins it there.
    const base = kind === 'text' ? callMessageId(run, call) : `${callMessageId(run, call)}:${kind}`;
    state.open = { kind, id: n === 1 ? base : `${base}:${n}`, run };
    out.push({ change: 'open', part: state.open });
    return out;
  };

  return {
    close,
    messageId: (run) => callMessageId(run, Math.max(stateOf(run).calls - 1, 0)),
    changes(event) {
      const run = event.delegationId;
      const state = stateOf(run);
      const delta = DELTAS[event.type];
      if (delta !== undefined) {
        const text = (event as { delta: string }).delta;
        if (text === '') return [];
        // A call streams before it reports its usage, so the call in progress is number `calls`.
        const out = state.open?.kind === delta ? [] : open(run, delta, state.calls);
        state.streamed.add(delta);
        out.push({ change: 'delta', part: state.open!, delta: text });
        return out;
      }
      const whole = WHOLES[event.type];
      if (whole !== undefined) {
        if (state.streamed.delete(whole)) return state.open?.kind === whole ? close(run) : [];
        const text = (event as { text: string }).text;
        if (text === '') return [];
        // The whole text follows its call's usage event: it belongs to call number `calls - 1`.
        const out = open(run, whole, Math.max(state.calls - 1, 0));
        out.push({ change: 'delta', part: state.open!, delta: text }, ...close(run));
        return out;
      }
      if (event.type === 'usage') state.calls += 1;
      if (event.type === 'turn-end') return [...runs.keys()].flatMap(close);
      return [];
    },
  };
}
