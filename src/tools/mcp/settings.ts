import { networkPolicyFromEnv, type NetworkPolicy } from '../guards/ssrf.js';

/** How MCP connections of a compiled syndicate behave. Every field has a default. */
export interface McpClientSettings {
  /** Which addresses remote servers may have (the SSRF guard). */
  policy: NetworkPolicy;
  /** Where header values and inherited variables of servers are read from. */
  env: NodeJS.ProcessEnv;
  /** One connection attempt, including a stdio server's start-up and the handshake. */
  connectTimeoutMs: number;
  /** tools/list, and tools/call between two progress notifications: a server silent this long is taken as hung. */
  requestTimeoutMs: number;
  /** A server's tool list is fetched again after this long even without a list_changed notification. */
  toolListTtlMs: number;
  /** The wait before retrying a server after its first failed attempt, doubled after each further failure. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export function mcpSettings(overrides: Partial<McpClientSettings> = {}, env: NodeJS.ProcessEnv = process.env): McpClientSettings {
  const sourceEnv = overrides.env ?? env;
  return {
    policy: networkPolicyFromEnv(sourceEnv),
    env: sourceEnv,
    connectTimeoutMs: 15_000,
    requestTimeoutMs: 60_000,
    toolListTtlMs: 5 * 60_000,
    backoffBaseMs: 500,
    backoffMaxMs: 30_000,
    ...overrides,
  };
}
