import type { ApiKeyLookup, ApiKeyRecord, SignInLookup, UserRecord, UserRecords } from '../users.js';
import type { Db } from './connection.js';

const USER = 'id, role, created_at AS "createdAt"';
const KEY = 'k.id, k.name, k.user_id AS "userId", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt"';

export function createPostgresUsers(db: Db): UserRecords {
  const getUser = async (id: string): Promise<UserRecord | undefined> => (await db.read<UserRecord>(`SELECT ${USER} FROM users WHERE id = $1`, [id]))[0];
  return {
    async createUser(user) {
      const result = await db.write('INSERT INTO users (id, role, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [user.id, user.role, user.createdAt]);
      return result.rowCount === 1;
    },
    getUser,
    async listUsers() {
      return db.read<UserRecord>(`SELECT ${USER} FROM users ORDER BY id`);
    },
    async removeUser(id) {
      return (await db.write('DELETE FROM users WHERE id = $1', [id])).rowCount === 1;
    },
    async createKey(key) {
      await db.write(
        'INSERT INTO api_keys (id, name, user_id, salt, hash, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [key.id, key.name, key.userId, key.salt, key.hash, key.createdAt, key.lastUsedAt, key.revokedAt],
      );
    },
    async findKey(id) {
      return (await db.read<ApiKeyLookup>(`SELECT ${KEY}, k.salt, k.hash, u.role FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = $1`, [id]))[0];
    },
    async listKeys(userId) {
      return userId === undefined
        ? db.read<ApiKeyRecord>(`SELECT ${KEY} FROM api_keys k ORDER BY k.created_at, k.id`)
        : db.read<ApiKeyRecord>(`SELECT ${KEY} FROM api_keys k WHERE k.user_id = $1 ORDER BY k.created_at, k.id`, [userId]);
    },
    async revokeKey(id, at) {
      return (await db.write('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id])).rowCount === 1;
    },
    async touchKey(id, at, minIntervalMs) {
      await db.write('UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)', [at, id, at - minIntervalMs]);
    },
    async saveSignIn(signIn) {
      await db.write('INSERT INTO sign_ins (hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)', [signIn.hash, signIn.userId, signIn.csrfToken, signIn.expiresAt]);
    },
    async findSignIn(hash, now) {
      const rows = await db.read<SignInLookup>(
        `SELECT s.hash, s.user_id AS "userId", s.csrf_token AS "csrfToken", s.expires_at AS "expiresAt", u.role
         FROM sign_ins s JOIN users u ON u.id = s.user_id WHERE s.hash = $1 AND s.expires_at > $2`,
        [hash, now],
      );
      return rows[0];
    },
    async deleteSignIn(hash) {
      await db.write('DELETE FROM sign_ins WHERE hash = $1', [hash]);
    },
    async saveSignInToken(token) {
      await db.write('INSERT INTO sign_in_tokens (hash, user_id, expires_at) VALUES ($1, $2, $3)', [token.hash, token.userId, token.expiresAt]);
    },
    async consumeSignInToken(hash, now) {
      // Deleted whether or not it expired: a used or stale token is of no further use. The DELETE
      // returns the row to one caller only, so two processes cannot both use a token.
      const { rows } = await db.write<{ userId: string; expiresAt: number }>(
        'DELETE FROM sign_in_tokens WHERE hash = $1 RETURNING user_id AS "userId", expires_at AS "expiresAt"',
        [hash],
      );
      const token = rows[0];
      if (token === undefined || token.expiresAt <= now) return undefined;
      return getUser(token.userId);
    },
  };
}
