// The one event stream a turn produces. Every face (CLI, servers, telemetry) consumes it;
// none re-implements the turn loop. Events marked "live only" are not persisted: their
// content is stored once, coalesced, as `message` / `thinking` events.

/** 'input-required': an agent asked the user a question (ask_user); the turn-end's output is the question. */
export type TurnStatus = 'completed' | 'failed' | 'cancelled' | 'input-required';

export type ModelCallOutcome = 'ok' | 'error' | 'cancelled';

/** Why a model stopped generating, as the AI SDK unifies it across providers. */
export type ModelFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

export interface UsageFigures {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
}

/** What a model call reported beyond its usage; each field only when known. */
export interface ModelCallDetails {
  finishReason?: ModelFinishReason;
  /** The model the provider says answered (often a dated version of `model`). */
  responseModel?: string;
  /** Why the call failed, when `outcome` is not 'ok'. */
  error?: string;
}

/**
 * What an agent a turn hands work to is, as its syndicate declares it: a subagent, a whole syndicate
 * mounted with yaml_reference, or a remote A2A agent (a2a_url). Carried by the events that start its
 * run, so a face shows it without the syndicate file (which may have changed since). Absent on
 * events stored before it was carried.
 */
export type DelegateKind = 'subagent' | 'syndicate' | 'remote';

/** Each kind as people read it, the same in the CLI's trace and the studio's tree. */
export const DELEGATE_KIND_NAMES: Readonly<Record<DelegateKind, string>> = { subagent: 'subagent', syndicate: 'nested syndicate', remote: 'remote A2A agent' };

/** What a delegation or route went to, when it is more than a subagent of this syndicate: ' (nested syndicate)'. */
export function delegateKindNote(kind: DelegateKind | undefined): string {
  return kind === undefined || kind === 'subagent' ? '' : ` (${DELEGATE_KIND_NAMES[kind]})`;
}

export type TurnEventBody =
  | { type: 'turn-start'; syndicate: string; input: string }
  /** 'continuation': the message answers a question the route asked at the end of the last turn. */
  | { type: 'route'; route: string; reason: string; source: 'override' | 'classifier' | 'fallback' | 'continuation'; kind?: DelegateKind }
  /** parentCallId (on these four): the execute_code call whose script made this call (code mode). */
  | { type: 'delegation-start'; to: string; request: string; callId: string; kind?: DelegateKind; parentCallId?: string }
  | { type: 'delegation-end'; to: string; callId: string; output: string; isError: boolean; parentCallId?: string }
  | { type: 'tool-call'; tool: string; callId: string; input: unknown; parentCallId?: string }
  | { type: 'tool-result'; tool: string; callId: string; output: unknown; isError: boolean; parentCallId?: string }
  /** live only */
  | { type: 'text-delta'; delta: string }
  /** live only */
  | { type: 'thinking-delta'; delta: string }
  /** An agent's complete text for one model step. */
  | { type: 'message'; text: string }
  /** An agent's complete thinking for one model step: stored, never fed back to a model. */
  | { type: 'thinking'; text: string }
  | { type: 'status'; message: string }
  /**
   * Where a remote A2A agent's conversation with this session stands after a request: the remote
   * context, and the remote task that waits for the user's answer ('' when none). Stored, so a
   * later turn in any process continues the same remote context and task.
   */
  | { type: 'remote-conversation'; contextId: string; waitingTaskId: string }
  /**
   * The question the turn ended on is withdrawn (its A2A task was cancelled while it waited): the
   * next message is not its answer. Stored after the turn's end, with the turn's id; remote tasks
   * that waited for the answer have been cancelled (or a warning says why not).
   */
  | { type: 'question-withdrawn' }
  | { type: 'warning'; message: string }
  /** activate_skill loaded a skill's instructions (once per turn): its name and the content hash of its files. */
  | { type: 'skill-activated'; skill: string; hash: string }
  /** One per model call, whatever its outcome: the source of the usage ledger and model spans. */
  | ({ type: 'usage'; provider: string; model: string; latencyMs: number; outcome: ModelCallOutcome } & UsageFigures & ModelCallDetails)
  | { type: 'error'; message: string; code: string }
  /** `interrupted`: a cancelled turn the server's shutdown stopped (its grace period ran out); the session can go on. */
  | { type: 'turn-end'; status: TurnStatus; output: string; error?: string; interrupted?: true };

export type TurnEventType = TurnEventBody['type'];

/** Common envelope: which turn, which agent, and when. */
export interface TurnEventEnvelope {
  turnId: string;
  agent: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** Nesting level of `agent`: 0 for the root, +1 per delegation. */
  depth: number;
  /**
   * The callId of the delegation that started this run of `agent` (a routed specialist's events
   * carry its dispatcher's); absent on the root run. Tells parallel runs of one subagent apart.
   */
  delegationId?: string;
}

export type TurnEvent = TurnEventEnvelope & TurnEventBody;

/** Told about every event of a turn, in order, as it happens (a ledger, tracing, a progress printer). */
export type TurnObserver = (event: TurnEvent) => void;

export type TurnEventOf<T extends TurnEventType> = TurnEventEnvelope & Extract<TurnEventBody, { type: T }>;

const LIVE_ONLY: ReadonlySet<TurnEventType> = new Set(['text-delta', 'thinking-delta']);

export function isPersisted(event: TurnEvent): boolean {
  return !LIVE_ONLY.has(event.type);
}
