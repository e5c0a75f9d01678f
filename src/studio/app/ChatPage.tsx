import { useEffect, useState } from 'preact/hooks';
import type { LastTurn } from '../../store/store.js';
import { reduceTree, type TurnTree } from '../tree/delegationTree.js';
import { encodeId, getJson, request, sendJson, type StreamedEvent } from './api.js';
import { Conversation } from './Conversation.js';
import { LoadFailure } from './LoadFailure.js';
import { callCost, sessionTitle } from './format.js';
import { LastTurnBadge } from './LastTurnBadge.js';
import type { SyndicateSummary } from './syndicates.js';
import { loadTranscript } from './transcript.js';
import { TreeView } from './TreeView.js';
import { followTurn } from './turnStream.js';

// Chat: pick a syndicate, send a message (POST /turns, Syndicate's own SSE stream), watch the
// answer and the delegation tree grow, cancel, and answer an ask_user question in place.

/** Folds one streamed event into the session's turns: a new turn id starts a new tree. */
export function withEvent(turns: TurnTree[], event: StreamedEvent, options: Parameters<typeof reduceTree>[2]): TurnTree[] {
  const last = turns.at(-1);
  if (last?.turnId === event.turnId) return [...turns.slice(0, -1), reduceTree(last, event, options)];
  return [...turns, reduceTree(undefined, event, options)];
}

/** The session's title, its id in the tooltip and a button that copies it (the id is what the API and CLI take). */
function SessionLabel({ id, title }: { id: string; title: string | undefined }) {
  const [copied, setCopied] = useState(false);
  return (
    <span class="session-label">
      <strong class="session-title" title={id}>
        {title ?? id}
      </strong>
      <button type="button" class="small" title={id} onClick={() => void navigator.clipboard.writeText(id).then(() => setCopied(true))}>
        {copied ? 'Copied' : 'Copy id'}
      </button>
    </span>
  );
}

/** `resumeId`: a stored session to continue (from the address, #/chat/<id>): its transcript shows, the next message goes to it. */
export function ChatPage({ syndicates, resumeId }: { syndicates: SyndicateSummary[]; resumeId: string | undefined }) {
  const usable = syndicates.filter((entry) => entry.agents.length > 0);
  const [syndicate, setSyndicate] = useState(usable[0]?.id);
  const [sessionId, setSessionId] = useState<string>();
  const [turns, setTurns] = useState<TurnTree[]>([]);
  // A resumed session's last turn as it ended before this chat: a turn sent here shows its own status instead.
  const [lastTurn, setLastTurn] = useState<LastTurn | null>(null);
  const [selected, setSelected] = useState(-1);
  const [running, setRunning] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string>();
  const last = turns.at(-1);
  const waiting = last?.status === 'input-required';

  useEffect(() => {
    if (resumeId === undefined || running) return;
    let current = true;
    getJson<{ session: { syndicate: string; lastTurn: LastTurn | null } }>(`/sessions/${encodeId(resumeId)}`)
      .then(async ({ session }) => {
        const owner = syndicates.find((entry) => entry.name === session.syndicate);
        if (!owner) throw new Error(`its syndicate '${session.syndicate}' is not served now; serve it again to continue the session`);
        const transcript = await loadTranscript(resumeId, { costOf: await callCost() });
        if (!current) return;
        setSyndicate(owner.id);
        setSessionId(resumeId);
        setTurns(transcript.turns);
        setLastTurn(session.lastTurn);
        setSelected(-1);
      })
      .catch((failure: Error) => current && setError(`Session ${resumeId} could not be opened: ${failure.message}`));
    return () => {
      current = false;
    };
    // Not while a message of this chat is running: its turns are already shown.
  }, [resumeId]);

  async function send(message: string) {
    if (!syndicate || !message.trim()) return;
    setError(undefined);
    setRunning(true);
    setLastTurn(null);
    setDraft('');
    setSelected(-1);
    try {
      const costOf = await callCost();
      const response = await request('POST', '/turns', { syndicate, message, ...(sessionId ? { sessionId } : {}) });
      setSessionId(response.headers.get('x-session-id') ?? sessionId);
      await followTurn(response, (event) => setTurns((current) => withEvent(current, event, { costOf })));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setRunning(false);
    }
  }

  async function cancel() {
    if (!sessionId) return;
    await sendJson('POST', `/sessions/${encodeId(sessionId)}/cancel`).catch((failure: Error) => setError(failure.message));
  }

  function newSession(id: string | undefined) {
    if (resumeId !== undefined) window.location.hash = '#/chat';
    setSyndicate(id);
    setSessionId(undefined);
    setTurns([]);
    setLastTurn(null);
    setSelected(-1);
  }

  const shown = turns[selected] ?? last;
  return (
    <div class="chat">
      <section class="conversation-pane">
        <header class="toolbar">
          <label>
            Syndicate{' '}
            <select value={syndicate} onChange={(event) => newSession((event.target as HTMLSelectElement).value)} disabled={running}>
              {usable.map((entry) => (
                <option value={entry.id} key={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => newSession(syndicate)} disabled={running || turns.length === 0}>
            New session
          </button>
          {sessionId && <SessionLabel key={sessionId} id={sessionId} title={sessionTitle(turns[0]?.input)} />}
          <LastTurnBadge lastTurn={lastTurn} />
        </header>
        {usable.length === 0 && <p class="failure">No syndicate loads: see Settings for their errors.</p>}
        {syndicates
          .filter((entry) => entry.error !== null && (entry.id === syndicate || entry.agents.length === 0))
          .map((entry) => (
            <div class="failure" role="status" data-load-error={entry.id} key={entry.id}>
              {entry.name}: <LoadFailure entry={entry} />
            </div>
          ))}
        <Conversation turns={turns} selected={selected === -1 ? turns.length - 1 : selected} onSelect={setSelected} />
        {error && <p class="failure" role="alert">{error}</p>}
        <form
          class="composer"
          onSubmit={(event) => {
            event.preventDefault();
            void send(draft);
          }}
        >
          <textarea
            aria-label={waiting ? 'Your answer' : 'Message'}
            placeholder={waiting ? `Answer: ${last?.output ?? ''}` : 'Message'}
            value={draft}
            onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                void send(draft);
              }
            }}
            disabled={running}
          />
          {running ? (
            <button type="button" onClick={() => void cancel()}>
              Cancel
            </button>
          ) : (
            <button type="submit" disabled={!draft.trim() || !syndicate}>
              {waiting ? 'Answer' : 'Send'}
            </button>
          )}
        </form>
      </section>
      <aside class="tree-pane">{shown ? <TreeView tree={shown} /> : <p class="muted">The delegation tree of a turn shows here.</p>}</aside>
    </div>
  );
}
