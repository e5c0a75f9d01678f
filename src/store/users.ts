// Users, their API keys and studio sign-ins, persisted so several server processes share them.
// The store keeps secrets only as hashes and roles as opaque text: what a role means, and how a
// secret is hashed and checked, is the auth layer's business (server/auth/). Async, like the rest
// of the Store, so PostgreSQL can implement it unchanged.

export interface UserRecord {
  id: string;
  role: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  userId: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** A key as stored: its record plus the salted hash of its secret. */
export interface ApiKeySecret extends ApiKeyRecord {
  salt: string;
  hash: string;
}

/** A key found for a check, with its user's role: only keys whose user still exists are found. */
export interface ApiKeyLookup extends ApiKeySecret {
  role: string;
}

/** A studio sign-in (the `syndicate_session` cookie), keyed by the hash of the cookie's value. */
export interface SignInRecord {
  hash: string;
  userId: string;
  csrfToken: string;
  expiresAt: number;
}

/** A sign-in found for a check, with its user's role. */
export interface SignInLookup extends SignInRecord {
  role: string;
}

export interface UserRecords {
  /** Returns false, changing nothing, when a user with that id exists. */
  createUser(user: UserRecord): Promise<boolean>;
  getUser(id: string): Promise<UserRecord | undefined>;
  /** Ordered by id. */
  listUsers(): Promise<UserRecord[]>;
  /** Removes the user with their keys, sign-ins and sign-in tokens; false when there was no such user. */
  removeUser(id: string): Promise<boolean>;
  createKey(key: ApiKeySecret): Promise<void>;
  /** The key and its user's role; undefined when there is no such key or its user is gone. Revoked keys are found (revokedAt set). */
  findKey(id: string): Promise<ApiKeyLookup | undefined>;
  /** Oldest first; only that user's keys when `userId` is given. */
  listKeys(userId?: string): Promise<ApiKeyRecord[]>;
  /** Sets revokedAt once; false when there is no such key or it was already revoked. */
  revokeKey(id: string, at: number): Promise<boolean>;
  /**
   * Records a use of the key at `at`, unless one was recorded less than `minIntervalMs` before:
   * checked in the statement, so processes sharing the store do not write on every request.
   */
  touchKey(id: string, at: number, minIntervalMs: number): Promise<void>;
  saveSignIn(signIn: SignInRecord): Promise<void>;
  /** The sign-in unless it expired by `now` or its user is gone. */
  findSignIn(hash: string, now: number): Promise<SignInLookup | undefined>;
  deleteSignIn(hash: string): Promise<void>;
  /** Stores a one-time sign-in token by its hash. */
  saveSignInToken(token: { hash: string; userId: string; expiresAt: number }): Promise<void>;
  /** Deletes the token and returns its user's record; undefined when unknown, used, expired by `now`, or its user is gone. */
  consumeSignInToken(hash: string, now: number): Promise<UserRecord | undefined>;
}
