import { realpathSync } from 'node:fs';
import path from 'node:path';
import { BUILTIN_TOOL_NAMES, WEB_SEARCH_TOOL, XAI_ONLY_TOOLS, IMAGE_TOOLS } from './builtinToolNames.js';
import { MEMORY_TOOL_NAMES } from './memoryTools.js';
import { BACKGROUND_TOOL_NAMES } from './backgroundTools.js';
import { buildSyndicate, type ValidatedSyndicate } from './buildDefinition.js';
import type { SyndicateDefinition } from './definition.js';
import { SyndicateConfigError, sortIssues, type ConfigIssue } from './errors.js';
import { loadFile, type LoadContext, type LoadedFile } from './loadFile.js';
import { readSource } from './references.js';
import type { VariableValue } from './schema.js';
import { duplicateNameIssues } from './uniqueNames.js';
import { closestMatch } from './suggest.js';
import { placeholderNames } from './variables.js';

export interface LoadSyndicateOptions {
  /** Override the file's `variables:` (from --bind / --bindings). */
  bindings?: Record<string, VariableValue>;
  /** Tool names agents may list; defaults to the built-in tools. web_search and xAI's searches are always known. */
  knownTools?: Iterable<string>;
  /** The program resolves model ids itself (CompileOptions.resolveModel): ids no built-in provider knows are not refused. */
  customModels?: boolean;
}

/** Reads, validates and resolves a syndicate file. Throws SyndicateConfigError listing every issue found. */
export function loadSyndicate(file: string, options: LoadSyndicateOptions = {}): SyndicateDefinition {
  const source = readSource(file);
  if ('error' in source) throw new SyndicateConfigError([{ file, line: 0, column: 0, path: '', message: source.error }]);
  const realFile = realpathSync(file);
  const knownTools = [...new Set([...(options.knownTools ?? BUILTIN_TOOL_NAMES), WEB_SEARCH_TOOL, ...XAI_ONLY_TOOLS, ...IMAGE_TOOLS, ...MEMORY_TOOL_NAMES, ...BACKGROUND_TOOL_NAMES])];
  const context: LoadContext = { jail: path.dirname(realFile), knownTools, customModels: options.customModels ?? false, issues: [], warnings: [] };
  const root = loadFile(context, { file: realFile, display: file, text: source.text, inherited: options.bindings ?? {}, chain: [] });
  const issues = [...context.issues, ...(root ? duplicateNameIssues(root) : [])];
  if (!root || issues.length > 0) throw new SyndicateConfigError(sortIssues(issues));
  return buildSyndicate(validated(root), sortIssues([...context.warnings, ...unusedBindingWarnings(root, file, options.bindings ?? {})]));
}

/** A binding no placeholder uses is most likely a misspelt name: said, not silently dropped. */
function unusedBindingWarnings(root: LoadedFile, display: string, bindings: Readonly<Record<string, VariableValue>>): ConfigIssue[] {
  const used = new Set<string>();
  const collect = (loaded: LoadedFile): void => {
    for (const name of placeholderNames(loaded.yaml.data)) used.add(name);
    for (const mounted of loaded.mounts.values()) collect(mounted);
  };
  collect(root);
  return Object.keys(bindings)
    .filter((name) => !used.has(name))
    .map((name) => {
      const match = closestMatch(name, used);
      const hint = match ? `did you mean '${match}'?` : used.size > 0 ? `the file uses ${[...used].map((n) => `{{${n}}}`).join(', ')}` : 'the file uses no variables';
      return { file: display, line: 0, column: 0, path: '', message: `the binding '${name}' is not used: there is no {{${name}}} in this file or the files it mounts — ${hint}` };
    });
}

function validated(loaded: LoadedFile): ValidatedSyndicate {
  if (loaded.config === undefined) throw new Error(`internal error: ${loaded.display} failed validation without reporting an issue`);
  const mounts = new Map([...loaded.mounts].map(([index, mounted]) => [index, validated(mounted)]));
  return { file: loaded.file, config: loaded.config, variables: loaded.variables, mounts };
}
