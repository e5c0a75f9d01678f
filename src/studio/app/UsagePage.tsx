import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { UsageChart } from './Chart.js';
import { tokens, usd } from './format.js';

// Usage: the ledger as GET /usage groups it (by day, agent and model), with the server's prices.

interface Totals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

interface UsageAnswer {
  rows: Array<Totals & { key: string }>;
  total: Totals;
}

const GROUPINGS = [
  { by: 'day', title: 'By day' },
  { by: 'agent', title: 'By agent' },
  { by: 'model', title: 'By model' },
] as const;

function Grouping({ by, title }: { by: string; title: string }) {
  const [usage, setUsage] = useState<UsageAnswer>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    getJson<UsageAnswer>(`/usage?by=${by}`).then(setUsage, (failure: Error) => setError(failure.message));
  }, [by]);
  if (error) return <p class="failure">Usage by {by} could not be read: {error}</p>;
  if (!usage) return <p class="muted">Loading…</p>;
  const rows = by === 'day' ? [...usage.rows].sort((a, b) => a.key.localeCompare(b.key)) : usage.rows;
  return (
    <section class="card" data-usage={by}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p class="muted">No model calls yet.</p>
      ) : (
        <UsageChart name={title} labels={rows.map((row) => row.key)} tokens={rows.map((row) => row.inputTokens + row.outputTokens)} costs={rows.map((row) => row.costUsd)} />
      )}
      <table>
        <thead>
          <tr>
            <th>{by}</th>
            <th>calls</th>
            <th>input</th>
            <th>output</th>
            <th>cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td>{row.key}</td>
              <td>{row.calls}</td>
              <td>{tokens(row.inputTokens)}</td>
              <td>{tokens(row.outputTokens)}</td>
              <td>{usd(row.costUsd)}</td>
            </tr>
          ))}
          <tr>
            <th>total</th>
            <th>{usage.total.calls}</th>
            <th>{tokens(usage.total.inputTokens)}</th>
            <th>{tokens(usage.total.outputTokens)}</th>
            <th>{usd(usage.total.costUsd)}</th>
          </tr>
        </tbody>
      </table>
    </section>
  );
}

export function UsagePage() {
  return (
    <div>
      {GROUPINGS.map((grouping) => (
        <Grouping {...grouping} key={grouping.by} />
      ))}
    </div>
  );
}
