import { z } from 'zod';
import type { ApiKeyRecord, UserRecords } from '../../store/users.js';
import { hasRole, type ApiCaller } from '../caller.js';
import { defineRoute, fail, json, noContent, type AnyRoute } from '../http/route.js';
import { createKeyFor } from './userAdmin.js';
import { userIdSchema } from './userRoutes.js';

// API keys: a member lists, creates and revokes their own; an admin anyone's. A key's secret is
// answered once, at creation; the store keeps only its salted hash. Another user's key is a 404.

export const keySchema = z.object({
  id: z.string(),
  name: z.string(),
  userId: z.string(),
  createdAt: z.number().int().describe('Milliseconds since the epoch'),
  lastUsedAt: z.number().int().nullable().describe('Recorded at most once a minute'),
  revokedAt: z.number().int().nullable(),
});

export function keyOf(record: ApiKeyRecord): z.infer<typeof keySchema> {
  const { id, name, userId, createdAt, lastUsedAt, revokedAt } = record;
  return { id, name, userId, createdAt, lastUsedAt, revokedAt };
}

const mayManage = (caller: ApiCaller, userId: string): boolean => caller.userId === userId || hasRole(caller, 'admin');

export function keyRoutes(users: UserRecords, now: () => number): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/keys',
      operationId: 'listKeys',
      summary: 'Your API keys (an admin: everyone\'s, or one user\'s), oldest first',
      tag: 'Users',
      access: 'viewer',
      query: z.object({ user: userIdSchema.optional().describe('Only this user\'s keys (admin)') }),
      responses: { 200: { description: 'The keys, without their secrets', schema: z.object({ keys: z.array(keySchema) }) } },
      handle: async ({ caller, query }) => {
        if (query.user !== undefined && !mayManage(caller, query.user)) return fail(403, 'only an admin may list another user\'s keys');
        const userId = hasRole(caller, 'admin') ? query.user : caller.userId;
        return json({ keys: (await users.listKeys(userId)).map(keyOf) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/keys',
      operationId: 'createKey',
      summary: 'Create an API key; its secret is answered this once',
      tag: 'Users',
      access: 'member',
      body: z.strictObject({
        name: z.string().trim().min(1).max(100).describe('What the key is for, e.g. "laptop" or "ci"'),
        user: userIdSchema.optional().describe('Whose key (admin); yours by default'),
      }),
      responses: {
        201: { description: 'The new key, with `key`: send it as Authorization: Bearer <key>', schema: keySchema.extend({ key: z.string() }) },
        404: { description: 'No such user' },
      },
      handle: async ({ caller, body }) => {
        const userId = body.user ?? caller.userId;
        if (!mayManage(caller, userId)) return fail(403, 'only an admin may create a key for another user');
        const created = await createKeyFor(users, userId, body.name, now());
        if (!created) return fail(404, `there is no user '${userId}'; add them first with POST /users`);
        return json({ ...keyOf(created.record), key: created.key }, 201);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/keys/:id',
      operationId: 'revokeKey',
      summary: 'Revoke an API key: it is refused from now on (it stays listed, with revokedAt)',
      tag: 'Users',
      access: 'member',
      params: z.object({ id: z.string().min(1).max(64) }),
      responses: { 204: { description: 'Revoked (or it already was)' }, 404: { description: 'No such key of yours' } },
      handle: async ({ caller, params }) => {
        const key = await users.findKey(params.id);
        if (!key || !mayManage(caller, key.userId)) return fail(404, `there is no key '${params.id}' of yours; list yours with GET /keys`);
        if (key.revokedAt === null) await users.revokeKey(key.id, now());
        return noContent();
      },
    }),
  ];
}
