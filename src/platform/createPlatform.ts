import type { SyndicateDefinition } from '../config/definition.js';
import type { DocumentContentStore } from '../memory/documents/contentStore.js';
import type { Documents } from '../memory/documents/documents.js';
import type { Embedder } from '../memory/embeddings/embedder.js';
import type { Memory } from '../memory/openMemory.js';
import { siloFor } from '../core/silo.js';
import { compileSyndicate, type CompiledSyndicate, type CompileOptions, type RemoteAgentFactory } from '../runtime/compileSyndicate.js';
import { errorMessage } from '../core/errors.js';
import type { TurnObserver } from '../core/events.js';
import type { WorkQueue } from '../scheduler/pgBoss/workQueue.js';
import type { Store } from '../store/store.js';
import { describeStoreLocation, documentsLocation, resolveStoreLocation, type StoreLocation } from '../store/storeLocation.js';
import { createUsageLedger } from '../telemetry/ledger/usageLedger.js';
import { setupTracing, type Tracing } from '../telemetry/setupTracing.js';
import { networkPolicyFromEnv, type NetworkPolicy } from '../tools/guards/ssrf.js';
import { mcpSettings, type McpClientSettings } from '../tools/mcp/settings.js';
import { backgroundWork } from './backgroundWork.js';

// The composition root: every face (run, chat, serve-a2a, mcp, the admin commands) gets its
// store, memory, usage ledger, tracing, network policy and MCP/A2A client settings from here,
// built from one configuration, and closes them through close() in the one right order.

/**
 * How remote A2A agents are reached. The A2A client lives with the A2A face (src/a2a/client),
 * above this layer, so the face hands it in (`a2aClient: a2aRemoteAgents`) and the platform
 * gives it these settings.
 */
export interface A2aClientConfig {
  /** The platform's network policy (the SSRF guard). */
  policy: NetworkPolicy;
  /** Where `a2a_auth_env` variables are read from. */
  env: NodeJS.ProcessEnv;
  /** Fetching an agent card; the client's default when undefined. */
  cardTimeoutMs?: number;
  /** CancelTask when a turn is cancelled; the client's default when undefined. */
  cancelTimeoutMs?: number;
}

export interface PlatformConfig {
  /**
   * The store: a SQLite file path, `sqlite:<path>` or `postgres://…` (or one parsed with
   * parseStoreLocation). Default: SYNDICATE_DB, else syndicate.db in the data directory.
   */
  store?: string | StoreLocation;
  /**
   * A folder for document bundles' content. Default: SYNDICATE_DOCUMENTS_DIR, else memory/ beside
   * the SQLite file, or the database itself on PostgreSQL.
   */
  documentsDir?: string;
  /**
   * Where SYNDICATE_DB, the OTLP endpoint, the SSRF switches (ALLOW_PRIVATE_MCP,
   * SYNDICATE_ALLOWED_HOSTS), provider keys and MCP/A2A header variables are read. Default: process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** Which addresses MCP servers, remote A2A agents and push webhooks may have. Default: from env. */
  network?: NetworkPolicy;
  /** MCP client timeouts over the defaults. */
  mcp?: Partial<Omit<McpClientSettings, 'policy' | 'env'>>;
  /** A2A client timeouts over the defaults. */
  a2a?: Pick<A2aClientConfig, 'cardTimeoutMs' | 'cancelTimeoutMs'>;
  /** The A2A client (src/a2a/client's a2aRemoteAgents). Without it, a syndicate with a remote agent fails when that agent is called, saying so. */
  a2aClient?: (settings: A2aClientConfig) => RemoteAgentFactory;
  /** Told about what fails off the turn: a ledger write, spans that cannot be exported. Default: stderr. */
  warn?: (message: string) => void;
}

/** What records one session's turns: its usage ledger and tracing. */
export interface Recorder {
  /** Give them to runTurn. */
  observers: TurnObserver[];
  /** The session's turns are over: resolves once its ledger rows are written (close() waits for them anyway). */
  settled(): Promise<void>;
}

/** Compile options the platform decides; the face gives the rest. */
export type FaceCompileOptions = Omit<CompileOptions, 'env' | 'mcp' | 'remoteAgents'>;

