import { useEffect, useState } from 'preact/hooks';
import { encodeId, getJson, sendJson } from './api.js';
import { Conversation } from './Conversation.js';
import { callCost, sessionTitle, when } from './format.js';
import { useAgentKinds, type SyndicateSummary } from './syndicates.js';
import { loadTranscript, type Transcript } from './transcript.js';
import { TreeView } from './TreeView.js';

// Sessions: the stored ones (GET /sessions), a transcript replayed through the same tree as a
// live turn, delete, and fork at a turn (a new session holding the events up to its end).

interface SessionRow {
  id: string;
  syndicate: string;
  createdAt: number;
  updatedAt: number;
  eventCount: number;
  title: string | null;
}

interface SessionPage {
  sessions: SessionRow[];
  nextCursor: string | null;
}

const PAGE_SIZE = 50;

/** The sessions whose title, syndicate or id holds every word of the search. */
function matching(sessions: SessionRow[], search: string): SessionRow[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return sessions.filter((session) => {
    const text = `${session.title ?? ''} ${session.syndicate} ${session.id}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export function SessionsPage({ syndicates }: { syndicates: SyndicateSummary[] }) {
  const [sessions, setSessions] = useState<SessionRow[]>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<SessionRow>();
  const [transcript, setTranscript] = useState<Transcript>();
  const [selected, setSelected] = useState(0);
  const [error, setError] = useState<string>();
  const kinds = useAgentKinds(syndicates.find((entry) => entry.name === open?.syndicate)?.id);

  const loadPage = (cursor: string | null) =>
    getJson<SessionPage>(`/sessions?limit=${PAGE_SIZE}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`).then(
      (page) => {
        setSessions((shown) => (cursor === null ? page.sessions : [...(shown ?? []), ...page.sessions]));
        setNextCursor(page.nextCursor);
      },
      (failure: Error) => setError(failure.message),
    );
  const refresh = () => loadPage(null);
  useEffect(() => void refresh(), []);
  useEffect(() => {
    if (!open) return;
    callCost()
      .then((costOf) => loadTranscript(open.id, { kinds, costOf }))
      .then(
      (loaded) => {
        setTranscript(loaded);
        setSelected(0);
      },
      (failure: Error) => setError(failure.message),
    );
  }, [open, kinds]);

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
        <input type="search" aria-label="Search sessions" placeholder="Search the sessions listed" value={search} onInput={(event) => setSearch((event.target as HTMLInputElement).value)} />
        {sessions?.length === 0 && <p class="muted">No sessions yet: start one in Chat.</p>}
        <ul class="list">
          {matching(sessions ?? [], search).map((session) => (
            <li key={session.id} class={session.id === open?.id ? 'selected' : ''} data-session={session.id} onClick={() => setOpen(session)}>
              <strong>{sessionTitle(session.title ?? undefined) ?? 'No message yet'}</strong>
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
            {search.trim() ? 'Search older sessions' : 'Older sessions'}
          </button>
        )}
      </section>
      {open && transcript && (
        <section class="card transcript">
          <header class="toolbar">
            <h2>{open.syndicate}</h2>
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
