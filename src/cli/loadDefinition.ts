import { parseBindings } from '../config/bindings.js';
import type { SyndicateDefinition } from '../config/definition.js';
import { loadSyndicate } from '../config/loadSyndicate.js';
import type { VariableValue } from '../config/schema.js';
import type { BindingOptions } from './options.js';
import { resolveSyndicateFile } from './resolveSyndicateFile.js';
import { UsageError } from './usageError.js';

export function bindingsOf(options: BindingOptions): Record<string, VariableValue> {
  try {
    return parseBindings(options.bind ?? [], options.bindings);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Resolves a `<file|name>` argument and loads it; throws SyndicateConfigError with every issue. */
export function loadDefinition(target: string, bindings: Record<string, VariableValue>): SyndicateDefinition {
  return loadSyndicate(resolveSyndicateFile(target), { bindings });
}
