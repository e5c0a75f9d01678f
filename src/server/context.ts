import type { SyndicateDefinition } from '../config/definition.js';
import type { Platform } from '../platform/createPlatform.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { RunTaskTurn } from '../scheduler/tasks/index.js';
import type { AnyRoute, Authenticate } from './http/route.js';

// What the server's parts share. The server (createServerApp) builds one ServerContext and hands
// it to each part; each part gives back its routes under /api/v1.

/** A syndicate file as it loaded last time it was valid. */
export interface LoadedSyndicate {
  /** The URL segment: agentIdFor(name) (/api/v1/syndicates/<id>, /a2a/<id>/). */
  id: string;
  name: string;
  file: string;
  definition: SyndicateDefinition;
  compiled: CompiledSyndicate;
  warnings: string[];
  /** Milliseconds since the epoch. */
  loadedAt: number;
}

/** Why the file's latest version did not load; the previous version (if any) keeps running. */
export interface LoadFailure {
  /** What is wrong, one issue a line, each starting with its file (and line:col when known). */
  message: string;
  file: string;
  line?: number;
  column?: number;
  at: number;
}

export interface SyndicateEntry {
  id: string;
  file: string;
  /** Undefined when the file has never loaded. */
  current: LoadedSyndicate | undefined;
  /** Set while the file's latest version is invalid. */
  error: LoadFailure | undefined;
}

/** The syndicates a server serves, reloaded when their files change (for the next turn). */
export interface SyndicateRegistry {
  list(): SyndicateEntry[];
  get(id: string): SyndicateEntry | undefined;
}

export interface ServerContext {
  platform: Platform;
  syndicates: SyndicateRegistry;
  authenticate: Authenticate;
  warn(message: string): void;
}

/** Users, roles, API keys, the studio's cookie sign-in (src/server/auth). */
export interface AuthService {
  authenticate: Authenticate;
  /** /auth/*, /users, /keys. */
  routes: AnyRoute[];
}

/** Running turns and their streams (src/server/turns). */
export interface TurnService {
  /** /turns, /sessions/:id/stream, /sessions/:id/cancel, the AI SDK and AG-UI endpoints, /background-jobs. */
  routes: AnyRoute[];
  /** How many turns are running now. */
  running(): number;
  /** Runs a scheduled task's firing as a turn in its session's line (scheduler/tasks). */
  runScheduled: RunTaskTurn;
  /**
   * Graceful shutdown: refuses new turns, waits up to graceMs for running ones, then cancels the
   * rest (they end cancelled, stored as interrupted). Resolves once every turn has ended.
   */
  drain(graceMs: number): Promise<{ finished: number; interrupted: number }>;
}
