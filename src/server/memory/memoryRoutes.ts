import { z } from 'zod';
import { siloFor } from '../../core/silo.js';
import type { ServerContext } from '../context.js';
import { defineRoute, json, type AnyRoute } from '../http/route.js';
import { memorySyndicates } from './callerSilo.js';
import { documentRoutes } from './documentRoutes.js';
import { factRoutes } from './factRoutes.js';

// /api/v1/memory: the caller's own long-term memory, one silo per syndicate that keeps it.

const siloSchema = z.object({
  syndicate: z.string().describe('The syndicate id: /memory/<syndicate>/...'),
  name: z.string(),
  silo: z.string(),
  facts: z.number().int(),
  active: z.number().int(),
  documents: z.number().int(),
});

export function memoryRoutes(ctx: ServerContext): AnyRoute[] {
  const silos = defineRoute({
    method: 'get',
    path: '/memory',
    operationId: 'listMemorySilos',
    summary: 'Your memory silos: one per served syndicate that keeps long-term memory',
    tag: 'Memory',
    access: 'viewer',
    responses: { 200: { description: 'Your silos', schema: z.object({ silos: z.array(siloSchema) }) } },
    handle: async ({ caller }) => {
      const store = await ctx.platform.store();
      const summaries = new Map((await store.facts.listSilos()).map((summary) => [summary.silo, summary]));
      const listed = await Promise.all(
        memorySyndicates(ctx).map(async (syndicate) => {
          const silo = siloFor(syndicate.name, caller.userId);
          const summary = summaries.get(silo);
          const documents = (await store.documents.listDocuments(silo)).length;
          return { syndicate: syndicate.id, name: syndicate.name, silo, facts: summary?.facts ?? 0, active: summary?.active ?? 0, documents };
        }),
      );
      return json({ silos: listed });
    },
  });
  return [silos, ...factRoutes(ctx), ...documentRoutes(ctx)];
}
