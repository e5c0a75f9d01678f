import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AgentDefinition } from '../config/definition.js';
import { parseModelId, type ProviderFamily } from '../config/modelIds.js';

export interface ModelChoice {
  /** Run every agent on the built-in scripted model. */
  offline?: boolean;
  /** Run every agent on this model id. */
  modelOverride?: string;
}

/** A model id, or a language model object given in code. */
export type AgentModel = string | LanguageModelV3;

/** The model the root inherits when it names none (definitions built in code may leave it out). */
export const DEFAULT_ROOT_MODEL = 'scripted';

/** The model an agent runs on: offline first, then the override, then its own, then its parent's. */
export function agentModel(agent: AgentDefinition, inherited: AgentModel, choice: ModelChoice): AgentModel {
  if (choice.offline) return 'scripted';
  return choice.modelOverride ?? agent.model ?? inherited;
}

/** What an agent's subagents inherit: the model it declares (an override applies to each agent anyway). */
export function modelInheritedFrom(agent: AgentDefinition, inherited: AgentModel): AgentModel {
  return agent.model ?? inherited;
}

/** How a model is named in messages, agent cards and checks: its id, or a model object's own modelId. */
export function modelLabel(model: AgentModel): string {
  return typeof model === 'string' ? model : model.modelId;
}

/** The provider family of a model id; undefined for a model object, whose provider Syndicate does not know. */
export function modelFamily(model: AgentModel): ProviderFamily | undefined {
  return typeof model === 'string' ? parseModelId(model)?.family : undefined;
}
