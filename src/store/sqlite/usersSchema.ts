// Users, API keys and studio sign-ins (store/users.ts). Secrets are stored only as hashes; keys,
// sign-ins and tokens go with their user (ON DELETE CASCADE; connection.ts turns foreign_keys on).
export const USERS_MIGRATION = `
  CREATE TABLE users (
    id         TEXT PRIMARY KEY,
    role       TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    salt         TEXT NOT NULL,
    hash         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
  );
  CREATE INDEX api_keys_by_user ON api_keys (user_id);
  CREATE TABLE sign_ins (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE sign_in_tokens (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
`;
