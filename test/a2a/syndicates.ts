import type { CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import type { AnyTool } from '../../src/core/tool.js';
import { agent, compile } from '../runtime/fixtures.js';
import { testTools } from './fixtures.js';

// The syndicates the A2A tests serve, all on the scripted model.

export const QUESTION = 'Which city should the offsite be in?';

/** One agent: waits at the gate on "wait", asks a question on "offsite", answers "Lisbon"; otherwise the scripted default. */
export function assistant(gate: AnyTool): CompiledSyndicate {
  const root = agent('Assistant', {
    description: 'Plans offsites and answers questions.',
    tools: ['gate', 'ask_user'],
    script: [
      { match: 'wait', tool_calls: [{ tool: 'gate', args: {} }], repeat: true },
      { match: 'gate opened', reply: 'Done waiting.', repeat: true },
      { match: 'offsite', tool_calls: [{ tool: 'ask_user', args: { question: QUESTION } }], repeat: true },
      { match: 'lisbon', reply: 'Lisbon booked.', repeat: true },
    ],
  });
  return compile(root, { tools: testTools(gate) }, { name: 'Assistant' });
}

/** Plan-dispatch: refunds go to Billing by a route override; everything else to General. */
export function helpDesk(): CompiledSyndicate {
  const root = agent('Desk', {
    subagents: [
      agent('Billing', { description: 'Handles invoices and refunds.' }),
      agent('General', { description: 'Answers everything else.' }),
    ],
    dispatch: { default_route: 'General', route_overrides: [{ route: 'Billing', pattern: 'refund', reason: 'mentions a refund' }] },
  });
  return compile(root, {}, { name: 'Help Desk', description: 'Routes each question to one specialist.' });
}

/** Delegation: a Moderator consults two subagents. */
export function council(): CompiledSyndicate {
  const root = agent('Moderator', {
    subagents: [agent('Advocate', { description: 'Builds the case for a claim.' }), agent('Skeptic', { description: 'Builds the case against a claim.' })],
  });
  return compile(root, {}, { name: 'Council' });
}

/** A model that cannot run: no API key in its environment. */
export function keyless(): CompiledSyndicate {
  return compile(agent('Analyst', { model: 'gpt-4.1-mini' }), { env: {} }, { name: 'Keyless' });
}
