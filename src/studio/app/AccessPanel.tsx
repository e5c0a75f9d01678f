import { useEffect, useState } from 'preact/hooks';
import { ApiError, encodeId, getJson, sendJson } from './api.js';
import type { ApiKeyRecord, UserRecord } from '../../store/users.js';
import { when } from './format.js';

// Users (admins only: GET /users) and API keys (your own; an admin's list holds everyone's): add
// a user, create a key (its secret is shown once), revoke a key.

export function AccessPanel() {
  const [users, setUsers] = useState<UserRecord[]>();
  const [keys, setKeys] = useState<ApiKeyRecord[]>([]);
  const [newUser, setNewUser] = useState('');
  const [keyName, setKeyName] = useState('');
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  const failed = (failure: Error) => setError(failure.message);
  const load = () => {
    // A member may not list users (403): the section is left out for them.
    getJson<{ users: UserRecord[] }>('/users').then(
      (answer) => setUsers(answer.users),
      (failure: Error) => (failure instanceof ApiError && failure.status === 403 ? setUsers(undefined) : failed(failure)),
    );
    getJson<{ keys: ApiKeyRecord[] }>('/keys').then((answer) => setKeys(answer.keys), failed);
  };
  useEffect(load, []);
  return (
    <section class="card">
      {error && <p class="failure">{error}</p>}
      {users && (
        <>
          <h2>Users</h2>
          <table>
            <tbody>
              {users.map((user) => (
                <tr key={user.id} data-user={user.id}>
                  <td>{user.id}</td>
                  <td>{user.role}</td>
                  <td class="muted">{when(user.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <form
            class="toolbar"
            onSubmit={(event) => {
              event.preventDefault();
              sendJson('POST', '/users', { id: newUser.trim() }).then(() => {
                setNewUser('');
                load();
              }, failed);
            }}
          >
            <input aria-label="New user id" value={newUser} onInput={(event) => setNewUser((event.target as HTMLInputElement).value)} />
            <button type="submit" disabled={!newUser.trim()}>
              Add member
            </button>
          </form>
        </>
      )}
      <h2>API keys</h2>
      <table>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-key={key.name}>
              <td>{key.name}</td>
              <td>{key.userId}</td>
              <td class="muted">{key.lastUsedAt === null ? 'never used' : `used ${when(key.lastUsedAt)}`}</td>
              <td>
                {key.revokedAt === null ? (
                  <button type="button" onClick={() => sendJson('DELETE', `/keys/${encodeId(key.id)}`).then(load, failed)}>
                    Revoke
                  </button>
                ) : (
                  `revoked ${when(key.revokedAt)}`
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        class="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          sendJson<{ key: string }>('POST', '/keys', { name: keyName.trim() }).then((answer) => {
            setSecret(answer?.key);
            setKeyName('');
            load();
          }, failed);
        }}
      >
        <input aria-label="New key name" value={keyName} onInput={(event) => setKeyName((event.target as HTMLInputElement).value)} />
        <button type="submit" disabled={!keyName.trim()}>
          Create key
        </button>
      </form>
      {secret && (
        <p class="warning" data-secret>
          Your new key, shown this once: <code>{secret}</code> — send it as Authorization: Bearer &lt;key&gt;.
        </p>
      )}
    </section>
  );
}
