import { z } from 'zod';
import { siloFor, USER_ID } from '../../../core/silo.js';
import type { Store } from '../../../store/store.js';
import { hasRole } from '../../caller.js';
import type { SyndicateRegistry } from '../../context.js';
import { defineRoute, fail, json, type AnyRoute } from '../../http/route.js';

// GET /dreams/runs: a user silo's dream run records, as GET /tasks/:id/runs gives a task's: when
// each dream started and ended, how it ended, what it reflected on and wrote. A user reads their
// own silo's; an admin names another user with `user`.

const dreamRunSchema = z.object({
  id: z.string(),
  syndicate: z.string(),
  silo: z.string(),
  sessionId: z.string().describe("The dream's own session"),
  status: z.enum(['running', 'answered', 'failed', 'interrupted']),
  since: z.number().describe('It reflected on the sessions updated after this (ms since the epoch; 0 for the first dream)'),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  journalPath: z.string().nullable().describe('The journal document it wrote, in the memory bundle'),
  facts: z.number().int(),
  sessions: z.number().int(),
  error: z.string().nullable(),
});

export function dreamRoutes(store: () => Promise<Store>, registry: SyndicateRegistry): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/dreams/runs',
      operationId: 'listDreamRuns',
      summary: "A user's dream runs of one syndicate, newest first",
      description: 'Your own silo\'s; an admin may name another `user`. A syndicate without `dreams:` in its file has none.',
      tag: 'Dreams',
      access: 'viewer',
      query: z.object({
        syndicate: z.string().min(1).max(128).describe('A syndicate id or name'),
        user: z.string().regex(USER_ID, "a user id: 1-64 letters, digits, '.', '_' or '-'").optional().describe("Another user's silo (admins only)"),
        limit: z.coerce.number().int().min(1).max(500).default(50),
      }),
      responses: {
        200: { description: 'Dream run records', schema: z.object({ runs: z.array(dreamRunSchema) }) },
        403: { description: "A member or viewer named another user's silo" },
      },
      handle: async ({ query, caller }) => {
        const syndicate = registry.get(query.syndicate)?.current?.name ?? query.syndicate;
        const user = query.user ?? caller.userId;
        if (user !== caller.userId && !hasRole(caller, 'admin')) return fail(403, "only an admin may read another user's dreams: leave out `user` to read yours");
        const runs = await (await store()).dreamRuns.list(syndicate, siloFor(syndicate, user), query.limit);
        return json({ runs });
      },
    }),
  ];
}
