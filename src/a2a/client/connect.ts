import { AGENT_CARD_PATH, type AgentCard } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import type { RemoteAgentSpec } from '../../config/definition.js';
import { errorMessage } from '../../core/errors.js';
import { createGuardedFetch } from '../../tools/guards/guardedFetch.js';
import type { A2aClientSettings } from './settings.js';

// Reaching a remote agent: its card is fetched through the SSRF guard, and the SDK client built
// from the card sends every request through the same guarded fetch, with the agent's bearer token.

export interface RemoteConnection {
  card: AgentCard;
  client: Client;
}

/** `a2a_url` names the card; a URL that does not end in .json is the agent's base URL, whose card is at the well-known path. */
export function cardUrlOf(url: string): string {
  if (new URL(url).pathname.endsWith('.json')) return url;
  return `${url.replace(/\/+$/, '')}/${AGENT_CARD_PATH}`;
}

/** The token `a2a_auth_env` names, read when the agent is reached rather than at start-up, so a missing one fails only this agent. */
function bearerToken(spec: RemoteAgentSpec, env: NodeJS.ProcessEnv): string | undefined {
  if (spec.authEnv === undefined) return undefined;
  const token = env[spec.authEnv];
  if (token === undefined || token === '') {
    throw new Error(`its bearer token is read from the environment variable ${spec.authEnv} (a2a_auth_env), which is not set: set it (a .env file in the current directory works too)`);
  }
  return token;
}

function agentFetch(spec: RemoteAgentSpec, settings: A2aClientSettings): typeof fetch {
  const guarded = createGuardedFetch(settings.policy);
  const token = bearerToken(spec, settings.env);
  const hint = spec.authEnv === undefined ? 'the agent wants credentials: name the variable holding its bearer token in a2a_auth_env' : `check the token in ${spec.authEnv} (a2a_auth_env)`;
  // The SDK calls fetch with a URL string and a plain init, which guardedFetch takes as they are.
  return (async (input: string | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    const response = await guarded(input, { ...init, headers });
    // Refused credentials are said plainly: the SDK would read the body as a protocol error and lose the status.
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new Error(`${input.toString()} answered HTTP ${response.status} ${response.statusText}: ${hint}`);
    }
    return response;
  }) as typeof fetch;
}

async function fetchCard(url: string, fetchImpl: typeof fetch, resolver: DefaultAgentCardResolver, settings: A2aClientSettings, signal: AbortSignal): Promise<AgentCard> {
  const timeout = AbortSignal.timeout(settings.cardTimeoutMs);
  const unreachable = (error: unknown): Error => {
    signal.throwIfAborted();
    return new Error(`could not fetch its agent card at ${url}: ${timeout.aborted ? `no answer within ${settings.cardTimeoutMs / 1000} s` : errorMessage(error)}`);
  };
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.any([signal, timeout]) });
  } catch (error) {
    throw unreachable(error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`its agent card at ${url} answered HTTP ${response.status} ${response.statusText}: check a2a_url`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw unreachable(error);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`its agent card at ${url} is not JSON: check that a2a_url names the agent card (…/${AGENT_CARD_PATH})`);
  }
  try {
    return resolver.normalizeAgentCard(body);
  } catch (error) {
    throw new Error(`its agent card at ${url} is not a valid A2A agent card: ${errorMessage(error)}`);
  }
}

/** Rejects with a message that says what failed and how to fix it (the caller prefixes the agent's name). */
export async function connectRemoteAgent(spec: RemoteAgentSpec, settings: A2aClientSettings, signal: AbortSignal): Promise<RemoteConnection> {
  const url = cardUrlOf(spec.cardUrl);
  const fetchImpl = agentFetch(spec, settings);
  // legacyCompat lets the same client talk to agents that still speak A2A 0.3.
  const legacyCompat = { enabled: true };
  const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
  const card = await fetchCard(url, fetchImpl, resolver, settings, signal);
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new RestTransportFactory({ fetchImpl, legacyCompat })],
    cardResolver: resolver,
  });
  try {
    return { card, client: await factory.createFromAgentCard(card) };
  } catch (error) {
    throw new Error(`its agent card at ${url} offers no interface this client speaks (JSON-RPC or HTTP+JSON over A2A 1.0 or 0.3): ${errorMessage(error)}`);
  }
}
