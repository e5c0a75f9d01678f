import { z } from 'zod';
import { factChain } from '../../memory/facts/factChain.js';
import { CalendarDateSchema, FactSchema, FactTagSchema, StatedKeysSchema, StatedTextSchema } from '../../memory/facts/fact.js';
import { InstantSchema, instantEnd } from '../../memory/facts/instant.js';
import { DEFAULT_RECALL_LIMIT, type RecalledFact } from '../../memory/facts/recall.js';
import { EmbeddingModelMismatchError, type FactPosition, type FactRecord } from '../../store/facts.js';
import type { ServerContext } from '../context.js';
import { opaqueCursor } from '../http/cursor.js';
import { defineRoute, fail, json, noContent, type AnyRoute, type Reply } from '../http/route.js';
import { isReply } from '../turns/lookups.js';
import { callerSilo, siloMemory } from './callerSilo.js';

// The caller's long-term facts in one syndicate's silo: list, recall, one fact with its
// supersession chain, edit (kept as a correction: the old version stays in the chain) and delete.

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

export const syndicateParams = z.object({ syndicate: z.string().min(1).max(64).describe('A syndicate id (GET /syndicates) that keeps long-term memory') });
const factParams = syndicateParams.extend({ id: z.string().min(1).max(64).describe('A fact id') });

// A page ends at its last fact: when it was said, and its id.
const cursor = opaqueCursor(z.object({ c: z.number().int(), i: z.string().min(1).max(64) }).transform((parsed): FactPosition => ({ createdAt: parsed.c, id: parsed.i })));

const chainSchema = z.object({
  supersededBy: z.array(FactSchema).describe('The corrections that retired the fact, oldest first: each retired by the next when corrected again'),
  deletedCorrection: z.string().nullable().describe('A correction of that chain that has been deleted'),
  supersedes: z.array(FactSchema).describe('The facts this one retired (an edit retires the version it replaced)'),
  restatements: z.array(FactSchema).describe('Restatements merged into this fact'),
});

const recalledSchema = z.object({
  fact: FactSchema,
  score: z.number().describe('How well it matches; comparable only within one answer'),
  current: z.boolean().describe('false for a superseded fact: history, not the current answer'),
  correction: FactSchema.nullable().describe('For a superseded fact, the correction that retired it'),
});

const editBody = z
  .strictObject({
    text: StatedTextSchema.optional(),
    tag: FactTagSchema.optional(),
    keys: StatedKeysSchema.optional().describe('1-5 entity keys; stored lower-cased'),
    date: CalendarDateSchema.optional().describe('The day the fact is about (YYYY-MM-DD), or null'),
  })
  .refine((edit) => Object.values(edit).some((value) => value !== undefined), { error: 'name at least one of text, tag, keys or date to change' });

type Edit = z.output<typeof editBody>;

function recalledOf(recalled: RecalledFact): z.infer<typeof recalledSchema> {
  return { fact: recalled.fact, score: recalled.score, current: recalled.current, correction: recalled.correction ?? null };
}

function factNotFound(id: string, syndicate: string): Reply {
  return fail(404, `there is no fact '${id}' in your memory of '${syndicate}'; list yours with GET /memory/${syndicate}/facts`);
}

function changes(fact: FactRecord, edit: Edit): boolean {
  const keys = edit.keys?.map((key) => key.toLowerCase());
  return (
    (edit.text !== undefined && edit.text !== fact.text) ||
    (edit.tag !== undefined && edit.tag !== fact.tag) ||
    (edit.date !== undefined && edit.date !== fact.date) ||
    (keys !== undefined && [...new Set(keys)].join('\n') !== fact.keys.join('\n'))
  );
}

/** Why an edit cannot apply to a fact that is no longer the one that holds. */
function notEditable(fact: FactRecord, syndicate: string): Reply {
  const holding = fact.status === 'merged' ? fact.restates : fact.supersededBy;
  const why = fact.status === 'merged' ? `is a restatement merged into fact '${holding}'` : `was superseded by fact '${holding}'`;
  return fail(409, `fact '${fact.id}' ${why}: edit the fact that holds now (GET /memory/${syndicate}/facts/${holding})`);
}

