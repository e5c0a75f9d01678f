import type { AgentDefinition } from '../../../src/config/definition.js';
import type { CompileOptions, CompiledSyndicate } from '../../../src/runtime/compileSyndicate.js';
import { a2aRemoteAgents } from '../../../src/a2a/client/index.js';
import type { NetworkPolicy } from '../../../src/tools/guards/ssrf.js';
import { agent, compile } from '../../runtime/fixtures.js';

// A Chair (scripted) with one remote subagent, compiled with the A2A client. Tests on loopback
// opt in to private addresses explicitly, as a user would with ALLOW_PRIVATE_MCP.

export const LOOPBACK_ALLOWED: NetworkPolicy = { allowPrivate: true, allowedHosts: new Set() };

export interface RemoteSubagent {
  cardUrl: string;
  description?: string;
  authEnv?: string;
}

export function remoteSubagent(name: string, { cardUrl, description = '', authEnv }: RemoteSubagent): AgentDefinition {
  return agent(name, { description, instruction: '', remote: { cardUrl, authEnv } });
}

/** `policy` defaults to allowing loopback; 'from-env' leaves it to the env's switches. */
export function chairWith(remote: AgentDefinition, options: CompileOptions & { policy?: NetworkPolicy | 'from-env' } = {}, chair: Partial<AgentDefinition> = {}): CompiledSyndicate {
  const { policy = LOOPBACK_ALLOWED, env = {}, ...compileOptions } = options;
  const remoteAgents = a2aRemoteAgents(policy === 'from-env' ? {} : { policy });
  return compile(agent('Chair', { subagents: [remote], ...chair }), { env, remoteAgents, ...compileOptions });
}
