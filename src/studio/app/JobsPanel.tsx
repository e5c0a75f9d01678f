import { useState } from 'preact/hooks';
import { encodeId, getJson, sendJson } from './api.js';
import { when } from './format.js';
import { useRefreshing } from './polling.js';

// Background jobs (GET /background-jobs, GET /background-jobs/:id, POST …/cancel): those the
// caller's turns started with delegate_background or parallel_subtasks, each piece's state, and a
// cancel that stops the pieces and the jobs they started (a cancelled job never reports).

interface Job {
  id: string;
  syndicate: string;
  originSessionId: string;
  status: 'running' | 'reported' | 'failed' | 'cancelled';
  timeoutMs: number;
  createdAt: number;
}

interface Piece {
  index: number;
  agent: string;
  request: string;
  status: string;
  answer: string | null;
  error: string | null;
}

export function JobsPanel() {
  const [jobs, setJobs] = useState<Job[]>();
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<string>();
  const load = () => getJson<{ jobs: Job[] }>('/background-jobs?limit=50').then((answer) => setJobs(answer.jobs), (failure: Error) => setError(failure.message));
  useRefreshing(load);

  async function cancel(job: Job) {
    if (!window.confirm(`Cancel background job ${job.id}? Its pieces stop, with the jobs they started, and it never reports.`)) return;
    await sendJson('POST', `/background-jobs/${encodeId(job.id)}/cancel`).then(load, (failure: Error) => setError(failure.message));
  }

  return (
    <section class="card jobs">
      <h2>Background jobs</h2>
      {error && (
        <p class="failure" role="alert">
          {error}
        </p>
      )}
      {jobs && jobs.length === 0 && <p class="muted">No background jobs. An agent that lists delegate_background or parallel_subtasks starts them from a chat.</p>}
      {jobs && jobs.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>job</th>
              <th>syndicate</th>
              <th>status</th>
              <th>started</th>
              <th>time limit</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id} data-job={job.id} data-status={job.status}>
                <td>
                  <button type="button" class="small" onClick={() => setOpen(open === job.id ? undefined : job.id)}>
                    {job.id}
                  </button>
                </td>
                <td>{job.syndicate}</td>
                <td>{job.status}</td>
                <td>{when(job.createdAt)}</td>
                <td>{job.timeoutMs / 1000} s</td>
                <td>
                  {job.status === 'running' && (
                    <button type="button" class="small" onClick={() => void cancel(job)}>
                      Cancel
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <JobPieces jobId={open} />}
    </section>
  );
}

function JobPieces({ jobId }: { jobId: string }) {
  const [pieces, setPieces] = useState<Piece[]>();
  const [error, setError] = useState<string>();
  useRefreshing(() => void getJson<{ pieces: Piece[] }>(`/background-jobs/${encodeId(jobId)}`).then((job) => setPieces(job.pieces), (failure: Error) => setError(failure.message)), jobId);
  if (error) return <p class="failure">The pieces of {jobId} could not be read: {error}</p>;
  if (!pieces) return <p class="muted">Loading…</p>;
  return (
    <table class="pieces">
      <thead>
        <tr>
          <th>piece</th>
          <th>agent</th>
          <th>asked</th>
          <th>status</th>
          <th>answer or why</th>
        </tr>
      </thead>
      <tbody>
        {pieces.map((piece) => (
          <tr key={piece.index} data-status={piece.status}>
            <td>{piece.index + 1}</td>
            <td>{piece.agent}</td>
            <td>{piece.request}</td>
            <td>{piece.status}</td>
            <td>{piece.answer ?? piece.error ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
