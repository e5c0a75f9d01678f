import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import type { DelegateKind, TurnEvent, TurnStatus } from '../../../core/events.js';
import type { StreamedEvent } from '../liveTurn.js';
import { brokenTurnEnd, type StreamFormat } from './streamFormat.js';
import { createRunParts, type PartChange } from './runParts.js';

// The AI SDK UI message stream (v1), what useChat and DefaultChatTransport read. The answer is the
// turn's root run (events outside any delegation): its text and thinking become text and reasoning
// parts, one step per model call. A subagent's thinking is a reasoning part too, its
// providerMetadata.syndicate naming the agent and its delegation (its text is its delegation's
// output, not part of the answer). Tool calls and delegations at any depth are dynamic tool parts
// (a delegation's tool is the agent it went to) whose `toolMetadata` names the agent that made the
// call and the delegation it made it in, so a subagent's calls sit under their delegation; each
// delegation is also a `data-delegation` part, updated in place by its callId, that says where it
// sits in the tree (parent, depth), what it went to (kind) and how it stands. The route is a `data-route` part; the turn's
// status is the finish chunk's metadata. However the turn ends, every part ends first: its text and
// reasoning (a delegation's, when the delegation ends), a call it ends before it answers as an
// output error, and a delegation that asked the user as answered with the question (its
// data-delegation part says input-required). A failed turn's error chunk comes last, after finish:
// useChat stops reading at an error chunk, so anything after it would never reach the message.

/** The data parts this stream adds to a UIMessage. */
export interface SyndicateDataParts {
  [name: string]: unknown;
  delegation: DelegationPart;
  route: { route: string; reason: string; source: string };
}

export interface DelegationPart {
  callId: string;
  agent: string;
  /** What it delegates to: a subagent, a mounted syndicate or a remote A2A agent. */
  kind: DelegateKind;
  /** The callId of the delegation this one was made in; null at the top of the tree. */
  parent: string | null;
  /** 1 for the root agent's delegations, +1 per level. */
  depth: number;
  /** A delegation the turn ended in takes the turn's status: 'input-required' when a subagent asked the user. */
  status: 'running' | 'completed' | 'failed' | 'cancelled' | 'input-required';
  request: string;
  output: string | null;
}

/** A tool part's `toolMetadata`: who made the call, and in which delegation. */
export type ToolCaller = {
  agent: string;
  /** The callId of the delegation whose run made the call; null for the root run. */
  delegation: string | null;
  /** The caller's depth: 0 for the root agent, +1 per delegation. */
  depth: number;
  /** The execute_code call whose script made the call (code mode). */
  parentCallId?: string;
};

/** What the finish chunk carries as the message's metadata. */
export interface TurnMetadata {
  status: TurnStatus;
  turnId: string;
}

type Chunk = UIMessageChunk<TurnMetadata, SyndicateDataParts>;

const FINISH_REASONS: Record<TurnStatus, 'stop' | 'other' | 'error'> = { completed: 'stop', 'input-required': 'other', failed: 'error', cancelled: 'other' };

function partChunk(change: PartChange): Chunk {
  const { kind, id } = change.part;
  if (change.change === 'delta') return kind === 'text' ? { type: 'text-delta', id, delta: change.delta } : { type: 'reasoning-delta', id, delta: change.delta };
  if (change.change === 'open') return kind === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id };
  return kind === 'text' ? { type: 'text-end', id } : { type: 'reasoning-end', id };
}

function callerOf(event: TurnEvent & { parentCallId?: string }): ToolCaller {
  return { agent: event.agent, delegation: event.delegationId ?? null, depth: event.depth, ...(event.parentCallId === undefined ? {} : { parentCallId: event.parentCallId }) };
}

export interface UiMessageMapper {
  (event: TurnEvent): Chunk[];
  /** The turn's stream is over: when it ended without its turn-end (the run broke outside the turn loop), ends the message failed. */
  end(): Chunk[];
}

