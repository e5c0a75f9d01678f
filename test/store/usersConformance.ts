import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { ApiKeySecret } from '../../src/store/users.js';

// The behaviour every UserRecords implementation must show, against the Store interface so the
// PostgreSQL implementation runs it unchanged. Each test uses fresh user ids.

export function describeUserRecordsConformance(name: string, open: () => Promise<Store>, cleanup: () => Promise<void> = async () => undefined): void {
  describe(`${name} users`, () => {
    let store: Store;
    let user: string;
    const keyOf = (id: string, userId: string, createdAt = 1_000): ApiKeySecret => ({
      id, name: 'ci', userId, createdAt, lastUsedAt: null, revokedAt: null, salt: 'salt', hash: 'hash',
    });

    beforeEach(async () => {
      store = await open();
      user = `user-${randomUUID()}`;
    });
    afterEach(async () => store.close());
    afterAll(cleanup);

    it('creates a user once and reads it back', async () => {
      expect(await store.users.createUser({ id: user, role: 'member', createdAt: 5 })).toBe(true);
      expect(await store.users.createUser({ id: user, role: 'admin', createdAt: 6 })).toBe(false);

      expect(await store.users.getUser(user)).toEqual({ id: user, role: 'member', createdAt: 5 });
      expect((await store.users.listUsers()).filter((u) => u.id === user)).toEqual([{ id: user, role: 'member', createdAt: 5 }]);
    });

    it('finds a key with its salted hash and its user role', async () => {
      await store.users.createUser({ id: user, role: 'viewer', createdAt: 1 });
      const id = randomUUID();
      await store.users.createKey(keyOf(id, user));

      expect(await store.users.findKey(id)).toEqual({ ...keyOf(id, user), role: 'viewer' });
      expect(await store.users.listKeys(user)).toEqual([{ id, name: 'ci', userId: user, createdAt: 1_000, lastUsedAt: null, revokedAt: null }]);
    });

    it('revokes a key once', async () => {
      await store.users.createUser({ id: user, role: 'member', createdAt: 1 });
      const id = randomUUID();
      await store.users.createKey(keyOf(id, user));

      expect(await store.users.revokeKey(id, 42)).toBe(true);
      expect(await store.users.revokeKey(id, 43)).toBe(false);
      expect((await store.users.findKey(id))?.revokedAt).toBe(42);
    });

    it('records a key use only when the last one is older than the interval', async () => {
      await store.users.createUser({ id: user, role: 'member', createdAt: 1 });
      const id = randomUUID();
      await store.users.createKey(keyOf(id, user));

      await store.users.touchKey(id, 100_000, 60_000);
      await store.users.touchKey(id, 130_000, 60_000);
      expect((await store.users.findKey(id))?.lastUsedAt).toBe(100_000);
      await store.users.touchKey(id, 160_000, 60_000);
      expect((await store.users.findKey(id))?.lastUsedAt).toBe(160_000);
    });

    it('removing a user removes their keys and sign-ins', async () => {
      await store.users.createUser({ id: user, role: 'member', createdAt: 1 });
      const id = randomUUID();
      await store.users.createKey(keyOf(id, user));
      await store.users.saveSignIn({ hash: `h-${user}`, userId: user, csrfToken: 'c', expiresAt: 10_000 });

      expect(await store.users.removeUser(user)).toBe(true);

      expect(await store.users.findKey(id)).toBeUndefined();
      expect(await store.users.findSignIn(`h-${user}`, 0)).toBeUndefined();
      expect(await store.users.listKeys(user)).toEqual([]);
      expect(await store.users.removeUser(user)).toBe(false);
    });

    it('finds a sign-in until it expires, and not after it is deleted', async () => {
      await store.users.createUser({ id: user, role: 'admin', createdAt: 1 });
      const hash = `h-${user}`;
      await store.users.saveSignIn({ hash, userId: user, csrfToken: 'csrf', expiresAt: 10_000 });

      expect(await store.users.findSignIn(hash, 9_999)).toEqual({ hash, userId: user, csrfToken: 'csrf', expiresAt: 10_000, role: 'admin' });
      expect(await store.users.findSignIn(hash, 10_000)).toBeUndefined();
      await store.users.deleteSignIn(hash);
      expect(await store.users.findSignIn(hash, 0)).toBeUndefined();
    });

    it('a sign-in token works once', async () => {
      await store.users.createUser({ id: user, role: 'admin', createdAt: 1 });
      await store.users.saveSignInToken({ hash: `t-${user}`, userId: user, expiresAt: 10_000 });

      expect(await store.users.consumeSignInToken(`t-${user}`, 5)).toEqual({ id: user, role: 'admin', createdAt: 1 });
      expect(await store.users.consumeSignInToken(`t-${user}`, 5)).toBeUndefined();
    });

    it('an expired sign-in token does not work', async () => {
      await store.users.createUser({ id: user, role: 'admin', createdAt: 1 });
      await store.users.saveSignInToken({ hash: `t-${user}`, userId: user, expiresAt: 10_000 });

      expect(await store.users.consumeSignInToken(`t-${user}`, 10_000)).toBeUndefined();
    });
  });
}
