import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, Role, TaskState, type AgentCard, type Message, type Part, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  InMemoryTaskStore,
  UnauthenticatedUser,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';

// A remote A2A agent for the client's tests, built only from the SDK's own server pieces and a
// tiny executor: never from our server, so the client is checked against the SDK's reading of
// the protocol. Each request's text is answered by the test's `reply` function.

export type Binding = 'JSONRPC' | 'HTTP+JSON';

/** What the remote agent does with one message: answer, report progress, ask for input or hang. */
export type RemoteStep =
  | { kind: 'answer'; progress?: string[]; chunks: string[] }
  | { kind: 'ask'; question: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'hang' };

export interface ReceivedMessage {
  text: string;
  taskId: string;
  contextId: string;
  /** The task the client continued (its taskId), if any. */
  continuedTaskId: string;
  authorization: string | undefined;
}

export interface RemoteServerOptions {
  name?: string;
  description?: string;
  bindings?: readonly Binding[];
  streaming?: boolean;
  /** A bearer token every A2A request (not the card) must carry. */
  token?: string;
  /** The first this many card requests answer 503, as an agent that is still starting would. */
  cardFailures?: number;
  /** Every CancelTask fails (after being noted in `cancelled`), as an agent that cannot cancel would. */
  cancelFails?: boolean;
  reply: (text: string, received: readonly ReceivedMessage[]) => RemoteStep;
}

export interface RemoteServer {
  /** The agent card URL. */
  cardUrl: string;
  baseUrl: string;
  received: ReceivedMessage[];
  /** Ids of tasks the client cancelled. */
  cancelled: string[];
  /** Resolves when a request reaches a `hang` step. */
  hanging: Promise<void>;
  stop(): Promise<void>;
}

/** The fields of a sent message the server notes, as JSON-RPC and HTTP+JSON bodies carry them. */
interface SentMessage {
  messageId?: string;
  taskId?: string;
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return { messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function textOf(message: Message): string {
  return message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

function publishState(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, text?: string): void {
  const message = text === undefined ? undefined : agentMessage(text, taskId, contextId);
  bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined }));
}

/** What the executor cannot see in a message, noted by message id as the request comes in. */
interface Envelope {
  authorization: string | undefined;
  /** The task id the client sent (the SDK fills in a new task's own id before the executor sees it). */
  taskId: string;
}

function createExecutor(options: RemoteServerOptions, server: { received: ReceivedMessage[]; cancelled: string[]; onHang: () => void }, envelopes: Map<string, Envelope>): AgentExecutor {
  const hung = new Map<string, { contextId: string; release: () => void }>();
  // Tasks waiting for input, by id, with their context: cancelling one ends it.
  const asking = new Map<string, string>();
  return {
    async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const { taskId, contextId } = context;
      const text = textOf(context.userMessage);
      const envelope = envelopes.get(context.userMessage.messageId);
      server.received.push({ text, taskId, contextId, continuedTaskId: envelope?.taskId ?? '', authorization: envelope?.authorization });
      const submitted = { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() };
      const task: Task = context.task ? { ...context.task, status: submitted } : { id: taskId, contextId, status: submitted, artifacts: [], history: [context.userMessage], metadata: undefined };
      bus.publish(AgentEvent.task(task));
      const step = options.reply(text, server.received);
      asking.delete(taskId);
      if (step.kind === 'ask') {
        asking.set(taskId, contextId);
        return publishState(bus, taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, step.question);
      }
      if (step.kind === 'fail') return publishState(bus, taskId, contextId, TaskState.TASK_STATE_FAILED, step.reason);
      if (step.kind === 'hang') {
        publishState(bus, taskId, contextId, TaskState.TASK_STATE_WORKING, 'Thinking hard.');
        await new Promise<void>((release) => {
          hung.set(taskId, { contextId, release });
          server.onHang();
        });
        return;
      }
      for (const progress of step.progress ?? []) publishState(bus, taskId, contextId, TaskState.TASK_STATE_WORKING, progress);
      const artifactId = crypto.randomUUID();
      step.chunks.forEach((chunk, index) => {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId, name: 'answer', description: '', parts: [textPart(chunk)], metadata: undefined, extensions: [] },
            append: index > 0,
            lastChunk: index === step.chunks.length - 1,
            metadata: undefined,
          }),
        );
      });
      publishState(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED);
    },

    async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
      server.cancelled.push(taskId);
      if (options.cancelFails) throw new Error('this agent cannot cancel its tasks');
      const askingIn = asking.get(taskId);
      if (askingIn !== undefined) {
        asking.delete(taskId);
        return publishState(bus, taskId, askingIn, TaskState.TASK_STATE_CANCELED, 'Cancelled by the client.');
      }
      const task = hung.get(taskId);
      if (!task) return;
      hung.delete(taskId);
      publishState(bus, taskId, task.contextId, TaskState.TASK_STATE_CANCELED, 'Cancelled by the client.');
      task.release();
    },
  };
}

function cardOf(options: RemoteServerOptions, baseUrl: string): AgentCard {
  const bindings = options.bindings ?? ['JSONRPC'];
  const paths: Record<Binding, string> = { JSONRPC: '/jsonrpc', 'HTTP+JSON': '/rest' };
  return {
    name: options.name ?? 'Weather Service',
    description: options.description ?? 'Forecasts the weather for any city.',
    supportedInterfaces: bindings.map((binding) => ({ url: `${baseUrl}${paths[binding]}`, protocolBinding: binding, tenant: '', protocolVersion: A2A_PROTOCOL_VERSION })),
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: options.streaming ?? true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
}

export async function startRemoteServer(options: RemoteServerOptions): Promise<RemoteServer> {
  const app = express();
  const http: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  let onHang: () => void = () => undefined;
  const hanging = new Promise<void>((resolve) => (onHang = resolve));
  const state = { received: [] as ReceivedMessage[], cancelled: [] as string[], onHang: () => onHang() };
  // The executor sees messages, not HTTP requests: what each message came with is noted by its
  // message id on the way in.
  const envelopes = new Map<string, Envelope>();
  const card = cardOf(options, baseUrl);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), createExecutor(options, state, envelopes), new DefaultExecutionEventBusManager());
  const userBuilder = async () => new UnauthenticatedUser();
  let cardFailures = options.cardFailures ?? 0;
  app.use(`/${AGENT_CARD_PATH}`, (_req, res, next) => {
    if (cardFailures-- <= 0) return next();
    res.status(503).json({ error: 'starting up' });
  });
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use(express.json({ type: ['application/json', 'application/a2a+json'] }), (req, res, next) => {
    const authorization = req.header('authorization');
    if (options.token !== undefined && authorization !== `Bearer ${options.token}`) {
      res.status(401).json({ error: 'missing or wrong bearer token' });
      return;
    }
    const body = req.body as { params?: { message?: SentMessage }; message?: SentMessage } | undefined;
    const message = body?.params?.message ?? body?.message;
    if (message?.messageId) envelopes.set(message.messageId, { authorization, taskId: message.taskId ?? '' });
    next();
  });
  app.use('/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder }));
  return {
    cardUrl: `${baseUrl}/${AGENT_CARD_PATH}`,
    baseUrl,
    received: state.received,
    cancelled: state.cancelled,
    hanging,
    stop: () =>
      new Promise((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
