import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { errorMessage } from '../../core/errors.js';
import type { TurnContext } from '../../runtime/turnContext.js';
import { SETTLED_STATES } from '../taskStates.js';
import { stateName, textOfMessage, textOfParts, userMessage } from './parts.js';

// One request to a remote agent: a message sent over the SDK client (streamed when the card says
// so; the SDK falls back to a blocking send otherwise), its progress emitted as the remote
// agent's own events, and the task's last state read into an answer, a question or an error.

export type RemoteOutcome =
  | { kind: 'answer'; text: string; contextId: string }
  /** The task waits for the user: a reply that names `taskId` continues it. */
  | { kind: 'input-required'; question: string; taskId: string; contextId: string };

export interface RemoteRequest {
  client: Client;
  /** Our name for the remote agent: its events carry it. */
  name: string;
  depth: number;
  input: string;
  /** Continue this context (our session's conversation with the agent); '' starts one. */
  contextId: string;
  /** Continue this task (one that asked for input); '' starts one. */
  taskId: string;
  cancelTimeoutMs: number;
}

interface TaskProgress {
  taskId: string;
  contextId: string;
  state: TaskState | undefined;
  /** The text of the latest status message. */
  statusText: string;
  /** Artifact texts by artifact id, chunks joined as they arrive. */
  artifacts: Map<string, string>;
  /** Set when the agent answered with a message instead of a task. */
  reply: string | undefined;
}

function applyTask(progress: TaskProgress, task: Task): void {
  progress.taskId = task.id;
  progress.contextId = task.contextId;
  progress.state = task.status?.state;
  progress.statusText = textOfMessage(task.status?.message);
  // A blocking send returns the whole task at once, with every artifact in it.
  for (const artifact of task.artifacts) progress.artifacts.set(artifact.artifactId, textOfParts(artifact.parts));
}

function applyEvent(turn: TurnContext, request: RemoteRequest, progress: TaskProgress, event: StreamResponse): void {
  const payload = event.payload;
  if (payload === undefined) return;
  const emit = (body: Parameters<TurnContext['emit']>[2]): void => turn.emit(request.name, request.depth, body);
  switch (payload.$case) {
    case 'task':
      applyTask(progress, payload.value);
      return;
    case 'message':
      progress.reply = textOfMessage(payload.value);
      progress.contextId = payload.value.contextId;
      return;
    case 'statusUpdate': {
      const { status } = payload.value;
      progress.state = status?.state;
      progress.statusText = textOfMessage(status?.message);
      if (progress.statusText !== '' && !SETTLED_STATES.has(status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) {
        emit({ type: 'status', message: `Remote agent ${request.name}: ${progress.statusText}` });
      }
      return;
    }
    case 'artifactUpdate': {
      const { artifact, append } = payload.value;
      if (!artifact) return;
      const chunk = textOfParts(artifact.parts);
      progress.artifacts.set(artifact.artifactId, `${append ? (progress.artifacts.get(artifact.artifactId) ?? '') : ''}${chunk}`);
      if (chunk !== '') emit({ type: 'text-delta', delta: chunk });
      return;
    }
  }
}

function outcomeOf(progress: TaskProgress, name: string): RemoteOutcome {
  const { taskId, contextId, statusText } = progress;
  if (progress.reply !== undefined) return { kind: 'answer', text: progress.reply, contextId };
  const said = statusText === '' ? 'it gave no reason' : statusText;
  switch (progress.state) {
    case TaskState.TASK_STATE_COMPLETED: {
      const text = [...progress.artifacts.values()].filter((artifact) => artifact.trim() !== '').join('\n\n') || statusText;
      if (text.trim() === '') throw new Error('the remote agent completed its task without an answer (no artifact and no status message)');
      return { kind: 'answer', text, contextId };
    }
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      // The user reads the question as it is: without words from the agent, it says who asks.
      return { kind: 'input-required', question: statusText === '' ? `${name} needs more input, but did not say what.` : statusText, taskId, contextId };
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      throw new Error(`the remote agent asks for authentication (${said}): give it a bearer token with a2a_auth_env`);
    case TaskState.TASK_STATE_FAILED:
      throw new Error(`the remote agent's task failed: ${said}`);
    case TaskState.TASK_STATE_REJECTED:
      throw new Error(`the remote agent declined the request: ${said}`);
    case TaskState.TASK_STATE_CANCELED:
      throw new Error(`the remote agent cancelled its task: ${said}`);
    default:
      throw new Error(`the remote agent's answer ended while its task was still ${stateName(progress.state)}`);
  }
}

/** CancelTask, given up when `signal` aborts. Resolves to why the task could not be cancelled, or undefined once it is. */
export async function cancelTask(client: Client, taskId: string, signal: AbortSignal): Promise<string | undefined> {
  try {
    await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal });
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

/** Our turn was cancelled: the remote task is cancelled too, or the user hears why it could not be. */
async function cancelRemoteTask(turn: TurnContext, request: RemoteRequest, taskId: string): Promise<void> {
  const failure = await cancelTask(request.client, taskId, AbortSignal.timeout(request.cancelTimeoutMs));
  if (failure === undefined) return;
  turn.emit(request.name, request.depth, { type: 'warning', message: `Could not cancel the task ${taskId} of the remote agent ${request.name}, which may still be running: ${failure}` });
}

export async function runRemoteTask(turn: TurnContext, request: RemoteRequest): Promise<RemoteOutcome> {
  turn.signal.throwIfAborted();
  const progress: TaskProgress = { taskId: request.taskId, contextId: request.contextId, state: undefined, statusText: '', artifacts: new Map(), reply: undefined };
  const message = userMessage(request.input, request.contextId, request.taskId);
  // The stream is not cut when our turn is cancelled: CancelTask is sent as soon as the task id is
  // known (a cancel can come before the remote agent's first event), and the stream then ends with
  // the task's cancelled state. Only a remote agent that does not end it in time is cut off.
  const connection = new AbortController();
  let cancelling: Promise<void> | undefined;
  let cutOff: NodeJS.Timeout | undefined;
  const cancel = (): void => {
    if (cancelling || progress.taskId === '' || SETTLED_STATES.has(progress.state ?? TaskState.TASK_STATE_UNSPECIFIED)) return;
    cancelling = cancelRemoteTask(turn, request, progress.taskId);
  };
  const onAbort = (): void => {
    cancel();
    cutOff = setTimeout(() => connection.abort(turn.signal.reason), request.cancelTimeoutMs);
  };
  turn.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const stream = request.client.sendMessageStream({ tenant: '', message, configuration: undefined, metadata: undefined }, { signal: connection.signal });
    for await (const event of stream) {
      applyEvent(turn, request, progress, event);
      if (turn.signal.aborted) cancel();
    }
  } catch (error) {
    if (!turn.signal.aborted) throw new Error(`the request to the remote agent failed: ${errorMessage(error)}`);
  } finally {
    turn.signal.removeEventListener('abort', onAbort);
    clearTimeout(cutOff);
  }
  if (turn.signal.aborted) {
    await cancelling;
    turn.signal.throwIfAborted();
  }
  return outcomeOf(progress, request.name);
}
