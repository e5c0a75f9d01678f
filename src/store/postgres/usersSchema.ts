// The migration that adds users, API keys and studio sign-ins (store/users.ts). Secrets are stored only as hashes; keys,
// sign-ins and tokens go with their user (ON DELETE CASCADE).
export const USERS_MIGRATION = `
  CREATE TABLE users (
    id         text COLLATE "C" PRIMARY KEY,
    role       text NOT NULL,
    created_at bigint NOT NULL
  );
  CREATE TABLE api_keys (
    id           text PRIMARY KEY,
    name         text NOT NULL,
    user_id      text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    salt         text NOT NULL,
    hash         text NOT NULL,
    created_at   bigint NOT NULL,
    last_used_at bigint,
    revoked_at   bigint
  );
  CREATE INDEX api_keys_by_user ON api_keys (user_id);
  CREATE TABLE sign_ins (
    hash       text PRIMARY KEY,
    user_id    text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token text NOT NULL,
    expires_at bigint NOT NULL
  );
  CREATE TABLE sign_in_tokens (
    hash       text PRIMARY KEY,
    user_id    text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at bigint NOT NULL
  );
`;
