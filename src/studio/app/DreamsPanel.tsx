import { useState } from 'preact/hooks';
import { encodeId, getJson } from './api.js';
import { when } from './format.js';
import { useRefreshing } from './polling.js';
import type { SyndicateSummary } from './syndicates.js';

// Dreams (GET /dreams/runs): the caller's dream run records of every loaded syndicate, newest
// first: how each ended, what it reflected on, and the journal it wrote (in Memory) or why it failed.

interface DreamRun {
  id: string;
  syndicate: string;
  status: string;
  startedAt: number;
  sessions: number;
  facts: number;
  journalPath: string | null;
  error: string | null;
}

const RUNS_PER_SYNDICATE = 10;

export function DreamsPanel({ syndicates }: { syndicates: SyndicateSummary[] }) {
  const [runs, setRuns] = useState<DreamRun[]>();
  const [error, setError] = useState<string>();
  useRefreshing(() => {
    const loaded = syndicates.filter((entry) => entry.status === 'ok');
    Promise.all(loaded.map((entry) => getJson<{ runs: DreamRun[] }>(`/dreams/runs?syndicate=${encodeId(entry.id)}&limit=${RUNS_PER_SYNDICATE}`))).then(
      (answers) => setRuns(answers.flatMap((answer) => answer.runs).sort((a, b) => b.startedAt - a.startedAt)),
      (failure: Error) => setError(failure.message),
    );
  }, syndicates);
  return (
    <section class="card dreams">
      <h2>Dreams</h2>
      {error && <p class="failure">The dreams could not be read: {error}</p>}
      {runs && runs.length === 0 && <p class="muted">No dreams of yours yet. A syndicate whose file has a dreams: block dreams over your conversations with it.</p>}
      {runs && runs.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>syndicate</th>
              <th>started</th>
              <th>status</th>
              <th>sessions</th>
              <th>facts</th>
              <th>journal or why</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id} data-status={run.status}>
                <td>{run.syndicate}</td>
                <td>{when(run.startedAt)}</td>
                <td>{run.status}</td>
                <td>{run.sessions}</td>
                <td>{run.facts}</td>
                <td>{run.error ?? run.journalPath ?? (run.status === 'running' ? '' : 'no new sessions: nothing written')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
