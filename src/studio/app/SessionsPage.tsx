import { useEffect, useRef, useState } from 'preact/hooks';
import type { LastTurn } from '../../store/store.js';
import { encodeId, getJson, sendJson } from './api.js';
import { Conversation } from './Conversation.js';
import { callCost, sessionTitle, when } from './format.js';
import { LastTurnBadge } from './LastTurnBadge.js';
import { loadTranscript, type Transcript } from './transcript.js';
import { TreeView } from './TreeView.js';

// Sessions: the stored ones (GET /sessions), searched by the server (q: title or id) so a search
// finds sessions not loaded yet, a transcript replayed through the same tree as a live turn,
// delete, and fork at a turn (a new session holding the events up to its end).

interface SessionRow {
  id: string;
  syndicate: string;
  createdAt: number;
  updatedAt: number;
  eventCount: number;
  title: string | null;
  lastTurn: LastTurn | null;
}

interface SessionPage {
  sessions: SessionRow[];
  nextCursor: string | null;
}

const PAGE_SIZE = 50;
// The server's limit on q.
const MAX_QUERY = 200;
// Typing pauses this long before the search goes to the server: one request per word, not per key.
const SEARCH_DELAY_MS = 250;

export function SessionsPage() {
  const [sessions, setSessions] = useState<SessionRow[]>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  // Counts the first pages asked for: the answer to an older search must not replace a newer one's.
  const latest = useRef(0);
  const [open, setOpen] = useState<SessionRow>();
  const [transcript, setTranscript] = useState<Transcript>();
  const [selected, setSelected] = useState(0);
  const [error, setError] = useState<string>();

  const loadPage = (cursor: string | null) => {
    const request = cursor === null ? ++latest.current : latest.current;
    const q = query === '' ? '' : `&q=${encodeURIComponent(query)}`;
    return getJson<SessionPage>(`/sessions?limit=${PAGE_SIZE}${q}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`).then(
      (page) => {
        if (request !== latest.current) return;
        setSessions((shown) => (cursor === null ? page.sessions : [...(shown ?? []), ...page.sessions]));
        setNextCursor(page.nextCursor);
      },
      (failure: Error) => setError(failure.message),
    );
  };
  const refresh = () => loadPage(null);
  useEffect(() => void refresh(), [query]);
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);
  useEffect(() => {
    if (!open) return;
    callCost()
      .then((costOf) => loadTranscript(open.id, { costOf }))
      .then(
      (loaded) => {
        setTranscript(loaded);
        setSelected(0);
      },
      (failure: Error) => setError(failure.message),
    );
  }, [open]);

  async function remove(session: SessionRow) {
    if (!window.confirm(`Delete session ${session.id} and its transcript? Its usage stays in the ledger.`)) return;
    await sendJson('DELETE', `/sessions/${encodeId(session.id)}`).catch((failure: Error) => setError(failure.message));
    setOpen(undefined);
    setTranscript(undefined);
    await refresh();
  }

  async function fork(session: SessionRow, atSeq: number) {
    const answer = await sendJson<{ session: SessionRow }>('POST', `/sessions/${encodeId(session.id)}/fork`, { atSeq }).catch((failure: Error) => void setError(failure.message));
    if (!answer) return;
    await refresh();
    setOpen(answer.session);
  }

  return (
    <div class="split">
      <section class="card">
        <h2>Sessions</h2>
        {error && <p class="failure" role="alert">{error}</p>}
        <input type="search" aria-label="Search sessions" placeholder="Search by first message or id" maxLength={MAX_QUERY} value={search} onInput={(event) => setSearch((event.target as HTMLInputElement).value)} />
        {sessions?.length === 0 && <p class="muted">{query === '' ? 'No sessions yet: start one in Chat.' : `No session's first message or id holds “${query}”.`}</p>}
        <ul class="list">
          {(sessions ?? []).map((session) => (
            <li key={session.id} class={session.id === open?.id ? 'selected' : ''} data-session={session.id} onClick={() => setOpen(session)}>
              <strong>{sessionTitle(session.title ?? undefined) ?? 'No message yet'}</strong> <LastTurnBadge lastTurn={session.lastTurn} />
              <div class="muted">
                {session.syndicate} · {when(session.updatedAt)}
              </div>
              <div class="muted session-id">
                {session.id} · {session.eventCount} events
              </div>
            </li>
          ))}
        </ul>
        {nextCursor !== null && (
          <button type="button" onClick={() => void loadPage(nextCursor)}>
            {query === '' ? 'Older sessions' : 'Older matches'}
          </button>
        )}
      </section>
      {open && transcript && (
        <section class="card transcript">
          <header class="toolbar">
            <h2>{open.syndicate}</h2>
            <LastTurnBadge lastTurn={open.lastTurn} />
            <span class="muted session-id">{open.id}</span>
            <a class="button" href={`#/chat/${encodeId(open.id)}`}>
              Continue in chat
            </a>
            <button type="button" onClick={() => void remove(open)}>
              Delete
            </button>
            {transcript.turns[selected] && (
              <button type="button" onClick={() => void fork(open, transcript.lastSeqs[selected]!)}>
                Fork after this turn
              </button>
            )}
          </header>
          <Conversation turns={transcript.turns} selected={selected} onSelect={setSelected} />
          {transcript.turns[selected] && <TreeView tree={transcript.turns[selected]} />}
        </section>
      )}
    </div>
  );
}
