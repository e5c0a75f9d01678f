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
  db?: string;
  json?: boolean;
}

export interface SessionsOptions {
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
