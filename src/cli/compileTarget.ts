import { formatIssue } from '../config/errors.js';
import type { ProvidersConfig } from '../config/projectConfig.js';
import { parseModelId, unknownModelAdvice } from '../config/modelIds.js';
import { loadScriptFile } from '../models/scripted/loadScriptFile.js';
import type { Platform } from '../platform/createPlatform.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import { bindingsOf, loadDefinition } from './loadDefinition.js';
import type { BindingOptions, ModelOptions } from './options.js';
import { UsageError } from './usageError.js';

// Every command that runs turns (run, chat, serve-a2a, mcp) compiles its syndicates the same
// way: --bind/--bindings, --offline or SYNDICATE_OFFLINE, --model, --script, the platform's MCP and
// A2A clients, and the loader's and compiler's warnings on stderr (stdout may be a protocol channel).

const TRUTHY: ReadonlySet<string> = new Set(['1', 'true', 'yes']);

export function isOffline(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return flag === true || TRUTHY.has((env.SYNDICATE_OFFLINE ?? '').toLowerCase());
}

export function compileTarget(platform: Platform, target: string, options: BindingOptions & ModelOptions, providers: ProvidersConfig): CompiledSyndicate {
  // The override replaces every agent's model, so its mistake is the flag's, not any agent's.
  if (options.model !== undefined && parseModelId(options.model) === undefined) throw new UsageError(`--model: unknown model "${options.model}" — ${unknownModelAdvice(options.model)}`);
  const definition = loadDefinition(target, bindingsOf(options));
  for (const warning of definition.warnings) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
  const syndicate = platform.compile(definition, {
    offline: isOffline(options.offline, platform.env),
    modelOverride: options.model,
    scripts: options.script === undefined ? undefined : loadScriptFile(options.script),
    providers,
  });
  for (const warning of syndicate.warnings) process.stderr.write(`warning: ${warning}\n`);
  return syndicate;
}
