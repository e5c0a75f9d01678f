import { DreamsPanel } from './DreamsPanel.js';
import { JobsPanel } from './JobsPanel.js';
import type { SyndicateSummary } from './syndicates.js';
import { TasksPanel } from './TasksPanel.js';

// Work: what runs without a person: scheduled tasks and their runs, background jobs, dreams.

export function WorkPage({ syndicates }: { syndicates: SyndicateSummary[] }) {
  return (
    <div>
      <TasksPanel syndicates={syndicates} />
      <JobsPanel />
      <DreamsPanel syndicates={syndicates} />
    </div>
  );
}
