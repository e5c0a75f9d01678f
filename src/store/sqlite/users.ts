import type Database from 'better-sqlite3';
import type { ApiKeyLookup, ApiKeyRecord, SignInLookup, UserRecord, UserRecords } from '../users.js';

const USER = 'id, role, created_at AS createdAt';
const KEY = 'k.id, k.name, k.user_id AS userId, k.created_at AS createdAt, k.last_used_at AS lastUsedAt, k.revoked_at AS revokedAt';

export function createSqliteUsers(db: Database.Database): UserRecords {
  const sql = {
    createUser: db.prepare<[id: string, role: string, createdAt: number]>('INSERT INTO users (id, role, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING'),
    getUser: db.prepare<[id: string], UserRecord>(`SELECT ${USER} FROM users WHERE id = ?`),
    listUsers: db.prepare<[], UserRecord>(`SELECT ${USER} FROM users ORDER BY id`),
    removeUser: db.prepare<[id: string]>('DELETE FROM users WHERE id = ?'),
    createKey: db.prepare<[id: string, name: string, userId: string, salt: string, hash: string, createdAt: number, lastUsedAt: number | null, revokedAt: number | null]>(
      'INSERT INTO api_keys (id, name, user_id, salt, hash, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    findKey: db.prepare<[id: string], ApiKeyLookup>(`SELECT ${KEY}, k.salt, k.hash, u.role FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ?`),
    listKeys: db.prepare<[], ApiKeyRecord>(`SELECT ${KEY} FROM api_keys k ORDER BY k.created_at, k.id`),
    listUserKeys: db.prepare<[userId: string], ApiKeyRecord>(`SELECT ${KEY} FROM api_keys k WHERE k.user_id = ? ORDER BY k.created_at, k.id`),
    revokeKey: db.prepare<[at: number, id: string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    touchKey: db.prepare<[at: number, id: string, before: number]>('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)'),
    saveSignIn: db.prepare<[hash: string, userId: string, csrfToken: string, expiresAt: number]>(
      'INSERT INTO sign_ins (hash, user_id, csrf_token, expires_at) VALUES (?, ?, ?, ?)',
    ),
    findSignIn: db.prepare<[hash: string, now: number], SignInLookup>(
      `SELECT s.hash, s.user_id AS userId, s.csrf_token AS csrfToken, s.expires_at AS expiresAt, u.role
       FROM sign_ins s JOIN users u ON u.id = s.user_id WHERE s.hash = ? AND s.expires_at > ?`,
    ),
    deleteSignIn: db.prepare<[hash: string]>('DELETE FROM sign_ins WHERE hash = ?'),
    saveToken: db.prepare<[hash: string, userId: string, expiresAt: number]>('INSERT INTO sign_in_tokens (hash, user_id, expires_at) VALUES (?, ?, ?)'),
    consumeToken: db.prepare<[hash: string], { userId: string; expiresAt: number }>(
      'DELETE FROM sign_in_tokens WHERE hash = ? RETURNING user_id AS userId, expires_at AS expiresAt',
    ),
  };

  return {
    async createUser(user) {
      return sql.createUser.run(user.id, user.role, user.createdAt).changes === 1;
    },
    async getUser(id) {
      return sql.getUser.get(id);
    },
    async listUsers() {
      return sql.listUsers.all();
    },
    async removeUser(id) {
      return sql.removeUser.run(id).changes === 1;
    },
    async createKey(key) {
      sql.createKey.run(key.id, key.name, key.userId, key.salt, key.hash, key.createdAt, key.lastUsedAt, key.revokedAt);
    },
    async findKey(id) {
      return sql.findKey.get(id);
    },
    async listKeys(userId) {
      return userId === undefined ? sql.listKeys.all() : sql.listUserKeys.all(userId);
    },
    async revokeKey(id, at) {
      return sql.revokeKey.run(at, id).changes === 1;
    },
    async touchKey(id, at, minIntervalMs) {
      sql.touchKey.run(at, id, at - minIntervalMs);
    },
    async saveSignIn(signIn) {
      sql.saveSignIn.run(signIn.hash, signIn.userId, signIn.csrfToken, signIn.expiresAt);
    },
    async findSignIn(hash, now) {
      return sql.findSignIn.get(hash, now);
    },
    async deleteSignIn(hash) {
      sql.deleteSignIn.run(hash);
    },
    async saveSignInToken(token) {
      sql.saveToken.run(token.hash, token.userId, token.expiresAt);
    },
    async consumeSignInToken(hash, now) {
      // Deleted whether or not it expired: a used or stale token is of no further use.
      const token = sql.consumeToken.get(hash);
      if (token === undefined || token.expiresAt <= now) return undefined;
      return sql.getUser.get(token.userId);
    },
  };
}
