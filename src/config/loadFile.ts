import { dispatchProblems, inertFieldWarnings, legacyToolWarnings, modelProblems, subagentEntries, subagentEntryProblems, memoryToolProblems, toolProblems } from './checks.js';
import { issueFromProblem, type ConfigIssue } from './errors.js';
import type { Problem } from './problem.js';
import { readReference, referenceDisplayPath } from './references.js';
import { syndicateFileSchema, type SyndicateFile, type VariableValue } from './schema.js';
import { schemaProblems } from './schemaProblems.js';
import { dreamProblems } from './dreams.js';
import { fileVariables, interpolateVariables, perTurnNameProblems } from './variables.js';
import { parseYaml, type YamlSource } from './yamlSource.js';

// Loads one syndicate file and, recursively, the files it mounts, collecting every issue on the way.

export interface LoadContext {
  /** Real path of the root file's folder: no referenced file may live outside it. */
  jail: string;
  knownTools: readonly string[];
  /** Model ids are left to the program's own resolver, unchecked. */
  customModels: boolean;
  issues: ConfigIssue[];
  /** Accepted but not acted on: reported, never fatal. */
  warnings: ConfigIssue[];
}

export interface SourceFile {
  /** Real path. */
  file: string;
  /** The path shown in issues. */
  display: string;
  text: string;
  /** Values that override the file's own `variables:` (--bind values, or the mounting file's variables). */
  inherited: Readonly<Record<string, VariableValue>>;
  /** Real paths of the files that mount this one, root first. */
  chain: readonly string[];
}

export interface LoadedFile {
  file: string;
  display: string;
  yaml: YamlSource;
  /** The file's data after variable interpolation. */
  data: unknown;
  /** Undefined when the schema refused the file (its issues are in the context). */
  config: SyndicateFile | undefined;
  variables: Record<string, VariableValue>;
  mounts: Map<number, LoadedFile>;
}

/** Undefined when the file is not valid YAML; the syntax errors are in the context. */
export function loadFile(context: LoadContext, source: SourceFile): LoadedFile | undefined {
  const yaml = parseYaml(source.text);
  if (yaml.syntaxErrors.length > 0) {
    const syntaxIssues = yaml.syntaxErrors.map(({ line, column, message }) => ({ file: source.display, line, column, path: '', message: `invalid YAML: ${message}` }));
    context.issues.push(...syntaxIssues);
    return undefined;
  }
  const variables = { ...fileVariables(yaml.data), ...source.inherited };
  const { data, problems: variableProblems } = interpolateVariables(yaml.data, variables);
  const parsed = syndicateFileSchema.safeParse(data);
  const mountable = mountableFiles(context, data, source, variables);
  const problems: Problem[] = [
    ...perTurnNameProblems(yaml.data),
    ...variableProblems,
    ...(parsed.success ? [] : schemaProblems(parsed.error.issues, data, syndicateFileSchema)),
    ...toolProblems(data, context.knownTools),
    ...(context.customModels ? [] : modelProblems(data)),
    ...memoryToolProblems(data, source.chain.length === 0),
    ...dispatchProblems(data),
    ...dreamProblems(data, context.knownTools),
    ...subagentEntryProblems(data),
    ...mountable.problems,
  ];
  const locate = (problem: Problem): ConfigIssue => issueFromProblem(source.display, yaml.locate(problem.path, problem.anchor), problem);
  context.issues.push(...problems.map(locate));
  context.warnings.push(...inertFieldWarnings(data).map(locate), ...legacyToolWarnings(data).map(locate));

  const mounts = new Map<number, LoadedFile>();
  for (const [index, mounted] of mountable.files) {
    const loaded = loadFile(context, mounted);
    if (loaded) mounts.set(index, loaded);
  }
  return { file: source.file, display: source.display, yaml, data, config: parsed.success ? parsed.data : undefined, variables, mounts };
}

interface Mountable {
  files: Map<number, SourceFile>;
  problems: Problem[];
}

/** The readable files named by yaml_reference entries, by subagent index; the mounted file's variables yield to ours. */
function mountableFiles(context: LoadContext, data: unknown, from: SourceFile, variables: Record<string, VariableValue>): Mountable {
  const mountable: Mountable = { files: new Map(), problems: [] };
  const chain = [...from.chain, from.file];
  for (const { index, path, fields } of subagentEntries(data)) {
    const reference = fields['yaml_reference'];
    if (typeof reference !== 'string' || reference === '') continue;
    const mounted = readReference(reference, from.file, context.jail, chain);
    if ('error' in mounted) mountable.problems.push({ path: [...path, 'yaml_reference'], message: mounted.error });
    else mountable.files.set(index, { ...mounted, display: referenceDisplayPath(from.display, reference), inherited: variables, chain });
  }
  return mountable;
}