/** Maps a turn's events, in order, to UI message chunks; one mapper per stream. */
export function createUiMessageMapper(): UiMessageMapper {
  const parts = createRunParts('');
  let turnId = '';
  let finished = false;
  let stepOpen = false;
  let callEnded = false;
  const delegations = new Map<string, DelegationPart>();
  /** Tool calls (not delegations) still waiting for their result. */
  const openCalls = new Set<string>();
  let rootSaid: string | undefined;

  const finishStep = (out: Chunk[]): void => {
    if (stepOpen) out.push({ type: 'finish-step' });
    stepOpen = false;
  };
  // A step is one model call of the root run and the tools it called; the next call starts the next.
  const inStep = (out: Chunk[]): void => {
    if (callEnded) finishStep(out);
    if (!stepOpen) out.push({ type: 'start-step' });
    stepOpen = true;
    callEnded = false;
  };
  // A root tool call ends the text before it (its message event closes it too, when it comes first).
  const callInStep = (out: Chunk[]): void => {
    out.push(...parts.close(undefined).map(partChunk));
    inStep(out);
  };
  const delegationChunk = (part: DelegationPart): Chunk => ({ type: 'data-delegation', id: part.callId, data: { ...part } });
  const toolInput = (event: TurnEvent & { parentCallId?: string }, toolCallId: string, toolName: string, input: unknown): Chunk => ({ type: 'tool-input-available', toolCallId, toolName, input, dynamic: true, toolMetadata: callerOf(event) });
  const toolOutput = (toolCallId: string, output: unknown, isError: boolean): Chunk =>
    isError ? { type: 'tool-output-error', toolCallId, errorText: typeof output === 'string' ? output : JSON.stringify(output), dynamic: true } : { type: 'tool-output-available', toolCallId, output, dynamic: true };

  const partChunks = (out: Chunk[], event: TurnEvent, changes: readonly PartChange[]): void => {
    for (const change of changes) {
      if (change.part.run === undefined) {
        if (change.change === 'open') inStep(out);
        out.push(partChunk(change));
      } else if (change.part.kind === 'reasoning') {
        // Of a subagent only its thinking: its text is its delegation's output, not part of the answer.
        out.push(change.change === 'open' ? { type: 'reasoning-start', id: change.part.id, providerMetadata: { syndicate: callerOf(event) } } : partChunk(change));
      }
    }
  };

  const map = (event: TurnEvent): Chunk[] => {
    const out: Chunk[] = [];
    if (finished) return out;
    const main = event.delegationId === undefined;
    partChunks(out, event, parts.changes(event));
    switch (event.type) {
      case 'turn-start':
        turnId = event.turnId;
        out.push({ type: 'start', messageId: event.turnId });
        break;
      case 'usage':
        if (main) callEnded = true;
        break;
      case 'message':
        if (main) rootSaid = event.text;
        break;
      case 'tool-call':
        if (main) callInStep(out);
        openCalls.add(event.callId);
        out.push(toolInput(event, event.callId, event.tool, event.input));
        break;
      case 'tool-result':
        openCalls.delete(event.callId);
        out.push(toolOutput(event.callId, event.output, event.isError));
        break;
      case 'delegation-start': {
        if (main) callInStep(out);
        const part: DelegationPart = { callId: event.callId, agent: event.to, kind: event.kind ?? 'subagent', parent: event.delegationId ?? null, depth: event.depth + 1, status: 'running', request: event.request, output: null };
        delegations.set(event.callId, part);
        out.push(toolInput(event, event.callId, event.to, { request: event.request }), delegationChunk(part));
        break;
      }
      case 'delegation-end': {
        const part = delegations.get(event.callId);
        // Thinking its run was cut off in (a subagent whose model failed) ends with it, in this step:
        // the reader forgets open parts at the step's end.
        partChunks(out, event, parts.close(event.callId));
        out.push(toolOutput(event.callId, event.output, event.isError));
        if (part) {
          Object.assign(part, { status: event.isError ? 'failed' : 'completed', output: event.output });
          out.push(delegationChunk(part));
        }
        break;
      }
      case 'route':
        out.push({ type: 'data-route', id: `route-${event.turnId}`, data: { route: event.route, reason: event.reason, source: event.source } });
        break;
      case 'turn-end': {
        finished = true;
        // What was still running will never answer: useChat would show its tool part waiting for good.
        const unanswered = `the turn ended ${event.status} before this call answered`;
        for (const callId of openCalls) out.push(toolOutput(callId, unanswered, true));
        for (const part of delegations.values()) {
          if (part.status !== 'running') continue;
          part.status = event.status;
          // One cut short by a cancel or a failure ends in error; one that asked the user answered its
          // caller with the question (left waiting, its tool part would never reach a final state).
          const cutShort = event.status === 'cancelled' || event.status === 'failed';
          out.push(toolOutput(part.callId, cutShort ? unanswered : event.output, cutShort), delegationChunk(part));
        }
        // A subagent's question ends the turn without the root agent saying it: the answer is the question.
        if (event.status === 'input-required' && event.output !== rootSaid) {
          const id = `question-${event.turnId}`;
          inStep(out);
          out.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: event.output }, { type: 'text-end', id });
        }
        finishStep(out);
        if (event.status === 'cancelled') out.push({ type: 'abort', reason: event.error ?? 'the turn was cancelled' });
        out.push({ type: 'finish', finishReason: FINISH_REASONS[event.status], messageMetadata: { status: event.status, turnId: event.turnId } });
        // A cancel is told by the abort chunk; subagents' errors reach the root run as their delegation's result.
        if (event.status === 'failed') out.push({ type: 'error', errorText: event.error ?? 'the turn failed' });
        break;
      }
      default:
        break;
    }
    return out;
  };
  const end = (): Chunk[] => map(brokenTurnEnd(turnId));
  return Object.assign(map, { end });
}

/** The chunks as SSE `data:` lines, ended by `[DONE]`, as the AI SDK's JsonToSseTransformStream writes them. */
export function uiMessageStreamFormat(): StreamFormat {
  const map = createUiMessageMapper();
  return {
    headers: { 'x-vercel-ai-ui-message-stream': UI_MESSAGE_STREAM_HEADERS['x-vercel-ai-ui-message-stream'] },
    encode: ({ event }: StreamedEvent) => map(event).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(''),
    close: () => `${map.end().map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`,
  };
}
