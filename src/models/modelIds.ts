import { parseModelId, unknownModelAdvice, type ProviderFamily } from '../config/modelIds.js';
import { ModelConfigError } from './errors.js';

export function unknownModelError(id: string, agentName?: string): ModelConfigError {
  const who = agentName === undefined ? '' : ` for agent '${agentName}'`;
  const advice = unknownModelAdvice(id);
  return new ModelConfigError(`Unknown model "${id}"${who}. ${advice.charAt(0).toUpperCase()}${advice.slice(1)}`);
}

/** The provider family of a model id, e.g. 'anthropic' for 'claude-sonnet-4'. Throws for an unknown id. */
export function providerOf(id: string): ProviderFamily {
  const parsed = parseModelId(id);
  if (!parsed) throw unknownModelError(id);
  return parsed.family;
}
