import type { RemoteAgent, RemoteAgentFactory } from '../../runtime/compileSyndicate.js';
import { a2aClientSettings, type A2aClientSettings } from './settings.js';

// The A2A client face: remote agents (`a2a_url`) as subagents. Faces pass a2aRemoteAgents() to
// compileSyndicate as `remoteAgents`.

export type { A2aClientSettings } from './settings.js';

/** `settings` override the defaults; the SSRF policy otherwise comes from the env compileSyndicate is given. */
export function a2aRemoteAgents(settings: Partial<A2aClientSettings> = {}): RemoteAgentFactory {
  return (name, spec, env) => {
    // The A2A SDK loads on first use: every run compiles with this factory, few use a remote agent.
    let agent: Promise<RemoteAgent> | undefined;
    const load = (): Promise<RemoteAgent> => (agent ??= import('./remoteAgent.js').then(({ createRemoteAgent }) => createRemoteAgent(name, spec, a2aClientSettings(settings, env))));
    return {
      describe: async (signal) => (await load()).describe(signal),
      run: async (turn, input, depth) => (await load()).run(turn, input, depth),
      withdraw: async (sessionId, conversation) => (await load()).withdraw(sessionId, conversation),
    };
  };
}
