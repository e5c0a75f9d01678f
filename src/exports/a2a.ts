// syndicate/a2a: the A2A face (a server for compiled syndicates) and the A2A client (remote
// agents as subagents: pass a2aRemoteAgents() to createPlatform as `a2aClient`, or to compileSyndicate as `remoteAgents`).

export { serveA2a, A2aConfigError, type A2aServer, type ServeA2aOptions } from '../a2a/serveA2a.js';
export { agentIdFor, createA2aApp, type A2aApp, type A2aAppOptions, type ServedAgent, type ServedSyndicate } from '../a2a/createA2aApp.js';
export { a2aRemoteAgents, type A2aClientSettings } from '../a2a/client/index.js';
