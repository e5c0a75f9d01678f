import { userIdProblem } from '../a2a/caller.js';
import { ROLES, type Role } from '../server/caller.js';
import { keyOf } from '../server/auth/keyRoutes.js';
import { createKeyFor, removeUserUnlessLastAdmin } from '../server/auth/userAdmin.js';
import type { ApiKeyRecord } from '../store/users.js';
import { ExitCode } from './exitCodes.js';
import { withExistingStore, withStore } from './openPlatform.js';
import { formatTable, formatTime } from './text.js';
import { UsageError } from './usageError.js';

// `syndicate users add|list|remove` and `syndicate keys create|list|revoke`: the server's users
// and API keys, straight in the store (no server needs to run), with the API's rules.

export interface UsersOptions {
  db?: string;
  json?: boolean;
}

export interface UsersAddOptions extends UsersOptions {
  role: string;
}

export interface KeysCreateOptions extends UsersOptions {
  user: string;
  name: string;
}

export interface KeysListOptions extends UsersOptions {
  user?: string;
}

const write = (text: string): void => void process.stdout.write(text);
const fail = (text: string): number => (process.stderr.write(`${text}\n`), ExitCode.failed);

function userIdOf(id: string): string {
  const problem = userIdProblem(id);
  if (problem !== undefined) throw new UsageError(`cannot use '${id}' as a user id: use 1-64 letters, digits, '.', '_' or '-', and not 'client' or 'local'`);
  return id;
}

function roleOf(role: string): Role {
  const known = ROLES.find((name) => name === role);
  if (known === undefined) throw new UsageError(`--role must be one of ${ROLES.join(', ')}, got '${role}'`);
  return known;
}

export function usersAdd(id: string, options: UsersAddOptions): Promise<number> {
  const user = { id: userIdOf(id), role: roleOf(options.role), createdAt: Date.now() };
  return withStore(options.db, async (store, storeName) => {
    if (!(await store.users.createUser(user))) return fail(`A user '${id}' exists already in ${storeName}. See: syndicate users list`);
    if (options.json) write(`${JSON.stringify(user)}\n`);
    else write(`Added ${user.role} '${id}'. Give them an API key: syndicate keys create --user ${id}\n`);
    return ExitCode.ok;
  });
}

export function usersList(options: UsersOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const users = (await store?.users.listUsers()) ?? [];
    if (options.json) write(`${JSON.stringify(users)}\n`);
    else if (users.length === 0) write(`No users in ${storeName}. Add one: syndicate users add <id> --role admin\n`);
    else write(`${formatTable([['USER', 'ROLE', 'CREATED'], ...users.map((user) => [user.id, user.role, formatTime(user.createdAt)])])}\n`);
    return ExitCode.ok;
  });
}

export function usersRemove(id: string, options: UsersOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const removal = store ? await removeUserUnlessLastAdmin(store.users, id) : 'missing';
    if (removal === 'missing') return fail(`No user '${id}' in ${storeName}. See: syndicate users list`);
    if (removal === 'lastAdmin') return fail(`'${id}' is the last admin: add another first (syndicate users add <id> --role admin), so someone can still manage the server.`);
    write(`Removed user '${id}' with their keys and sign-ins (their sessions and memory stay).\n`);
    return ExitCode.ok;
  });
}

export function keysCreate(options: KeysCreateOptions): Promise<number> {
  const userId = userIdOf(options.user);
  return withStore(options.db, async (store, storeName) => {
    const created = await createKeyFor(store.users, userId, options.name, Date.now());
    if (!created) return fail(`No user '${userId}' in ${storeName}. Add them first: syndicate users add ${userId}`);
    if (options.json) write(`${JSON.stringify({ ...keyOf(created.record), key: created.key })}\n`);
    else write(`${created.key}\nAPI key '${options.name}' for '${userId}' (id ${created.record.id}). It is shown only now: send it as Authorization: Bearer <key>.\n`);
    return ExitCode.ok;
  });
}

function when(at: number | null): string {
  return at === null ? '-' : formatTime(at);
}

export function keysList(options: KeysListOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const keys: ApiKeyRecord[] = (await store?.users.listKeys(options.user)) ?? [];
    if (options.json) write(`${JSON.stringify(keys.map(keyOf))}\n`);
    else if (keys.length === 0) write(`No API keys in ${storeName}. Create one: syndicate keys create --user <id>\n`);
    else write(`${formatTable([['KEY', 'NAME', 'USER', 'CREATED', 'LAST USED', 'REVOKED'], ...keys.map((key) => [key.id, key.name, key.userId, formatTime(key.createdAt), when(key.lastUsedAt), when(key.revokedAt)])])}\n`);
    return ExitCode.ok;
  });
}

export function keysRevoke(id: string, options: UsersOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const key = await store?.users.findKey(id);
    if (!store || !key) return fail(`No API key '${id}' in ${storeName}. See: syndicate keys list`);
    if (key.revokedAt === null) await store.users.revokeKey(id, Date.now());
    write(`Revoked API key '${key.name}' of '${key.userId}': it is refused from now on.\n`);
    return ExitCode.ok;
  });
}
