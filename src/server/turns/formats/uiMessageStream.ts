import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import type { TurnEvent, TurnStatus } from '../../../core/events.js';
import type { StreamedEvent } from '../liveTurn.js';
import type { StreamFormat } from './streamFormat.js';

// The AI SDK UI message stream (v1), what useChat and DefaultChatTransport read. The answer is the
// turn's main run (events outside any delegation): its text and thinking become text and reasoning
// parts, one step per model call. Tool calls and delegations at any depth are dynamic tool parts
// (a delegation's tool is the agent it went to); each delegation is also a `data-delegation` part,
// updated in place by its callId, that says where it sits in the tree (parent, depth) and how it
// stands. The route is a `data-route` part; the turn's status is the finish chunk's metadata.

/** The data parts this stream adds to a UIMessage. */
export interface SyndicateDataParts {
  [name: string]: unknown;
  delegation: DelegationPart;
  route: { route: string; reason: string; source: string };
}

export interface DelegationPart {
  callId: string;
  agent: string;
  /** The callId of the delegation this one was made in; null at the top of the tree. */
  parent: string | null;
  /** 1 for the root agent's delegations, +1 per level. */
  depth: number;
  status: 'running' | 'completed' | 'failed';
  request: string;
  output: string | null;
}

/** What the finish chunk carries as the message's metadata. */
export interface TurnMetadata {
  status: TurnStatus;
  turnId: string;
}

type Chunk = UIMessageChunk<TurnMetadata, SyndicateDataParts>;

const FINISH_REASONS: Record<TurnStatus, 'stop' | 'other' | 'error'> = { completed: 'stop', 'input-required': 'other', failed: 'error', cancelled: 'other' };

/** Maps a turn's events, in order, to UI message chunks; one mapper per stream. */
export function createUiMessageMapper(): (event: TurnEvent) => Chunk[] {
  let parts = 0;
  let text: string | undefined;
  let reasoning: string | undefined;
  let stepOpen = false;
  let callEnded = false;
  const delegations = new Map<string, DelegationPart>();

  const closeText = (out: Chunk[]): void => {
    if (text !== undefined) out.push({ type: 'text-end', id: text });
    text = undefined;
  };
  const closeReasoning = (out: Chunk[]): void => {
    if (reasoning !== undefined) out.push({ type: 'reasoning-end', id: reasoning });
    reasoning = undefined;
  };
  const closeStep = (out: Chunk[]): void => {
    closeText(out);
    closeReasoning(out);
    if (stepOpen) out.push({ type: 'finish-step' });
    stepOpen = false;
  };
  // A step is one model call of the main run and the tools it called; the next call starts the next.
  const inStep = (out: Chunk[]): void => {
    if (stepOpen && callEnded) closeStep(out);
    if (!stepOpen) out.push({ type: 'start-step' });
    stepOpen = true;
    callEnded = false;
  };
  const openText = (out: Chunk[]): string => {
    closeReasoning(out);
    return (text ??= (out.push({ type: 'text-start', id: `text-${++parts}` }), `text-${parts}`));
  };
  const openReasoning = (out: Chunk[]): string => {
    closeText(out);
    return (reasoning ??= (out.push({ type: 'reasoning-start', id: `reasoning-${++parts}` }), `reasoning-${parts}`));
  };
  const delegationChunk = (part: DelegationPart): Chunk => ({ type: 'data-delegation', id: part.callId, data: { ...part } });

  return (event) => {
    const out: Chunk[] = [];
    const main = event.delegationId === undefined;
    switch (event.type) {
      case 'turn-start':
        out.push({ type: 'start', messageId: event.turnId });
        break;
      case 'text-delta':
        if (!main || event.delta === '') break;
        inStep(out);
        out.push({ type: 'text-delta', id: openText(out), delta: event.delta });
        break;
      case 'message':
        if (!main) break;
        // Without deltas (a model that does not stream) the whole text comes here.
        if (text === undefined && event.text !== '') {
          inStep(out);
          out.push({ type: 'text-delta', id: openText(out), delta: event.text });
        }
        closeText(out);
        break;
      case 'thinking-delta':
        if (!main || event.delta === '') break;
        inStep(out);
        out.push({ type: 'reasoning-delta', id: openReasoning(out), delta: event.delta });
        break;
      case 'thinking':
        if (!main) break;
        if (reasoning === undefined && event.text !== '') {
          inStep(out);
          out.push({ type: 'reasoning-delta', id: openReasoning(out), delta: event.text });
        }
        closeReasoning(out);
        break;
      case 'usage':
        if (main) callEnded = true;
        break;
      case 'tool-call':
        if (main) inStep(out);
        out.push({ type: 'tool-input-available', toolCallId: event.callId, toolName: event.tool, input: event.input, dynamic: true });
        break;
      case 'tool-result':
        out.push(
          event.isError
            ? { type: 'tool-output-error', toolCallId: event.callId, errorText: typeof event.output === 'string' ? event.output : JSON.stringify(event.output), dynamic: true }
            : { type: 'tool-output-available', toolCallId: event.callId, output: event.output, dynamic: true },
        );
        break;
      case 'delegation-start': {
        if (main) inStep(out);
        const part: DelegationPart = { callId: event.callId, agent: event.to, parent: event.delegationId ?? null, depth: event.depth + 1, status: 'running', request: event.request, output: null };
        delegations.set(event.callId, part);
        out.push({ type: 'tool-input-available', toolCallId: event.callId, toolName: event.to, input: { request: event.request }, dynamic: true }, delegationChunk(part));
        break;
      }
      case 'delegation-end': {
        const part = delegations.get(event.callId);
        out.push(event.isError ? { type: 'tool-output-error', toolCallId: event.callId, errorText: event.output, dynamic: true } : { type: 'tool-output-available', toolCallId: event.callId, output: event.output, dynamic: true });
        if (part) {
          Object.assign(part, { status: event.isError ? 'failed' : 'completed', output: event.output });
          out.push(delegationChunk(part));
        }
        break;
      }
      case 'route':
        out.push({ type: 'data-route', id: `route-${event.turnId}`, data: { route: event.route, reason: event.reason, source: event.source } });
        break;
      case 'error':
        // A cancel is told by the abort chunk at the end; subagents' errors reach the main run as their delegation's result.
        if (main && event.code !== 'cancelled') out.push({ type: 'error', errorText: event.message });
        break;
      case 'turn-end':
        closeStep(out);
        if (event.status === 'cancelled') out.push({ type: 'abort', reason: event.error ?? 'the turn was cancelled' });
        out.push({ type: 'finish', finishReason: FINISH_REASONS[event.status], messageMetadata: { status: event.status, turnId: event.turnId } });
        break;
      default:
        break;
    }
    return out;
  };
}

/** The chunks as SSE `data:` lines, ended by `[DONE]`, as the AI SDK's JsonToSseTransformStream writes them. */
export function uiMessageStreamFormat(): StreamFormat {
  const map = createUiMessageMapper();
  return {
    headers: { 'x-vercel-ai-ui-message-stream': UI_MESSAGE_STREAM_HEADERS['x-vercel-ai-ui-message-stream'] },
    encode: ({ event }: StreamedEvent) => map(event).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(''),
    close: () => 'data: [DONE]\n\n',
  };
}