export interface Platform {
  readonly env: NodeJS.ProcessEnv;
  /** The store as a person reads it: the SQLite file's path, or the URL without its password. */
  readonly storeName: string;
  /** Where document bundles are kept as files; undefined when their content is in the database. */
  readonly documentsDir: string | undefined;
  readonly network: NetworkPolicy;
  readonly mcp: McpClientSettings;
  readonly a2a: A2aClientConfig;
  /** Undefined unless an OTLP endpoint is configured. */
  readonly tracing: Tracing | undefined;
  /** Compiles with the platform's env, MCP and A2A clients; the syndicate's connections close with the platform. */
  compile(definition: SyndicateDefinition, options?: FaceCompileOptions): CompiledSyndicate;
  /** The store, opened (created when missing) on first use; every call shares it. */
  store(): Promise<Store>;
  /**
   * The queue several processes on the store's PostgreSQL database share unattended work through
   * (pg-boss, scheduler/pgBoss), started on first use and stopped by close() before the store;
   * undefined on SQLite, whose one process keeps its queue in the store's tables.
   */
  workQueue(): Promise<WorkQueue | undefined>;
  /** The store when it exists already, else undefined: reading commands must not create an empty one. */
  existingStore(): Promise<Store | undefined>;
  /** The long-term memory of one silo of the syndicate (default: the local user's), opened once; undefined unless it keeps long-term memory. */
  memory(syndicate: CompiledSyndicate, silo?: string): Promise<Memory | undefined>;
  /** The store's documents, embedding with `embedder` (the admin commands). */
  documents(embedder: Embedder): Promise<Documents>;
  /** The usage ledger and tracing for one session's turns (sessionId null: a syndicate that keeps no sessions). */
  recorder(syndicate: string, sessionId: string | null): Recorder;
  /** Work not awaited by the face (distilling memory after a turn): close() waits for it. */
  track(work: Promise<void>): void;
  /**
   * Waits for tracked work, writes every ledger's last rows, stops the work queue, then closes the syndicates'
   * connections, exports the last spans and closes the store. Rejects with the first failure,
   * after trying every step.
   */
  close(): Promise<void>;
}

function stderrWarning(message: string): void {
  process.stderr.write(`${message}\n`);
}

