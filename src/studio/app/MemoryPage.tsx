import { useEffect, useState } from 'preact/hooks';
import { encodeId, getJson, sendJson } from './api.js';
import { DocumentsPanel } from './DocumentsPanel.js';
import { when } from './format.js';

// Memory: the caller's silos (GET /memory), each silo's facts with their status, a fact's
// supersession chain, and editing (stored as a correction) or deleting a fact; then its documents.

interface Silo {
  syndicate: string;
  name: string;
  facts: number;
  active: number;
  documents: number;
}

interface Fact {
  id: string;
  text: string;
  tag: string;
  date: string | null;
  keys: string[];
  status: string;
  createdAt: number;
}

interface Chain {
  supersededBy: Fact[];
  supersedes: Fact[];
  restatements: Fact[];
  deletedCorrection: string | null;
}

function FactDetail({ syndicate, fact, onChanged }: { syndicate: string; fact: Fact; onChanged(): void }) {
  const [chain, setChain] = useState<Chain>();
  const [text, setText] = useState(fact.text);
  const [error, setError] = useState<string>();
  const path = `/memory/${encodeId(syndicate)}/facts/${encodeId(fact.id)}`;
  useEffect(() => {
    getJson<{ chain: Chain }>(path).then((answer) => setChain(answer.chain), (failure: Error) => setError(failure.message));
  }, [path]);
  const act = (work: Promise<unknown>) => work.then(onChanged, (failure: Error) => setError(failure.message));
  return (
    <div class="card" data-fact={fact.id}>
      <p>
        <span class="badge">{fact.tag}</span> <span class="badge">{fact.status}</span> {fact.date && <span class="muted">{fact.date}</span>} <span class="muted">{fact.keys.join(', ')}</span>
      </p>
      {fact.status === 'active' ? (
        <form
          class="composer"
          onSubmit={(event) => {
            event.preventDefault();
            act(sendJson('PATCH', path, { text }));
          }}
        >
          <textarea aria-label="Fact text" value={text} onInput={(event) => setText((event.target as HTMLTextAreaElement).value)} />
          <button type="submit" disabled={text.trim() === fact.text}>
            Save
          </button>
        </form>
      ) : (
        <p>{fact.text}</p>
      )}
      <button type="button" onClick={() => window.confirm('Delete this fact?') && act(sendJson('DELETE', path))}>
        Delete
      </button>
      {error && <p class="failure">{error}</p>}
      {chain && (
        <div class="chain">
          {chain.supersedes.map((old) => (
            <p class="muted" key={old.id}>
              Replaced: {old.text}
            </p>
          ))}
          {chain.supersededBy.map((next) => (
            <p class="muted" key={next.id}>
              Corrected by: {next.text}
            </p>
          ))}
          {chain.restatements.map((same) => (
            <p class="muted" key={same.id}>
              Restated: {same.text}
            </p>
          ))}
          {chain.deletedCorrection && <p class="muted">A correction was deleted: {chain.deletedCorrection}</p>}
        </div>
      )}
    </div>
  );
}

interface Recalled {
  fact: Fact;
  current: boolean;
}

/** Recall as the agents' recall tool does (GET …/facts/search): the best matches first, history marked. */
function FactSearch({ syndicate, onResults }: { syndicate: string; onResults(found: Recalled[] | undefined): void }) {
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      class="fact-search"
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        getJson<{ facts: Recalled[] }>(`/memory/${encodeId(syndicate)}/facts/search?q=${encodeURIComponent(query.trim())}`).then(
          (answer) => onResults(answer.facts),
          (failure: Error) => setError(`The search failed: ${failure.message}`),
        );
      }}
    >
      <input type="search" aria-label="Search facts" placeholder="Search facts" value={query} onInput={(event) => setQuery((event.target as HTMLInputElement).value)} />
      <button type="submit" disabled={!query.trim()}>
        Search
      </button>
      <button
        type="button"
        onClick={() => {
          setQuery('');
          onResults(undefined);
        }}
      >
        All facts
      </button>
      {error && <p class="failure">{error}</p>}
    </form>
  );
}

export function MemoryPage() {
  const [silos, setSilos] = useState<Silo[]>();
  const [syndicate, setSyndicate] = useState<string>();
  const [facts, setFacts] = useState<Fact[]>();
  const [found, setFound] = useState<Recalled[]>();
  const [open, setOpen] = useState<Fact>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    getJson<{ silos: Silo[] }>('/memory').then((answer) => {
      setSilos(answer.silos);
      setSyndicate(answer.silos[0]?.syndicate);
    }, (failure: Error) => setError(failure.message));
  }, []);
  const loadFacts = () => {
    if (syndicate === undefined) return;
    getJson<{ facts: Fact[] }>(`/memory/${encodeId(syndicate)}/facts?limit=200`).then((answer) => setFacts(answer.facts), (failure: Error) => setError(failure.message));
  };
  useEffect(loadFacts, [syndicate]);
  useEffect(() => setFound(undefined), [syndicate]);
  const shown = found ?? facts?.map((fact) => ({ fact, current: fact.status === 'active' }));
  if (error) return <p class="failure">Memory could not be read: {error}</p>;
  if (silos?.length === 0) return <p class="muted">No served syndicate keeps long-term memory (memory_system: long-term).</p>;
  return (
    <div>
      <div class="split">
        <section class="card">
          <label>
            Silo{' '}
            <select value={syndicate} onChange={(event) => setSyndicate((event.target as HTMLSelectElement).value)}>
              {silos?.map((silo) => (
                <option value={silo.syndicate} key={silo.syndicate}>
                  {silo.name} ({silo.active} active of {silo.facts})
                </option>
              ))}
            </select>
          </label>
          {syndicate && <FactSearch key={syndicate} syndicate={syndicate} onResults={setFound} />}
          <ul class="list" data-facts={found ? 'found' : 'all'}>
            {shown?.map(({ fact, current }) => (
              <li key={fact.id} class={fact.id === open?.id ? 'selected' : ''} data-current={current} onClick={() => setOpen(fact)}>
                <span class="badge">{fact.status}</span> {fact.text} <span class="muted">{when(fact.createdAt)}</span>
              </li>
            ))}
          </ul>
          {found?.length === 0 && <p class="muted">No fact matches the search.</p>}
          {!found && facts?.length === 0 && <p class="muted">No facts in this silo yet.</p>}
        </section>
        {open && syndicate && (
          <FactDetail
            key={open.id}
            syndicate={syndicate}
            fact={open}
            onChanged={() => {
              setOpen(undefined);
              setFound(undefined);
              loadFacts();
            }}
          />
        )}
      </div>
      {syndicate && <DocumentsPanel syndicate={syndicate} />}
    </div>
  );
}
