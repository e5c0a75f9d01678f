import { getJson } from './api.js';

// The syndicates the server serves (GET /syndicates), each with its load status.

export interface LoadError {
  message: string;
  file: string;
  line: number | null;
  column: number | null;
}

export interface SyndicateSummary {
  id: string;
  name: string;
  file: string;
  description: string | null;
  agents: string[];
  status: 'ok' | 'error';
  error: LoadError | null;
  warnings: string[];
}

export async function listSyndicates(): Promise<SyndicateSummary[]> {
  return (await getJson<{ syndicates: SyndicateSummary[] }>('/syndicates')).syndicates;
}
