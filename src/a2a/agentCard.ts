import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentSkill, type SecurityScheme } from '@a2a-js/sdk';
import type { CompiledAgent, CompiledSyndicate } from '../runtime/compileSyndicate.js';

// The agent card of one served syndicate. Skills are its delegation API: one per subagent (or
// dispatch route) of the root, from their descriptions; an agent without subagents is one skill.

export const BEARER_SCHEME = 'bearer';

const LEGACY_PROTOCOL_VERSION = '0.3';

const TEXT_MODES = ['text/plain', 'application/json'];

export interface AgentCardOptions {
  /** Where this agent's endpoints live, without a trailing slash, e.g. https://host/council. */
  baseUrl: string;
  /** A bearer secret guards the endpoints: the card declares the scheme. */
  secured: boolean;
  version: string;
}

/** Endpoint paths under an agent's base URL. */
export const JSONRPC_PATH = '/jsonrpc';
export const REST_PATH = '/rest';

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return { id, name, description, tags, examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}

function skillsOf(syndicate: CompiledSyndicate): AgentSkill[] {
  const root = syndicate.root;
  const tag = root.dispatch ? 'route' : 'subagent';
  const subagents = [...root.subagents.values()];
  if (subagents.length === 0) return [skill(root.name, root.name, root.description || syndicate.description || root.name, toolTags(root))];
  return subagents.map((sub) => skill(sub.name, sub.name, sub.description, [tag, ...toolTags(sub)]));
}

function toolTags(agent: CompiledAgent): string[] {
  return [...agent.tools.keys()];
}

function bearerScheme(): SecurityScheme {
  return { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer', bearerFormat: '', description: 'The server secret (A2A_SERVER_SECRET) as a bearer token.' } } };
}

export function buildAgentCard(syndicate: CompiledSyndicate, options: AgentCardOptions): AgentCard {
  const { baseUrl, secured } = options;
  return {
    name: syndicate.name,
    description: syndicate.description ?? syndicate.root.description ?? `The ${syndicate.name} syndicate.`,
    supportedInterfaces: [
      { url: `${baseUrl}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: `${baseUrl}${REST_PATH}`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
      // The same endpoints serve 0.3 clients (the SDK's compatibility mode), which the SDK only
      // enables for versions the card declares.
      { url: `${baseUrl}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: LEGACY_PROTOCOL_VERSION },
      { url: `${baseUrl}${REST_PATH}`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: LEGACY_PROTOCOL_VERSION },
    ],
    provider: undefined,
    version: options.version,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: secured },
    securitySchemes: secured ? { [BEARER_SCHEME]: bearerScheme() } : {},
    securityRequirements: secured ? [{ schemes: { [BEARER_SCHEME]: { list: [] } } }] : [],
    defaultInputModes: TEXT_MODES,
    defaultOutputModes: ['text/plain'],
    skills: skillsOf(syndicate),
    signatures: [],
  };
}

/**
 * What an authenticated caller may also know: every agent of the syndicate with its model and
 * tools, which the public card leaves out.
 */
export function buildExtendedAgentCard(syndicate: CompiledSyndicate, options: AgentCardOptions): AgentCard {
  const card = buildAgentCard(syndicate, options);
  const agents = [...syndicate.agents.values()].map((agent) =>
    skill(`agent:${agent.name}`, agent.name, agent.description || `${agent.name} (model ${agent.modelId})`, ['agent', `model:${agent.modelId}`, ...toolTags(agent)]),
  );
  return { ...card, skills: [...card.skills, ...agents] };
}
