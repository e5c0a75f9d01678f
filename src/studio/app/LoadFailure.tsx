import type { SyndicateSummary } from './syndicates.js';

// Why a syndicate file's latest version did not load, as the server said (each issue starts with
// its file:line:col), and what runs meanwhile: the previous version, or nothing.

export function LoadFailure({ entry }: { entry: SyndicateSummary }) {
  return (
    <>
      <pre class="load-error">{entry.error?.message}</pre>
      {entry.agents.length > 0 ? 'The previous version still runs; ' : 'It is not served; '}
      fix the file and it is reloaded.
    </>
  );
}
