import { CommanderError } from 'commander';
import { SyndicateConfigError } from '../config/errors.js';
import { StoreLocationError } from '../store/storeLocation.js';
import { ExitCode } from './exitCodes.js';
import { UsageError } from './usageError.js';

/** Prints an error that ended a command, for a person in a hurry, and returns the exit code. */
export function reportError(error: unknown): number {
  // Commander has already printed its message (and help when asked for).
  if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  if (error instanceof SyndicateConfigError) {
    process.stderr.write(`${error.message}\n`);
    return ExitCode.failed;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${message}\n`);
  // A store named wrongly (--db, SYNDICATE_DB) is a usage error: the fix is in the command line.
  return error instanceof UsageError || error instanceof StoreLocationError ? ExitCode.usage : ExitCode.failed;
}
