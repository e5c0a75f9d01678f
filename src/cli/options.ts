import type { FactStatus, FactTag } from '../store/facts.js';
import type { UsageGrouping } from '../telemetry/ledger/summarizeUsage.js';

// Command options as commander parses them.

export interface BindingOptions {
  bind?: string[];
  bindings?: string;
}

export interface ModelOptions {
  offline?: boolean;
  model?: string;
  script?: string;
}

/** Shared by `run` and `chat`. */
export interface TurnCommandOptions extends BindingOptions, ModelOptions {
  session?: string;
  /** Starts a session with this id (`--session` only resumes one that exists). */
  newSession?: string;
  /** `--timeout 90s`: one model call attempt without progress; `--deadline 5m`: the whole turn. */
  timeout?: string;
  deadline?: string;
  db?: string;
  json?: boolean;
}

/** `syndicate mcp`. */
export interface McpCommandOptions extends BindingOptions, ModelOptions {
  db?: string;
  /** `[host:]port` to serve Streamable HTTP on instead of stdio. */
  http?: string;
  allowOrigin?: string[];
}

/** `syndicate mcp-demo`. */
export interface McpDemoOptions {
  port: string;
  data?: string;
}

export interface SessionsOptions {
  db?: string;
  json?: boolean;
}

/** `syndicate sessions prune`. */
export interface PruneSessionsOptions extends SessionsOptions {
  olderThan: string;
}

/** `syndicate db migrate` and `syndicate db status`. */
export interface DbOptions {
  db?: string;
  json?: boolean;
}

export interface UsageOptions {
  db?: string;
  json?: boolean;
  since?: string;
  by: UsageGrouping;
  syndicate?: string;
  prices?: string;
}

export interface ServeA2aOptions extends BindingOptions, ModelOptions {
  db?: string;
  host: string;
  port: string;
  /** A long-term syndicate whose memory is served as an agent at /<agent-id>-memory/. */
  memory?: string;
}

/** Every `syndicate memory` subcommand. */
export interface MemoryOptions {
  db?: string;
  json?: boolean;
}

/** A subcommand scoped to one silo; a changing one is a dry run unless `yes`. */
export interface MemorySiloOptions extends MemoryOptions {
  silo: string;
  yes?: boolean;
}

export interface MemoryListOptions extends MemorySiloOptions {
  tag?: FactTag;
  status?: FactStatus;
  limit?: number;
  docs?: boolean;
}

export interface MemoryDupesOptions extends MemorySiloOptions {
  threshold: number;
}

export interface MemoryExportOptions extends MemorySiloOptions {
  bundle: string;
  out: string;
}

export interface MemoryImportOptions extends MemorySiloOptions {
  bundle?: string;
  overwrite?: boolean;
  embedding?: string;
}

export interface MemoryReembedOptions extends MemorySiloOptions {
  embedding?: string;
  syndicate?: string;
}
