import { loadProjectConfig } from '../config/projectConfig.js';
import { errorMessage } from '../core/errors.js';
import { pingProvider, providerStatuses, type ProviderStatus } from '../models/providerStatus.js';
import { ExitCode } from './exitCodes.js';
import { colourEnabled, createStyle } from './terminal.js';

export interface ModelsOptions {
  ping?: boolean;
}

// A ping that takes longer than this is reported as failed: the command must not hang on a
// server that accepts the connection and never answers.
const PING_TIMEOUT_MS = 30_000;

function statusText(status: ProviderStatus): string {
  if (status.missing) return `not configured: ${status.missing}`;
  if (status.server) return `${status.assumed ? 'default server' : 'server'} ${status.server}`;
  return 'configured';
}

/** Lists every provider family and whether it is configured; with --ping, calls each configured one once. */
export async function modelsCommand(options: ModelsOptions, env: NodeJS.ProcessEnv = process.env, write: (text: string) => void = (text) => void process.stdout.write(text)): Promise<number> {
  const style = createStyle(colourEnabled(process.stdout, env));
  const { providers } = loadProjectConfig();
  const statuses = providerStatuses(env, providers);
  const width = Math.max(...statuses.map((status) => status.family.length));
  const idsWidth = Math.max(...statuses.map((status) => status.ids.length));
  let failed = false;
  for (const status of statuses) {
    const line = `${status.family.padEnd(width)}  ${status.ids.padEnd(idsWidth)}  ${statusText(status)}`;
    if (!options.ping) {
      write(`${line}\n`);
      continue;
    }
    if (status.missing) {
      write(`${line}  ${style.dim('· ping skipped')}\n`);
      continue;
    }
    try {
      const ping = await pingProvider(status, env, providers, AbortSignal.timeout(PING_TIMEOUT_MS));
      write(`${line}  ${style.green('· ping ok')}: ${ping.model}, ${ping.inputTokens ?? '?'} in / ${ping.outputTokens ?? '?'} out tokens, ${ping.milliseconds} ms\n`);
    } catch (error) {
      if (!status.assumed) failed = true;
      write(`${line}  ${style.red('· ping failed')}: ${errorMessage(error)}\n`);
    }
  }
  return failed ? ExitCode.failed : ExitCode.ok;
}
