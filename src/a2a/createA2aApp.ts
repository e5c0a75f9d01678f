import express, { type Express, type RequestHandler, type Router } from 'express';
import { AGENT_CARD_PATH, AgentCard } from '@a2a-js/sdk';
import {
  DefaultExecutionEventBusManager,
  type AgentExecutor,
  type ServerCallContext,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { TurnObserver } from '../core/events.js';
import type { Store } from '../store/store.js';
import { systemResolver, type ResolveHost } from '../tools/guards/guardedFetch.js';
import type { NetworkPolicy } from '../tools/guards/ssrf.js';
import { buildAgentCard, buildExtendedAgentCard, JSONRPC_PATH, REST_PATH, type AgentCardOptions } from './agentCard.js';
import { callerOfRequest, CallerUser } from './caller.js';
import { createTurnExecutor, type TurnExecutor, type TurnExecutorOptions } from './executor.js';
import { jsonRpcRequestOnly } from './jsonRpcRequest.js';
import { createPushSender, type VersionedPushStore } from './pushSender.js';
import { createPushStore } from './pushStore.js';
import { supportedJsonRpcVersionOnly } from './protocolVersion.js';
import { rateLimitedWarning, warnOnStderr, type Warn } from './rateLimitedWarning.js';
import { DEFAULT_RATE_LIMIT, createRateLimiter, rateGuards, type RateBucket, type RateLimit } from './rateLimit.js';
import { SyndicateRequestHandler, type CancelFollowUp } from './requestHandler.js';
import { cancelElsewhere } from './cancelElsewhere.js';
import { isLegacyRequest, jsonRpcErrors, restErrors, refusePlain, unanswered, type Refuse } from './refusals.js';
import { authenticate, authenticateWith, JSONRPC_TYPES, jsonOnly, loopbackOnly, parseJsonBody, REST_TYPES, type AuthenticateCaller } from './security.js';
import { createTaskStore, type BufferedTaskStore } from './taskStore.js';
import type { TrustProxy } from './trustProxy.js';
import { guardedPushStore } from './webhookGuard.js';

// The A2A face as an express app: one agent per served syndicate under /<agent-id>/, and a single
// syndicate also at the root. Built from a known public base URL (cards name absolute endpoint
// URLs), so a caller that listens on port 0 builds it once the port is known; the HTTP server
// face can mount the same app under its own path.

export interface ServedSyndicate {
  /** The path segment the agent is served under: see agentIdFor. */
  id: string;
  syndicate: CompiledSyndicate;
  /**
   * The version each new turn and card request uses, for a host that reloads edited files
   * (`syndicate serve`); `syndicate` when absent. A running turn keeps the version it started with.
   */
  current?: () => CompiledSyndicate;
}

/** An agent's cards now: of the syndicate's current version, built once per version. */
type CardsNow = () => { card: AgentCard; extended: AgentCard };

/** An agent that is not a syndicate's turn (the memory agent): its own executor and cards. */
export interface ServedAgent {
  id: string;
  executor: AgentExecutor;
  cards(options: AgentCardOptions): { card: AgentCard; extended: AgentCard };
}

export interface A2aAppOptions {
  agents: readonly ServedSyndicate[];
  /** Served beside the syndicates under /<id>/, never at the root. */
  moreAgents?: readonly ServedAgent[];
  store: Store;
  /** This process's task lease name (see taskLease.ts): the runner of every task state it saves. */
  runner: string;
  /** The app's public base URL, without a trailing slash. */
  baseUrl: string;
  /** The bearer secret; undefined only on a loopback bind (serveA2a enforces this). */
  secret: string | undefined;
  /**
   * Replaces the secret: the host (`syndicate serve`) authenticates with its own users and keys and
   * says who calls. Mounted that way the face's cards say it is secured.
   */
  authenticateCaller?: AuthenticateCaller;
  /** Check Host and Origin against loopback names (DNS-rebinding protection). */
  loopbackOnly: boolean;
  version: string;
  maxBodyBytes?: number;
  rateLimit?: RateLimit;
  /** The buckets requests count against, shared with the host's other faces; by default one per address, at rateLimit. */
  rateBuckets?: readonly RateBucket[];
  /** Which proxies may name the client (X-Forwarded-For) that rate limiting counts; none by default. */
  trustProxy?: TrustProxy;
  /** Which webhook addresses push notifications may go to (the SSRF guard's policy). */
  webhookPolicy: NetworkPolicy;
  /** How webhook host names are resolved, at registration and at each delivery; the system's resolver by default. */
  resolveHost?: ResolveHost;
  /** Push-notification delivery timeout per webhook call. */
  pushTimeoutMs?: number;
  observers?: readonly TurnObserver[];
  /** Where the face's warnings go (a refused protocol version, a failed webhook delivery); stderr by default. */
  warn?: Warn;
  turnOptions?: TurnExecutorOptions['turnOptions'];
  afterTurn?: TurnExecutorOptions['afterTurn'];
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A URL path segment from a syndicate name: lower case letters, digits and dashes. */
export function agentIdFor(name: string): string {
  const id = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
  return id || 'syndicate';
}

interface AgentParts {
  executor: AgentExecutor;
  taskStore: TaskStore;
  buses: DefaultExecutionEventBusManager;
  pushStore: VersionedPushStore;
  /** A syndicate's cancels: of a turn another server runs, of a waiting task the SDK canceled without the executor. */
  followUp?: CancelFollowUp;
}

function cardOptionsFor(baseUrl: string, options: A2aAppOptions): AgentCardOptions {
  return { baseUrl, secured: options.secret !== undefined || options.authenticateCaller !== undefined, version: options.version };
}

function syndicateCards(current: () => CompiledSyndicate, cardOptions: AgentCardOptions): CardsNow {
  let built: { of: CompiledSyndicate; cards: ReturnType<CardsNow> } | undefined;
  return () => {
    const syndicate = current();
    if (built?.of !== syndicate) built = { of: syndicate, cards: { card: buildAgentCard(syndicate, cardOptions), extended: buildExtendedAgentCard(syndicate, cardOptions) } };
    return built.cards;
  };
}

function agentCards(cards: ServedAgent['cards'], cardOptions: AgentCardOptions): CardsNow {
  const built = cards(cardOptions);
  return () => built;
}

/** The guards every endpoint starts with (Host and Origin, rate), refusing in its error shape. */
type Admission = (refuse: Refuse) => RequestHandler[];

/** What every agent's router shares. */
interface Shared {
  admission: Admission;
  /** Warnings of refused protocol versions, which any caller can send on every request. */
  versionWarning: Warn;
  /** Warnings of failed webhook deliveries, which a caller's webhook can cause at every update. */
  pushWarning: Warn;
}

function agentRouter(parts: AgentParts, cards: CardsNow, options: A2aAppOptions, { admission, versionWarning, pushWarning }: Shared): Router {
  // Capabilities and protocol versions do not change between a syndicate's versions; the rest of the card may.
  const { card } = cards();
  const authenticated = (refuse: Refuse): RequestHandler => (options.authenticateCaller ? authenticateWith(options.authenticateCaller, refuse) : authenticate(options.secret, refuse));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const handler = new SyndicateRequestHandler(
    parts.followUp,
    () => cards().card,
    card,
    parts.taskStore,
    parts.executor,
    parts.buses,
    parts.pushStore,
    createPushSender({
      store: parts.pushStore,
      policy: options.webhookPolicy,
      resolve: options.resolveHost ?? systemResolver,
      timeoutMs: options.pushTimeoutMs ?? 5_000,
      warn: pushWarning,
    }),
    async (context: ServerCallContext): Promise<AgentCard> => (context.user?.isAuthenticated ? cards().extended : cards().card),
  );
  const userBuilder = async (req: express.Request) => new CallerUser(callerOfRequest(req));
  const legacyCompat = { enabled: true };
  const router = express.Router();
  // The card is public: discovery comes before authentication. A 1.0 client gets the card in the
  // spec's JSON form (the SDK's handler writes its internal shape, where a security scheme's oneof
  // reads {"$case": ...}); 0.3 clients, which send no version, get the SDK's translated card.
  router.use(`/${AGENT_CARD_PATH}`, ...admission(refusePlain));
  router.get(`/${AGENT_CARD_PATH}`, (req, res, next) => (isLegacyRequest(req) ? next() : res.json(AgentCard.toJSON(cards().card))));
  router.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, legacyCompat }), unanswered(refusePlain, options.warn ?? warnOnStderr));
  // Each binding's guards refuse in its own error shape. Authentication comes before the body is
  // read: nothing of an unauthenticated caller is parsed.
  router.use(
    JSONRPC_PATH,
    ...admission(jsonRpcErrors.refuse),
    jsonOnly(JSONRPC_TYPES, jsonRpcErrors.refuse),
    authenticated(jsonRpcErrors.refuse),
    ...parseJsonBody(maxBodyBytes, JSONRPC_TYPES, jsonRpcErrors),
    jsonRpcRequestOnly(),
    supportedJsonRpcVersionOnly(card, versionWarning),
    jsonRpcHandler({ requestHandler: handler, userBuilder, legacyCompat }),
    unanswered(jsonRpcErrors.refuse, options.warn ?? warnOnStderr),
  );
  router.use(
    REST_PATH,
    ...admission(restErrors.refuse),
    jsonOnly(REST_TYPES, restErrors.refuse),
    authenticated(restErrors.refuse),
    ...parseJsonBody(maxBodyBytes, REST_TYPES, restErrors),
    restHandler({ requestHandler: handler, userBuilder, legacyCompat }),
    unanswered(restErrors.refuse, options.warn ?? warnOnStderr),
  );
  return router;
}