export function factRoutes(ctx: ServerContext): AnyRoute[] {
  const store = () => ctx.platform.store();
  return [
    defineRoute({
      method: 'get',
      path: '/memory/:syndicate/facts',
      operationId: 'listFacts',
      summary: 'Your facts in the syndicate\'s memory, newest first, a page at a time',
      tag: 'Memory',
      access: 'viewer',
      params: syndicateParams,
      query: z.object({
        status: z.enum(['active', 'superseded', 'merged']).optional(),
        tag: FactTagSchema.optional(),
        text: z.string().min(1).max(500).optional().describe('Only facts whose text holds this, ignoring case'),
        limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
        cursor: cursor.schema.optional().describe('nextCursor of the previous page'),
      }),
      responses: {
        200: { description: 'A page of facts', schema: z.object({ silo: z.string(), facts: z.array(FactSchema), nextCursor: z.string().nullable() }) },
        404: { description: 'No such syndicate, or it keeps no long-term memory' },
      },
      handle: async ({ params, query, caller }) => {
        const target = callerSilo(ctx, caller, params.syndicate);
        if (isReply(target)) return target;
        const { limit, cursor: after, ...filters } = query;
        // One more than the page says whether there is a next one.
        const rows = await (await store()).facts.listFacts(target.silo, { ...filters, after, limit: limit + 1 });
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        return json({ silo: target.silo, facts: page, nextCursor: rows.length > limit && last ? cursor.encode({ c: last.createdAt, i: last.id }) : null });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/memory/:syndicate/facts/search',
      operationId: 'searchFacts',
      summary: 'Recalls the facts that best match a query, as the recall tool does',
      description: 'Hybrid recall (vectors and full text); superseded facts rank below the facts that hold now and are marked current: false.',
      tag: 'Memory',
      access: 'viewer',
      params: syndicateParams,
      query: z.object({
        q: z.string().trim().min(1).max(2_000).describe('What to look up, in a few words or a question'),
        limit: z.coerce.number().int().min(1).max(50).default(DEFAULT_RECALL_LIMIT),
        asOf: InstantSchema.optional().describe('Recall memory as it stood then: YYYY-MM-DD (the end of that day, UTC) or a date-time with its zone'),
      }),
      responses: {
        200: { description: 'The facts recalled, best first', schema: z.object({ asOf: z.string().nullable(), facts: z.array(recalledSchema) }) },
        404: { description: 'No such syndicate, or it keeps no long-term memory' },
        409: { description: "The silo's vectors come from another embedding model than the syndicate's" },
      },
      handle: async ({ params, query, caller }) => {
        const target = callerSilo(ctx, caller, params.syndicate);
        if (isReply(target)) return target;
        const memory = await siloMemory(ctx, target);
        const asOf = query.asOf === undefined ? undefined : instantEnd(query.asOf);
        try {
          const recalled = await memory.facts.recall(query.q, { limit: query.limit, asOf });
          return json({ asOf: asOf === undefined ? null : new Date(asOf).toISOString(), facts: recalled.map(recalledOf) });
        } catch (error) {
          if (error instanceof EmbeddingModelMismatchError) return fail(409, error.message);
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'get',
      path: '/memory/:syndicate/facts/:id',
      operationId: 'getFact',
      summary: 'One fact with its supersession chain',
      tag: 'Memory',
      access: 'viewer',
      params: factParams,
      responses: {
        200: { description: 'The fact and its chain', schema: z.object({ fact: FactSchema, chain: chainSchema }) },
        404: { description: 'No such fact in your memory' },
      },
      handle: async ({ params, caller }) => {
        const target = callerSilo(ctx, caller, params.syndicate);
        if (isReply(target)) return target;
        const facts = (await store()).facts;
        const fact = await facts.getFact(target.silo, params.id);
        if (fact === undefined) return factNotFound(params.id, params.syndicate);
        return json({ fact, chain: await factChain(facts, fact) });
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/memory/:syndicate/facts/:id',
      operationId: 'editFact',
      summary: 'Edits a fact: the edit is stored as a correction, the old version kept superseded in its chain',
      description: 'Only the fact that holds now (status active) can be edited. An edit that changes nothing stores nothing and answers previous: null.',
      tag: 'Memory',
      access: 'member',
      params: factParams,
      body: editBody,
      responses: {
        200: { description: 'The fact as it holds now, and the version it replaced', schema: z.object({ fact: FactSchema, previous: FactSchema.nullable() }) },
        404: { description: 'No such fact in your memory' },
        409: { description: 'The fact is superseded or merged, or its silo holds vectors of another embedding model' },
      },
      handle: async ({ params, body, caller }) => {
        const target = callerSilo(ctx, caller, params.syndicate);
        if (isReply(target)) return target;
        const facts = (await store()).facts;
        const fact = await facts.getFact(target.silo, params.id);
        if (fact === undefined) return factNotFound(params.id, params.syndicate);
        if (fact.status !== 'active') return notEditable(fact, params.syndicate);
        if (!changes(fact, body)) return json({ fact, previous: null });
        const text = body.text ?? fact.text;
        const embedder = target.syndicate.compiled.embedder();
        const [embedding] = await embedder.embed([text]);
        const replacement = {
          text,
          tag: body.tag ?? fact.tag,
          date: body.date === undefined ? fact.date : body.date,
          keys: body.keys ?? fact.keys,
          // The user said it, outside any conversation; it is still about what the old version was.
          source: 'user',
          provenance: null,
          subject: fact.subject,
          attribute: fact.attribute,
          embedding: embedding!,
          embeddingModel: embedder.model,
        };
        try {
          const corrected = await facts.correctFact(target.silo, fact.id, replacement);
          if (corrected === undefined) return fail(409, `fact '${fact.id}' changed while it was edited; read it again (GET /memory/${params.syndicate}/facts/${fact.id})`);
          return json({ fact: corrected, previous: (await facts.getFact(target.silo, fact.id)) ?? null });
        } catch (error) {
          if (error instanceof EmbeddingModelMismatchError) return fail(409, error.message);
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/memory/:syndicate/facts/:id',
      operationId: 'deleteFact',
      summary: 'Deletes a fact for good, with its vector and text index entry',
      description: 'A real delete, not a supersession. Facts a deleted correction retired stay superseded: they were corrected.',
      tag: 'Memory',
      access: 'member',
      params: factParams,
      responses: { 204: { description: 'Deleted' }, 404: { description: 'No such fact in your memory' } },
      handle: async ({ params, caller }) => {
        const target = callerSilo(ctx, caller, params.syndicate);
        if (isReply(target)) return target;
        if (!(await (await store()).facts.deleteFact(target.silo, params.id))) return factNotFound(params.id, params.syndicate);
        return noContent();
      },
    }),
  ];
}
