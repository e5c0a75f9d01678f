import { siloFor, USER_ID } from '../core/silo.js';
import { firstAdmin } from '../server/auth/userAdmin.js';
import type { DreamRunRecord } from '../store/backgroundJobs.js';
import { ExitCode } from './exitCodes.js';
import { loadDefinition } from './loadDefinition.js';
import { withExistingStore } from './openPlatform.js';
import { formatInstant, formatTable } from './text.js';
import { UsageError } from './usageError.js';

// `syndicate dreams runs`: a user's dream run records of one syndicate, as `syndicate serve` wrote
// them (dreams run per user silo; the admin's by default, as tasks are).

export interface DreamRunsOptions {
  db?: string;
  json?: boolean;
  user?: string;
  limit: string;
}

const write = (text: string): void => void process.stdout.write(text);

function row(run: DreamRunRecord): string[] {
  const outcome = run.error ?? run.journalPath ?? (run.status === 'running' ? '' : 'no new sessions: nothing written');
  return [formatInstant(run.startedAt), run.status, String(run.sessions), String(run.facts), outcome.replace(/\s+/g, ' ').slice(0, 70)];
}

export function listDreamRuns(syndicate: string, options: DreamRunsOptions): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a whole number above 0, got '${options.limit}'`);
  if (options.user !== undefined && !USER_ID.test(options.user)) throw new UsageError(`--user must be a user id (1-64 letters, digits, '.', '_' or '-'), got '${options.user}'`);
  const definition = loadDefinition(syndicate, {});
  return withExistingStore(options.db, async (store, storeName) => {
    const user = options.user ?? (store ? await firstAdmin(store.users) : 'admin');
    const runs = (await store?.dreamRuns.list(definition.name, siloFor(definition.name, user), limit)) ?? [];
    if (options.json) write(`${JSON.stringify(runs)}\n`);
    else if (runs.length > 0) write(`${formatTable([['STARTED', 'STATUS', 'SESSIONS', 'FACTS', 'JOURNAL / ERROR'], ...runs.map(row)])}\n`);
    else {
      const why = definition.dreams ? `\`syndicate serve\` on ${storeName} dreams once ${user} has talked to it` : `its file declares no dreams: add a dreams: block (every: 24h, agent: <name>)`;
      write(`No dreams of ${definition.name} for ${user} in ${storeName}: ${why}.\n`);
    }
    return ExitCode.ok;
  });
}
