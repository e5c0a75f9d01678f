import { AccessPanel } from './AccessPanel.js';
import { LoadFailure } from './LoadFailure.js';
import type { SyndicateSummary } from './syndicates.js';

// Settings: the syndicates this server loaded, with their files' warnings and errors (an invalid
// edit keeps the previous version running; its error names the file, line and column), users and keys.

export function SettingsPage({ syndicates }: { syndicates: SyndicateSummary[] }) {
  return (
    <div>
      <Syndicates syndicates={syndicates} />
      <AccessPanel />
    </div>
  );
}

function Syndicates({ syndicates }: { syndicates: SyndicateSummary[] }) {
  return (
    <section class="card">
      <h2>Syndicates</h2>
      <table>
        <thead>
          <tr>
            <th>id</th>
            <th>name</th>
            <th>agents</th>
            <th>status</th>
          </tr>
        </thead>
        <tbody>
          {syndicates.map((entry) => (
            <tr key={entry.id} data-syndicate={entry.id}>
              <td>{entry.id}</td>
              <td>
                {entry.name}
                <div class="muted">{entry.file}</div>
              </td>
              <td>{entry.agents.join(', ')}</td>
              <td>
                {entry.error ? (
                  <span class="failure">
                    <LoadFailure entry={entry} />
                  </span>
                ) : (
                  'ok'
                )}
                {entry.warnings.map((warning) => (
                  <div class="warning" key={warning}>
                    {warning}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
