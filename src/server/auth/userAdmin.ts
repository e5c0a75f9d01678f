import type { ApiKeyRecord, UserRecords } from '../../store/users.js';
import { mintApiKey } from './apiKey.js';
import { ADMIN_USER } from './createAuth.js';

// What the users and keys API and the CLI's `users` and `keys` commands both do, so the two
// faces keep the same rules.

export type Removal = 'removed' | 'missing' | 'lastAdmin';

/** Removes the user with their keys and sign-ins, unless they are the last admin (nobody could manage the server). */
export async function removeUserUnlessLastAdmin(users: UserRecords, id: string): Promise<Removal> {
  const all = await users.listUsers();
  const user = all.find((record) => record.id === id);
  if (!user) return 'missing';
  if (user.role === 'admin' && all.filter((record) => record.role === 'admin').length === 1) return 'lastAdmin';
  return (await users.removeUser(id)) ? 'removed' : 'missing';
}

/** A new key for the user, its secret stored only as a salted hash; undefined when there is no such user. */
export async function createKeyFor(users: UserRecords, userId: string, name: string, at: number): Promise<{ record: ApiKeyRecord; key: string } | undefined> {
  if (!(await users.getUser(userId))) return undefined;
  const minted = mintApiKey();
  const record: ApiKeyRecord = { id: minted.id, name, userId, createdAt: at, lastUsedAt: null, revokedAt: null };
  await users.createKey({ ...record, salt: minted.salt, hash: minted.hash });
  return { record, key: minted.key };
}

/**
 * The user a task nobody named an owner for runs for (a file's task, `syndicate tasks add` without
 * --user): the earliest admin; before serve's first start has made one, `admin`, the id it gets.
 */
export async function firstAdmin(users: UserRecords): Promise<string> {
  const admins = (await users.listUsers()).filter((user) => user.role === 'admin');
  admins.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  return admins[0]?.id ?? ADMIN_USER;
}
