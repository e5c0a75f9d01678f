import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../src/config/definition.js';
import type { DispatchConfig, ScriptStep } from '../../src/config/schema.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { agent, collect, compile, ofType, recordCalls, tempDbPath, turnEnd, type ModelCall } from './fixtures.js';

const specialists = [
  agent('Billing', { description: 'Invoices, charges, payments and refunds.' }),
  agent('Technical', { description: 'Errors, crashes, login problems and bugs.' }),
  agent('General', { description: 'Opening hours and anything else.' }),
];

function triage(script?: ScriptStep[], dispatch: Partial<DispatchConfig> = {}): AgentDefinition {
  return agent('Triage', { subagents: specialists, script, dispatch: { default_route: 'General', ...dispatch } });
}

describe('plan-dispatch', () => {
  it('hands the turn to the specialist the classifier names, who answers the user directly', async () => {
    const events = await collect(compile(triage()), { input: 'The app crashes with an error at login.' });

    expect(ofType(events, 'route')[0]).toMatchObject({ agent: 'Triage', route: 'Technical', source: 'classifier' });
    expect(ofType(events, 'delegation-start')).toHaveLength(0);
    const answer = ofType(events, 'message');
    expect(answer.map((e) => e.agent)).toEqual(['Technical']);
    expect(turnEnd(events).output).toBe(answer[0]?.text);
  });

  it('says why the route was chosen', async () => {
    const events = await collect(compile(triage()), { input: 'Where is my invoice for last month?' });

    expect(ofType(events, 'route')[0]?.reason).toContain('invoice');
  });

  it('applies a route override before the classifier runs', async () => {
    const calls: ModelCall[] = [];
    const root = triage(undefined, { route_overrides: [{ route: 'billing', pattern: '\\brefund', reason: 'mentions a refund' }] });

    const events = await collect(compile(root, { resolveModel: recordCalls(calls) }), { input: 'I want a REFUND now' });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'Billing', reason: 'mentions a refund', source: 'override', kind: 'subagent' });
    expect(calls.map((c) => c.agent)).toEqual(['Billing']);
  });

  it('matches the named route ignoring case and punctuation', async () => {
    const events = await collect(compile(triage([{ json: { route: 'TECHNICAL!', reason: 'bug' } }])), { input: 'hello' });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'Technical', source: 'classifier' });
  });

  it.each<[string, ScriptStep]>([
    ['malformed JSON', { error: 'malformed' }],
    ['an unknown route', { json: { route: 'Sales', reason: 'x' } }],
    ['an empty payload', { json: {} }],
    ['a classifier error', { error: 'server' }],
  ])('falls back to default_route on %s and still answers', async (_case, step) => {
    const events = await collect(compile(triage([step])), { input: 'The app crashes.', retry: { maxRetries: 0 } });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'General', source: 'fallback' });
    expect(turnEnd(events)).toMatchObject({ status: 'completed' });
    expect(turnEnd(events).output).not.toBe('');
  });

  it('uses custom route_key and reason_key', async () => {
    const root = triage([{ json: { team: 'Billing', why: 'money' } }], { route_key: 'team', reason_key: 'why' });

    const events = await collect(compile(root), { input: 'hello' });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'Billing', reason: 'money' });
  });

  it('shows the classifier a digest of the conversation above the marker, and stores nothing from it', async () => {
    const store = openSqliteStore(tempDbPath());
    const calls: ModelCall[] = [];
    const compiled = compile(triage(), { resolveModel: recordCalls(calls) });
    await collect(compiled, { input: 'My invoice is wrong.', sessionId: 's1', store });

    await collect(compiled, { input: 'And the app crashes too.', sessionId: 's1', store });

    const classifierCalls = calls.filter((c) => c.agent === 'Triage');
    const lastPrompt = JSON.stringify(classifierCalls[1]?.options.prompt);
    expect(lastPrompt).toMatch(/User: My invoice is wrong\..*Billing: .*--- MESSAGE TO CLASSIFY ---\\nAnd the app crashes too\./);
    const stored = await store.readEvents('s1');
    expect(stored.filter((e) => e.event.type === 'message' && e.event.agent === 'Triage')).toHaveLength(0);
    await store.close();
  });
});
