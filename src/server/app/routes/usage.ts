import { z } from 'zod';
import { parseSince, SINCE_FORMATS } from '../../../telemetry/ledger/since.js';
import { priceTableSchema } from '../../../telemetry/ledger/loadPrices.js';
import type { PriceTable } from '../../../telemetry/ledger/prices.js';
import { summarizeUsage, USAGE_GROUPINGS, type UsageTotals } from '../../../telemetry/ledger/summarizeUsage.js';
import type { Store } from '../../../store/store.js';
import { hasRole } from '../../caller.js';
import type { SyndicateRegistry } from '../../context.js';
import { defineRoute, json, type AnyRoute } from '../../http/route.js';
import { ownsSession } from '../../sessionAccess.js';

// GET /usage: the ledger grouped as `syndicate usage` groups it (telemetry/ledger/summarizeUsage),
// with cost. A member sees the calls of their own sessions; an admin every call. GET /usage/prices:
// the table the server prices with (shipped, merged with SYNDICATE_PRICES), so the studio's live
// tree costs calls as the Usage page does.

const totalsSchema = z.object({
  calls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  reasoningTokens: z.number().int(),
  cachedInputTokens: z.number().int(),
  costUsd: z.number().nullable().describe('null when no call of the group has a known price'),
});

function totalsOf(totals: UsageTotals): z.infer<typeof totalsSchema> {
  const { calls, inputTokens, outputTokens, reasoningTokens, cachedInputTokens, cost } = totals;
  return { calls, inputTokens, outputTokens, reasoningTokens, cachedInputTokens, costUsd: cost.pricedCalls + cost.localCalls > 0 ? cost.usd : null };
}

export function usageRoutes(store: () => Promise<Store>, registry: SyndicateRegistry, prices: PriceTable): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/usage/prices',
      operationId: 'getPrices',
      summary: 'The price table the server costs calls with: the shipped one merged with SYNDICATE_PRICES',
      tag: 'Usage',
      access: 'viewer',
      responses: { 200: { description: 'USD per million tokens, by provider and model', schema: priceTableSchema } },
      handle: async () => json(prices),
    }),
    defineRoute({
      method: 'get',
      path: '/usage',
      operationId: 'getUsage',
      summary: 'Calls, tokens and cost, grouped by agent, model, syndicate, day or turn',
      tag: 'Usage',
      access: 'viewer',
      query: z.object({
        by: z.enum(USAGE_GROUPINGS).default('agent'),
        since: z
          .string()
          .optional()
          .transform((text, context) => {
            if (text === undefined) return undefined;
            try {
              return parseSince(text, Date.now());
            } catch {
              context.addIssue({ code: 'custom', message: `not a time: use ${SINCE_FORMATS}` });
              return z.NEVER;
            }
          }),
        syndicate: z.string().min(1).max(64).optional().describe('A syndicate id'),
      }),
      responses: { 200: { description: 'The groups and their total', schema: z.object({ by: z.enum(USAGE_GROUPINGS), rows: z.array(totalsSchema.extend({ key: z.string() })), total: totalsSchema }) } },
      handle: async ({ query, caller }) => {
        const syndicate = query.syndicate === undefined ? undefined : (registry.get(query.syndicate)?.current?.name ?? query.syndicate);
        const all = await (await store()).queryUsage({ since: query.since, syndicate });
        const mine = hasRole(caller, 'admin') ? all : all.filter((row) => row.sessionId !== null && ownsSession(caller.userId, row.sessionId));
        const summary = summarizeUsage(mine, query.by, prices);
        return json({ by: summary.by, rows: summary.groups.map((group) => ({ key: group.key, ...totalsOf(group) })), total: totalsOf(summary.total) });
      },
    }),
  ];
}
