import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { issueFromProblem, sortIssues, SyndicateConfigError, type ConfigIssue } from './errors.js';
import { isRecord, type Problem } from './problem.js';
import { schemaProblems } from './schemaProblems.js';
import { parseYaml } from './yamlSource.js';

// The project config file: settings for the current directory that are not part of any one
// syndicate, today the openai-compatible servers' base URLs, key variables and headers.

/** Looked up in the current directory, in this order. JSON is read by the YAML parser (a subset). */
export const PROJECT_CONFIG_FILES: readonly string[] = ['syndicate.config.yaml', 'syndicate.config.yml', 'syndicate.config.json'];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const providerSchema = z.strictObject({
  base_url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. http://localhost:1234/v1' }),
  api_key_env: z.string().regex(ENV_NAME, { error: 'must be the name of an environment variable, e.g. OPENROUTER_API_KEY' }).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const projectConfigSchema = z.strictObject({
  providers: z.record(z.string(), providerSchema).optional(),
});

/** One openai-compatible server, by the <name> of `openai-compatible:<name>/<model>`. */
export type ProviderConfig = z.infer<typeof providerSchema>;
export type ProvidersConfig = Readonly<Record<string, ProviderConfig>>;

export interface ProjectConfig {
  /** The file read; undefined when the directory has none. */
  file: string | undefined;
  providers: ProvidersConfig;
}

/** Reads the project config file in `cwd`. Throws SyndicateConfigError naming file:line:col and field. */
export function loadProjectConfig(cwd: string = process.cwd()): ProjectConfig {
  const found = PROJECT_CONFIG_FILES.filter((name) => existsSync(join(cwd, name)));
  const [file, ...others] = found;
  if (file === undefined) return { file: undefined, providers: {} };
  if (others.length > 0) {
    throw new SyndicateConfigError([{ file, line: 0, column: 0, path: '', message: `also found ${others.join(' and ')}: keep one project config file` }]);
  }
  return { file, providers: parseProjectConfig(readFileSync(join(cwd, file), 'utf8'), file) };
}

/** `display` is the file name shown in issues. */
export function parseProjectConfig(text: string, display: string): ProvidersConfig {
  const yaml = parseYaml(text);
  if (yaml.syntaxErrors.length > 0) {
    throw new SyndicateConfigError(yaml.syntaxErrors.map(({ line, column, message }): ConfigIssue => ({ file: display, line, column, path: '', message: `invalid YAML: ${message}` })));
  }
  // An empty file configures nothing.
  const data = yaml.data ?? {};
  const parsed = projectConfigSchema.safeParse(data);
  const refused = apiKeyProblems(data);
  const problems = [...refused, ...(parsed.success ? [] : schemaProblems(parsed.error.issues, data, projectConfigSchema).filter((problem) => !isApiKey(problem)))];
  if (problems.length > 0 || !parsed.success) {
    throw new SyndicateConfigError(sortIssues(problems.map((problem) => issueFromProblem(display, yaml.locate(problem.path, problem.anchor), problem))));
  }
  return parsed.data.providers ?? {};
}

// A key written into a file that may be committed leaks. Refused with its own message rather than
// as an unknown key, so the fix is plain.
function apiKeyProblems(data: unknown): Problem[] {
  const providers = isRecord(data) ? data.providers : undefined;
  if (!isRecord(providers)) return [];
  return Object.entries(providers).flatMap(([name, provider]): Problem[] =>
    isRecord(provider) && Object.hasOwn(provider, 'api_key')
      ? [
          {
            path: ['providers', name, 'api_key'],
            anchor: 'key',
            message: 'a key must not be written in a file that may be committed: put it in an environment variable (or .env) and name that variable with api_key_env, e.g. api_key_env: OPENROUTER_API_KEY',
          },
        ]
      : [],
  );
}

function isApiKey(problem: Problem): boolean {
  return problem.path.length === 3 && problem.path[0] === 'providers' && problem.path[2] === 'api_key';
}
