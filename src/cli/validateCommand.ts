import { formatIssue, SyndicateConfigError } from '../config/errors.js';
import { ModelConfigError } from '../models/errors.js';
import { compileSyndicate } from '../runtime/compileSyndicate.js';
import { ExitCode } from './exitCodes.js';
import type { BindingOptions } from './options.js';
import { bindingsOf, loadDefinition } from './loadDefinition.js';
import { colourEnabled, createStyle } from './terminal.js';
import { UsageError } from './usageError.js';

/**
 * Checks each file without calling any model; prints `ok  <file>` or every issue found.
 * Compiling is part of the check (model ids, web_search, settings a provider would drop), and
 * calls no model: a missing key or server would fail only at a model's first call.
 */
export function validateCommand(files: string[], options: BindingOptions): number {
  const style = createStyle(colourEnabled(process.stdout, process.env));
  const bindings = bindingsOf(options);
  let valid = true;
  for (const file of files) {
    try {
      const definition = loadDefinition(file, bindings);
      const { warnings } = compileSyndicate(definition);
      process.stdout.write(`${style.green('ok')}  ${file}\n`);
      for (const warning of definition.warnings) process.stdout.write(`${style.yellow('warning:')} ${formatIssue(warning)}\n`);
      for (const warning of warnings) process.stdout.write(`${style.yellow('warning:')} ${warning}\n`);
    } catch (error) {
      // A file that does not exist is an invalid input here, not a usage error.
      if (!(error instanceof SyndicateConfigError || error instanceof UsageError || error instanceof ModelConfigError)) throw error;
      valid = false;
      process.stdout.write(`${style.red('error')}  ${file}\n${error.message}\n`);
    }
  }
  return valid ? ExitCode.ok : ExitCode.failed;
}
