import type { RetryPolicy } from '../models/retry.js';
import type { CompiledSyndicate } from './compileSyndicate.js';
import type { TurnEventBody } from './events.js';
import type { TurnRecord } from './projectTranscript.js';

/** What every part of one running turn shares. */
export interface TurnContext {
  turnId: string;
  sessionId: string | undefined;
  syndicate: CompiledSyndicate;
  signal: AbortSignal;
  /** How model calls are retried and timed out. */
  retry: RetryPolicy;
  /** Call doStream (live deltas) rather than doGenerate. */
  stream: boolean;
  /** Earlier turns of the session (empty when nothing is persisted). */
  history: readonly TurnRecord[];
  /** The turn's clock reading, for `{{current_date}}`. */
  now: Date;
  emit(agent: string, depth: number, body: TurnEventBody): void;
  /** Commits the events buffered so far: called at every step boundary. */
  flush(): Promise<void>;
}