export interface A2aApp {
  app: Express;
  /** Resolves once every task state the agents hold back has been written: before the store closes. */
  settled(): Promise<void>;
  /** Stops the turn of an agent's task if this process runs it: a cancel another server heard (see cancelElsewhere.ts). */
  abortTurn(agent: string, taskId: string): void;
}

export function createA2aApp(options: A2aAppOptions): A2aApp {
  const ids = new Set<string>();
  for (const { id } of [...options.agents, ...(options.moreAgents ?? [])]) {
    if (ids.has(id)) throw new Error(`two served syndicates share the agent id '${id}': rename one (syndicate_name) or serve them from separate processes`);
    ids.add(id);
  }
  const app = express();
  app.disable('x-powered-by');
  // Express hashes every response body for an ETag; no A2A client sends If-None-Match to a POST.
  app.disable('etag');
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  // One set of buckets: a client's requests to every agent and endpoint share its bucket.
  const buckets = options.rateBuckets ?? [{ limiter: createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT) }];
  const admission: Admission = (refuse) => [...(options.loopbackOnly ? [loopbackOnly(refuse)] : []), ...rateGuards(buckets, refuse)];
  const warn = options.warn ?? warnOnStderr;
  const shared: Shared = { admission, versionWarning: rateLimitedWarning(warn), pushWarning: rateLimitedWarning(warn) };
  const taskStores: BufferedTaskStore[] = [];
  const turnExecutors = new Map<string, TurnExecutor>();
  const partsOf = (id: string, executorOf: (taskStore: BufferedTaskStore) => AgentExecutor | TurnExecutor): AgentParts => {
    const taskStore = createTaskStore(options.store.tasks, id, options.runner);
    taskStores.push(taskStore);
    const executor = executorOf(taskStore);
    const turns = turnExecutors.get(id);
    return {
      executor,
      followUp: turns && {
        tasks: taskStore,
        runsHere: turns.runs,
        cancelElsewhere: (task, context) => cancelElsewhere(task, context, { records: options.store.tasks, tasks: taskStore, agent: id }),
        waitingCanceled: turns.waitingCanceled,
      },
      taskStore,
      buses: new DefaultExecutionEventBusManager(),
      pushStore: guardedPushStore(createPushStore(options.store.tasks, id), options.webhookPolicy, options.resolveHost ?? systemResolver),
    };
  };
  for (const { id, syndicate, current = () => syndicate } of options.agents) {
    const parts = partsOf(id, (taskStore) => {
      const executor = createTurnExecutor({
        agentId: id,
        syndicate: current,
        store: options.store,
        observers: options.observers,
        turnOptions: options.turnOptions,
        afterTurn: options.afterTurn,
        mintedTask: taskStore.minted,
      });
      turnExecutors.set(id, executor);
      return executor;
    });
    app.use(`/${id}`, agentRouter(parts, syndicateCards(current, cardOptionsFor(`${options.baseUrl}/${id}`, options)), options, shared));
    // The root serves the same agent (same tasks, same live streams) under root URLs.
    if (options.agents.length === 1) app.use('/', agentRouter(parts, syndicateCards(current, cardOptionsFor(options.baseUrl, options)), options, shared));
  }
  for (const { id, executor, cards } of options.moreAgents ?? []) {
    app.use(`/${id}`, agentRouter(partsOf(id, () => executor), agentCards(cards, cardOptionsFor(`${options.baseUrl}/${id}`, options)), options, shared));
  }
  return {
    app,
    settled: async () => void (await Promise.all(taskStores.map((store) => store.written()))),
    abortTurn: (agent, taskId) => turnExecutors.get(agent)?.abortTurn(taskId),
  };
}
