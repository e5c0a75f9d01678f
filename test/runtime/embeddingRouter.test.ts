import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../support/scratchDir.js';
import { describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/loadSyndicate.js';
import type { AgentDefinition } from '../../src/config/definition.js';
import type { DispatchConfig } from '../../src/config/schema.js';
import type { Embedder } from '../../src/memory/embeddings/embedder.js';
import { compileSyndicate } from '../../src/runtime/compileSyndicate.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { agent, collect, compile, ofType, recordCalls, turnEnd, type ModelCall } from './fixtures.js';

const specialists = [
  agent('Billing', { description: 'invoices charges payments refunds' }),
  agent('Technical', { description: 'errors crashes login problems bugs' }),
  agent('General', { description: 'opening hours and anything else' }),
];

function triage(dispatch: Partial<DispatchConfig> = {}): AgentDefinition {
  return agent('Triage', { subagents: specialists, dispatch: { default_route: 'General', classifier: 'embedding', ...dispatch } });
}

const failingEmbedder: Embedder = { model: 'broken', dimensions: 8, embed: () => Promise.reject(new Error('embedding server down')) };

describe('plan-dispatch by embedding similarity', () => {
  it('hands the turn to the route whose description is closest, without calling the orchestrator model', async () => {
    const calls: ModelCall[] = [];

    const events = await collect(compile(triage(), { embedder: fakeEmbedder(), resolveModel: recordCalls(calls) }), { input: 'the app crashes at login' });

    expect(ofType(events, 'route')[0]).toMatchObject({ agent: 'Triage', route: 'Technical', source: 'classifier' });
    expect(ofType(events, 'route')[0]?.reason).toMatch(/^closest to Technical's description \(similarity 0\.\d\d\)$/);
    expect(calls.map((call) => call.agent)).toEqual(['Technical']);
    expect(turnEnd(events).status).toBe('completed');
  });

  it('goes to default_route when no route reaches min_similarity, saying how close the best one came', async () => {
    const events = await collect(compile(triage({ min_similarity: 0.9 }), { embedder: fakeEmbedder() }), { input: 'the app crashes at login' });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'General', source: 'fallback' });
    expect(ofType(events, 'route')[0]?.reason).toMatch(/no route is close enough \(best: Technical at 0\.\d\d, minimum 0\.9\); using the default route/);
  });

  it('applies route overrides before comparing embeddings', async () => {
    const root = triage({ route_overrides: [{ route: 'Billing', pattern: 'crash', reason: 'crash reports go to billing here' }] });

    const events = await collect(compile(root, { embedder: failingEmbedder }), { input: 'the app crashes at login' });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'Billing', source: 'override' });
  });

  it('still answers through default_route when the embedder fails', async () => {
    const events = await collect(compile(triage(), { embedder: failingEmbedder }), { input: 'the app crashes at login' });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'General', source: 'fallback' });
    expect(ofType(events, 'route')[0]?.reason).toContain('embedding server down');
    expect(turnEnd(events).status).toBe('completed');
  });

  it('routes the triage example offline with the built-in local embedder when its file says classifier: embedding', async () => {
    const example = readFileSync(join(import.meta.dirname, '../../examples/triage.yaml'), 'utf8');
    const file = join(scratchDir('router'), 'triage.yaml');
    writeFileSync(file, example.replace('default_route: "General"', 'default_route: "General"\n  classifier: embedding'));

    const events = await collect(compileSyndicate(loadSyndicate(file), { offline: true }), {
      input: 'I get error 500 every time I try to log in after installing the update.',
    });

    expect(ofType(events, 'route')[0]).toMatchObject({ route: 'Technical', source: 'classifier' });
  }, 30_000);
});
