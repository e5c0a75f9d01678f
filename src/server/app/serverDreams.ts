import { startDreams, type DreamSchedule } from '../../scheduler/dreams/index.js';
import { sharedDreams } from '../../scheduler/pgBoss/dreams.js';
import type { CompiledSyndicate } from '../../runtime/compileSyndicate.js';
import type { ServerContext, SyndicateRegistry } from '../context.js';
import type { WatchedSyndicateRegistry } from './syndicateRegistry.js';
import { userOfSession } from '../sessionAccess.js';

// The server's dreams: each syndicate that declares `dreams:` dreams once per user silo, for every
// user with a server session of it (`api:<user>:…`), over that user's conversations only (never
// over background, task or dream sessions: scheduler/dreams/dreamSessions.ts). A file that reloads
// brings its `dreams:` with it, as it does its `schedules:`: added, changed or removed without a
// restart. On PostgreSQL the due dreams go through the shared queue (scheduler/pgBoss), so several
// server processes on one database dream each silo once.

// The sessions read to find the users; a user with none among them has not talked to it lately.
const MAX_SESSIONS_SCANNED = 10_000;

export interface ServerDreamsOptions {
  /** The dreams' clock (tests move it). */
  now?(): Date;
}

/** The syndicates as serve has them: loaded now, and told of each reload. */
export type DreamingSyndicates = SyndicateRegistry & Pick<WatchedSyndicateRegistry, 'onLoaded'>;

export async function startServerDreams(ctx: Pick<ServerContext, 'platform' | 'warn'> & { syndicates: DreamingSyndicates }, options: ServerDreamsOptions = {}): Promise<DreamSchedule> {
  const store = await ctx.platform.store();
  const syndicates = ctx.syndicates.list().flatMap((entry) => (entry.current ? [entry.current.compiled] : []));
  const users = async (syndicate: CompiledSyndicate): Promise<string[]> => {
    const sessions = await store.listSessions({ syndicate: syndicate.name, idPrefix: 'api:', limit: MAX_SESSIONS_SCANNED });
    return [...new Set(sessions.flatMap((session) => userOfSession(session.id) ?? []))].sort();
  };
  const workQueue = await ctx.platform.workQueue();
  const shared = workQueue && (await sharedDreams(workQueue, ctx.warn));
  const schedule = startDreams({
    store,
    syndicates,
    users,
    memory: (syndicate, silo) => ctx.platform.memory(syndicate, silo),
    warn: (message) => ctx.warn(`warning: ${message}`),
    now: options.now,
    queue: shared,
  });
  shared?.work(schedule.take, (work) => ctx.platform.track(work));
  ctx.syndicates.onLoaded((loaded) => schedule.update(loaded.compiled));
  return {
    ...schedule,
    async stop() {
      await Promise.all([shared?.stop(), schedule.stop()]);
    },
  };
}
