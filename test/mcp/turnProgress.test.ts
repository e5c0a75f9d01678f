import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/core/events.js';
import { progressMessage } from '../../src/mcp/turnProgress.js';

// The progress lines an MCP caller reads while a turn runs.

const envelope = { turnId: 't', agent: 'Concierge', depth: 0, at: 0 };

describe('progress lines', () => {
  it('name a delegation to a subagent plainly, and one to a remote agent or a nested syndicate by its kind', () => {
    const consult = (to: string, kind?: 'subagent' | 'syndicate' | 'remote'): TurnEvent => ({ ...envelope, type: 'delegation-start', to, request: 'plan it', callId: to, ...(kind ? { kind } : {}) });

    const lines = [consult('Planner'), consult('Planner', 'subagent'), consult('Travel', 'syndicate'), consult('Weather', 'remote')].map(progressMessage);

    expect(lines).toEqual(['→ Concierge consults Planner', '→ Concierge consults Planner', '→ Concierge consults Travel (nested syndicate)', '→ Concierge consults Weather (remote A2A agent)']);
  });

  it('name the kind of what a route went to', () => {
    const line = progressMessage({ ...envelope, type: 'route', route: 'Weather', reason: 'asks about rain', source: 'classifier', kind: 'remote' });

    expect(line).toBe('Routed to Weather (remote A2A agent) — asks about rain');
  });

  it('leave out the answer as it streams', () => {
    expect(progressMessage({ ...envelope, type: 'text-delta', delta: 'Hel' })).toBeUndefined();
  });
});
