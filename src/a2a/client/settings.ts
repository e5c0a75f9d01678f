import { networkPolicyFromEnv, type NetworkPolicy } from '../../tools/guards/ssrf.js';

/** How remote A2A agents are reached. Every field has a default. */
export interface A2aClientSettings {
  /** Which addresses remote agents may have: the SSRF guard and switches the MCP client uses (ALLOW_PRIVATE_MCP, SYNDICATE_ALLOWED_HOSTS). */
  policy: NetworkPolicy;
  /** Where `a2a_auth_env` variables are read from, when the agent is called. */
  env: NodeJS.ProcessEnv;
  /** Fetching the agent card, which happens once per agent (retried on a later turn if it failed). */
  cardTimeoutMs: number;
  /** CancelTask when our turn is cancelled: the turn's end waits this long at most. */
  cancelTimeoutMs: number;
}

export function a2aClientSettings(overrides: Partial<A2aClientSettings> = {}, env: NodeJS.ProcessEnv = process.env): A2aClientSettings {
  const sourceEnv = overrides.env ?? env;
  return {
    policy: networkPolicyFromEnv(sourceEnv),
    env: sourceEnv,
    cardTimeoutMs: 10_000,
    cancelTimeoutMs: 5_000,
    ...overrides,
  };
}
