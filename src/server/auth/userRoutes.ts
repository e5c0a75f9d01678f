import { z } from 'zod';
import { userIdProblem } from '../../a2a/caller.js';
import type { UserRecord, UserRecords } from '../../store/users.js';
import { ROLES } from '../caller.js';
import { defineRoute, fail, json, noContent, type AnyRoute } from '../http/route.js';
import { roleOf } from './tokens.js';
import { removeUserUnlessLastAdmin } from './userAdmin.js';

// The admin's users API: list, add, remove. A user's id is their memory silo's and sessions' owner,
// so it follows the silo id rules (the same as the A2A face's user ids).

export const userSchema = z.object({
  id: z.string(),
  role: z.enum(ROLES),
  createdAt: z.number().int().describe('Milliseconds since the epoch'),
});

export const userIdSchema = z
  .string()
  .refine((id) => userIdProblem(id) === undefined, "a user id is 1-64 letters, digits, '.', '_' or '-', and not 'client' or 'local'");

export function userOf(record: UserRecord): z.infer<typeof userSchema> {
  return { id: record.id, role: roleOf(record.role), createdAt: record.createdAt };
}

export function userRoutes(users: UserRecords, now: () => number): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/users',
      operationId: 'listUsers',
      summary: 'The users, ordered by id',
      tag: 'Users',
      access: 'admin',
      responses: { 200: { description: 'The users', schema: z.object({ users: z.array(userSchema) }) } },
      handle: async () => json({ users: (await users.listUsers()).map(userOf) }),
    }),
    defineRoute({
      method: 'post',
      path: '/users',
      operationId: 'createUser',
      summary: 'Add a user; give them a key with POST /keys',
      tag: 'Users',
      access: 'admin',
      body: z.strictObject({ id: userIdSchema, role: z.enum(ROLES).default('member') }),
      responses: { 201: { description: 'The new user', schema: userSchema }, 409: { description: 'A user with that id exists' } },
      handle: async ({ body }) => {
        const record = { id: body.id, role: body.role, createdAt: now() };
        if (!(await users.createUser(record))) return fail(409, `a user '${body.id}' exists already: pick another id, or remove that user first`);
        return json(userOf(record), 201);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/users/:id',
      operationId: 'deleteUser',
      summary: 'Remove a user with their keys and sign-ins (their sessions and memory stay)',
      tag: 'Users',
      access: 'admin',
      params: z.object({ id: z.string().min(1).max(64) }),
      responses: { 204: { description: 'Removed' }, 404: { description: 'No such user' }, 409: { description: 'The last admin' } },
      handle: async ({ params }) => {
        const removal = await removeUserUnlessLastAdmin(users, params.id);
        if (removal === 'missing') return fail(404, `there is no user '${params.id}'; list them with GET /users`);
        if (removal === 'lastAdmin') return fail(409, `'${params.id}' is the last admin: add another admin first, so someone can still manage the server`);
        return noContent();
      },
    }),
  ];
}
