import { useEffect, useState } from 'preact/hooks';
import type { NodeKind } from '../tree/delegationTree.js';
import { encodeId, getJson } from './api.js';

// The syndicates the server serves (GET /syndicates), and what each agent of one is: a remote
// A2A agent (model 'a2a'), a nested syndicate (an agent with subagents of its own), or a subagent.

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

interface SyndicateDetail {
  agents: Array<{ name: string; model: string; subagents: string[] }>;
}

export async function listSyndicates(): Promise<SyndicateSummary[]> {
  return (await getJson<{ syndicates: SyndicateSummary[] }>('/syndicates')).syndicates;
}

export function useAgentKinds(syndicateId: string | undefined): Record<string, NodeKind> {
  const [kinds, setKinds] = useState<Record<string, NodeKind>>({});
  useEffect(() => {
    if (syndicateId === undefined) return;
    let current = true;
    getJson<SyndicateDetail>(`/syndicates/${encodeId(syndicateId)}`).then(
      (detail) => {
        if (!current) return;
        const entries = detail.agents.map((agent): [string, NodeKind] => [agent.name, agent.model === 'a2a' ? 'remote' : agent.subagents.length > 0 ? 'syndicate' : 'subagent']);
        setKinds(Object.fromEntries(entries));
      },
      // Without them every agent shows as a subagent; the chat itself still works.
      () => current && setKinds({}),
    );
    return () => {
      current = false;
    };
  }, [syndicateId]);
  return kinds;
}
