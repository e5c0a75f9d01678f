import { siloFor } from '../../core/silo.js';
import type { Memory } from '../../memory/openMemory.js';
import type { ApiCaller } from '../caller.js';
import type { LoadedSyndicate, ServerContext } from '../context.js';
import { fail, type Reply } from '../http/route.js';
import { isReply, loadedSyndicate } from '../turns/lookups.js';

// Whose memory a request reaches: the caller's own silo of the syndicate named in the path, by the
// same scheme as the A2A and MCP faces (siloFor(syndicate, user)), so one user's memory is one
// silo whichever face wrote it. No request names a silo, so none can reach another user's.

export interface CallerSilo {
  syndicate: LoadedSyndicate;
  silo: string;
}

/** Served syndicates that keep long-term memory, by id. */
export function memorySyndicates(ctx: ServerContext): LoadedSyndicate[] {
  return ctx.syndicates.list().flatMap((entry) => (entry.current?.compiled.extractionModel ? [entry.current] : []));
}

/** The caller's silo of the syndicate, or the problem: 404 for an unknown syndicate or one without long-term memory, 409 for one that has not loaded. */
export function callerSilo(ctx: ServerContext, caller: ApiCaller, syndicateId: string): CallerSilo | Reply {
  const syndicate = loadedSyndicate(ctx, syndicateId);
  if (isReply(syndicate)) return syndicate;
  if (!syndicate.compiled.extractionModel) {
    const keeping = memorySyndicates(ctx).map((each) => each.id);
    return fail(404, `syndicate '${syndicateId}' keeps no long-term memory (its memory_system is not long-term); ones that do: ${keeping.length > 0 ? keeping.join(', ') : 'none'}`);
  }
  return { syndicate, silo: siloFor(syndicate.name, caller.userId) };
}

/** The silo's memory, opened once per silo by the platform (the same one turns and MCP use). */
export async function siloMemory(ctx: ServerContext, target: CallerSilo): Promise<Memory> {
  const memory = await ctx.platform.memory(target.syndicate.compiled, target.silo);
  if (memory === undefined) throw new Error(`syndicate '${target.syndicate.name}' has an extraction model but the platform opened no memory for it`);
  return memory;
}