export async function createPlatform(config: PlatformConfig = {}): Promise<Platform> {
  const env = config.env ?? process.env;
  const warn = config.warn ?? stderrWarning;
  const location = resolveStoreLocation(config.store, env);
  const documents = documentsLocation(location, config.documentsDir ?? (env.SYNDICATE_DOCUMENTS_DIR || undefined));
  const network = config.network ?? networkPolicyFromEnv(env);
  const mcp = mcpSettings({ ...config.mcp, policy: network, env });
  const a2a: A2aClientConfig = { ...config.a2a, policy: network, env };
  const remoteAgents = config.a2aClient?.(a2a);
  const tracing = await setupTracing(env, { warn });
  const syndicates: CompiledSyndicate[] = [];
  const recorders = new Set<Recorder>();
  const work = backgroundWork();
  // By syndicate name and silo: a syndicate served as itself and as a memory agent (compiled twice)
  // shares one memory per silo, so its documents' writes queue in one place.
  const memories = new Map<string, Promise<Memory | undefined>>();
  let opened: Promise<Store> | undefined;
  let content: Promise<DocumentContentStore> | undefined;
  let queue: Promise<WorkQueue | undefined> | undefined;
  let closing: Promise<void> | undefined;

  const live = (): void => {
    if (closing) throw new Error('the platform is closed');
  };

  // Imported on first use: the native SQLite binding is not needed for validate or --help.
  const openedStore = (): Promise<Store> => {
    opened ??= import('../store/openStore.js').then(({ openStore }) => openStore(location, env));
    return opened;
  };
  const store = async (): Promise<Store> => {
    live();
    return openedStore();
  };

  const workQueue = async (): Promise<WorkQueue | undefined> => {
    live();
    if (location.kind !== 'postgres') return undefined;
    const url = location.url;
    queue ??= (async () => {
      // The store first: its migrations run before pg-boss adds its own schema beside them.
      await openedStore();
      const { startWorkQueue } = await import('../scheduler/pgBoss/workQueue.js');
      return startWorkQueue(url, warn);
    })();
    return queue;
  };

  const existingStore = async (): Promise<Store | undefined> => {
    live();
    if (opened) return opened;
    const { openExistingStore } = await import('../store/openStore.js');
    const existing = await openExistingStore(location, env);
    // Another call may have opened the store meanwhile: keep one handle.
    if (existing && opened) {
      await existing.close();
      return opened;
    }
    if (existing) opened = Promise.resolve(existing);
    return existing;
  };

  const contentStore = (): Promise<DocumentContentStore> => {
    content ??= (async () => {
      const { databaseContentStore, fileContentStore } = await import('../memory/documents/index.js');
      return documents.kind === 'files' ? fileContentStore(documents.dir) : databaseContentStore((await openedStore()).documents);
    })();
    return content;
  };

  const openSiloMemory = async (syndicate: CompiledSyndicate, silo: string): Promise<Memory | undefined> => {
    if (!syndicate.extractionModel) return undefined;
    // Loaded only for long-term syndicates: the memory layer is a fifth of the CLI's code.
    const { openMemory } = await import('../memory/openMemory.js');
    return openMemory({
      store: await openedStore(),
      content: await contentStore(),
      silo,
      embedder: syndicate.embedder(),
      extractionModel: syndicate.extractionModel,
      extractionRules: syndicate.memoryExtractionRules,
    });
  };

  return {
    env,
    storeName: describeStoreLocation(location),
    documentsDir: documents.kind === 'files' ? documents.dir : undefined,
    network,
    mcp,
    a2a,
    tracing,
    compile(definition, options = {}) {
      live();
      const syndicate = compileSyndicate(definition, { ...options, env, mcp, remoteAgents });
      syndicates.push(syndicate);
      return syndicate;
    },
    store,
    workQueue,
    existingStore,
    memory(syndicate, silo = siloFor(syndicate.name)) {
      live();
      const key = JSON.stringify([syndicate.name, silo]);
      let memory = memories.get(key);
      if (!memory) memories.set(key, (memory = openSiloMemory(syndicate, silo)));
      return memory;
    },
    async documents(embedder) {
      live();
      const { createDocuments } = await import('../memory/documents/index.js');
      return createDocuments({ storage: (await openedStore()).documents, content: await contentStore(), embedder });
    },
    recorder(syndicate, sessionId) {
      live();
      // The store is opened by the first write: a run whose store cannot be opened loses its ledger rows, not its turn.
      const ledger = createUsageLedger({
        // While closing too: close() writes the last rows before it closes the store.
        store: { recordUsage: async (rows) => (await openedStore()).recordUsage(rows) },
        syndicate,
        sessionId,
        onError: (error) => warn(`warning: the usage ledger could not be written: ${errorMessage(error)}`),
      });
      const recorder: Recorder = {
        observers: [ledger.observe, ...(tracing ? [tracing.observer(sessionId ?? undefined)] : [])],
        settled: () => ledger.settled().finally(() => recorders.delete(recorder)),
      };
      recorders.add(recorder);
      return recorder;
    },
    track(piece) {
      live();
      work.track(piece);
    },
    close() {
      closing ??= (async () => {
        const failures: unknown[] = [];
        const attempt = (step: () => Promise<unknown>): Promise<void> => step().then(() => undefined, (error: unknown) => void failures.push(error));
        await attempt(() => work.settled());
        await attempt(() => Promise.all([...recorders].map((recorder) => recorder.settled())));
        // Its last completions are tracked work, settled above; the store's connections close after it.
        await attempt(async () => (await queue?.catch(() => undefined))?.stop());
        await Promise.all([
          attempt(() => Promise.all(syndicates.map((syndicate) => syndicate.close()))),
          attempt(async () => tracing?.shutdown()),
          // A store that failed to open was reported to whoever asked for it; there is nothing to close.
          attempt(async () => (await opened?.catch(() => undefined))?.close()),
        ]);
        if (failures.length > 0) throw failures[0];
      })();
      return closing;
    },
  };
}
