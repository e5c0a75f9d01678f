import type { AgentDefinition } from '../config/definition.js';

export interface ModelChoice {
  /** Run every agent on the built-in scripted model. */
  offline?: boolean;
  /** Run every agent on this model id. */
  modelOverride?: string;
}

/** The model the root inherits when it names none (definitions built in code may leave it out). */
export const DEFAULT_ROOT_MODEL = 'scripted';

/** The model an agent runs on: offline first, then the override, then its own, then its parent's. */
export function agentModelId(agent: AgentDefinition, inherited: string, choice: ModelChoice): string {
  if (choice.offline) return 'scripted';
  return choice.modelOverride ?? agent.model ?? inherited;
}

/** What an agent's subagents inherit: the model it declares (an override applies to each agent anyway). */
export function modelInheritedFrom(agent: AgentDefinition, inherited: string): string {
  return agent.model ?? inherited;
}
