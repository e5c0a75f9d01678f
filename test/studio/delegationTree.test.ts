import { describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventBody } from '../../src/core/events.js';
import { foldTurns, reduceTree, ROOT, walk, type TurnTree } from '../../src/studio/tree/delegationTree.js';
import { agent, collect, compile } from '../runtime/fixtures.js';

// The studio's delegation tree, folded from real turns on the scripted model, and from hand-made
// events where a turn cannot be made to produce them offline (remote agents, parallel runs).

function council() {
  const advocate = agent('Advocate', { description: 'Builds the case for a claim.', subagents: [agent('Researcher', { description: 'Finds supporting facts.' })] });
  return compile(agent('Moderator', { subagents: [advocate, agent('Skeptic', { description: 'Builds the case against a claim.' })] }));
}

function fold(events: readonly TurnEvent[], options?: Parameters<typeof reduceTree>[2]): TurnTree {
  return events.reduce<TurnTree | undefined>((tree, event) => reduceTree(tree, event, options), undefined)!;
}

function shape(tree: TurnTree): string[] {
  const lines: string[] = [];
  walk(tree, (node, depth) => lines.push(`${'  '.repeat(depth)}${node.agent} ${node.kind} ${node.status}`));
  return lines;
}

let at = 1_000;
function event(agentName: string, body: TurnEventBody, envelope: { depth?: number; delegationId?: string } = {}): TurnEvent {
  at += 10;
  return { turnId: 't1', agent: agentName, at, depth: envelope.depth ?? 0, ...(envelope.delegationId === undefined ? {} : { delegationId: envelope.delegationId }), ...body } as TurnEvent;
}

describe('the delegation tree', () => {
  it('nests each delegation under the agent that made it, in the order they started, all completed', async () => {
    const tree = fold(await collect(council(), { input: 'Should we hire a designer?' }));

    expect(shape(tree)).toEqual(['Moderator orchestrator completed', '  Advocate subagent completed', '    Researcher subagent completed', '  Skeptic subagent completed']);
    expect(tree.status).toBe('completed');
    expect(tree.input).toBe('Should we hire a designer?');
    expect(tree.output).toBeTruthy();
  });

  it("gives each node the request it was sent, the output it returned, its model, tokens and time", async () => {
    const tree = fold(await collect(council(), { input: 'Should we hire a designer?' }));
    const advocate = Object.values(tree.nodes).find((node) => node.agent === 'Advocate')!;

    expect(advocate.request).not.toBe('');
    expect(advocate.output).toBeTruthy();
    expect(advocate.models).toEqual(['scripted']);
    expect(advocate.calls).toBeGreaterThan(0);
    expect(advocate.tokens.input + advocate.tokens.output).toBeGreaterThan(0);
    expect(advocate.endedAt).toBeGreaterThanOrEqual(advocate.startedAt);
  });

  it('prices each call with the cost function, and leaves the cost null when no call has a price', async () => {
    const events = await collect(council(), { input: 'Should we hire a designer?' });

    const priced = fold(events, { costOf: (_provider, _model, tokens) => tokens.output * 0.001 });
    const unpriced = fold(events, { costOf: () => undefined });

    expect(priced.nodes[ROOT]!.costUsd).toBeCloseTo(priced.nodes[ROOT]!.tokens.output * 0.001);
    expect(unpriced.nodes[ROOT]!.costUsd).toBeNull();
  });

  it('records a tool call with its arguments and result on the agent that made it', async () => {
    const compiled = compile(agent('Assistant', { tools: ['calculator'], script: [{ match: 'sum', tool_calls: [{ tool: 'calculator', args: { expression: '2+3' } }] }] }));
    const tree = fold(await collect(compiled, { input: 'What is the sum of 2 and 3?' }));

    expect(tree.nodes[ROOT]!.toolCalls).toEqual([expect.objectContaining({ tool: 'calculator', input: { expression: '2+3' }, status: 'completed' })]);
    expect(JSON.stringify(tree.nodes[ROOT]!.toolCalls[0]!.output)).toContain('5');
  });

  it('shows the route a dispatcher picked, with its reason, and the specialist under it', () => {
    const tree = fold([
      event('Triage', { type: 'turn-start', syndicate: 'Support Triage', input: 'I want a refund' }),
      event('Triage', { type: 'route', route: 'Billing', reason: 'mentions a refund', source: 'override' }),
      event('Billing', { type: 'message', text: 'Refund issued.' }, { depth: 1 }),
      event('Triage', { type: 'turn-end', status: 'completed', output: 'Refund issued.' }),
    ]);

    expect(tree.route).toEqual({ route: 'Billing', reason: 'mentions a refund', source: 'override' });
    expect(shape(tree)).toEqual(['Triage orchestrator completed', '  Billing subagent completed']);
    expect(tree.nodes['route:Billing']!.messages).toEqual(['Refund issued.']);
  });

  it('tells parallel runs of one subagent apart by their delegation', () => {
    const tree = fold([
      event('Lead', { type: 'turn-start', syndicate: 'S', input: 'go' }),
      event('Lead', { type: 'delegation-start', to: 'Worker', request: 'first', callId: 'c1' }),
      event('Lead', { type: 'delegation-start', to: 'Worker', request: 'second', callId: 'c2' }),
      event('Worker', { type: 'message', text: 'two' }, { depth: 1, delegationId: 'c2' }),
      event('Worker', { type: 'message', text: 'one' }, { depth: 1, delegationId: 'c1' }),
      event('Lead', { type: 'delegation-end', to: 'Worker', callId: 'c2', output: 'two', isError: false }),
      event('Lead', { type: 'delegation-end', to: 'Worker', callId: 'c1', output: 'one failed', isError: true }),
      event('Lead', { type: 'turn-end', status: 'completed', output: 'done' }),
    ]);

    expect(tree.nodes.c1).toMatchObject({ request: 'first', messages: ['one'], status: 'failed' });
    expect(tree.nodes.c2).toMatchObject({ request: 'second', messages: ['two'], status: 'completed' });
  });

  it('marks nested syndicates and remote agents as their delegations say, and a delegation stored without its kind as a subagent', () => {
    const tree = fold([
      event('Lead', { type: 'turn-start', syndicate: 'S', input: 'go' }),
      event('Lead', { type: 'delegation-start', to: 'Partner', request: 'ask them', callId: 'c1', kind: 'remote' }),
      event('Lead', { type: 'delegation-start', to: 'Board', request: 'ask the board', callId: 'c2', kind: 'syndicate' }),
      event('Board', { type: 'delegation-start', to: 'Member', request: 'weigh in', callId: 'c3', kind: 'subagent' }, { depth: 1, delegationId: 'c2' }),
      event('Lead', { type: 'delegation-start', to: 'Scribe', request: 'note it', callId: 'c4' }),
    ]);

    expect(shape(tree)).toEqual(['Lead orchestrator running', '  Partner remote running', '  Board syndicate running', '    Member subagent running', '  Scribe subagent running']);
  });

  it('marks the specialist a route picked as its route event says', () => {
    const tree = fold([
      event('Desk', { type: 'turn-start', syndicate: 'S', input: 'my invoice' }),
      event('Desk', { type: 'route', route: 'Billing', reason: 'invoice', source: 'classifier', kind: 'remote' }),
    ]);

    expect(shape(tree)).toEqual(['Desk orchestrator running', '  Billing remote running']);
  });

  it('gives every node still running the status the turn ended with when it is cancelled', () => {
    const tree = fold([
      event('Lead', { type: 'turn-start', syndicate: 'S', input: 'go' }),
      event('Lead', { type: 'delegation-start', to: 'Worker', request: 'slowly', callId: 'c1' }),
      event('Worker', { type: 'tool-call', tool: 'wait', callId: 'w1', input: {} }, { depth: 1, delegationId: 'c1' }),
      event('Lead', { type: 'error', message: 'the turn was cancelled', code: 'cancelled' }),
      event('Lead', { type: 'turn-end', status: 'cancelled', output: '', error: 'the turn was cancelled' }),
    ]);

    expect(shape(tree)).toEqual(['Lead orchestrator cancelled', '  Worker subagent cancelled']);
    expect(tree.error).toBe('the turn was cancelled');
  });

  it('ends a tool call that never got its result as cancelled when its turn ends, and leaves the answered ones as they were', () => {
    const tree = fold([
      event('Lead', { type: 'turn-start', syndicate: 'S', input: 'go' }),
      event('Lead', { type: 'tool-call', tool: 'calculator', callId: 'k1', input: { expression: '1+1' } }),
      event('Lead', { type: 'tool-result', tool: 'calculator', callId: 'k1', output: 2, isError: false }),
      event('Lead', { type: 'delegation-start', to: 'Worker', request: 'slowly', callId: 'c1' }),
      event('Worker', { type: 'tool-call', tool: 'wait', callId: 'w1', input: {} }, { depth: 1, delegationId: 'c1' }),
      event('Lead', { type: 'turn-end', status: 'failed', output: '', error: 'the deadline passed' }),
    ]);

    expect(tree.nodes[ROOT]!.toolCalls.map((call) => [call.tool, call.status])).toEqual([['calculator', 'completed']]);
    expect(tree.nodes.c1!.toolCalls.map((call) => [call.tool, call.status])).toEqual([['wait', 'cancelled']]);
  });

  it('streams text deltas into the node, and replaces them with the stored message', () => {
    const start = event('Lead', { type: 'turn-start', syndicate: 'S', input: 'go' });
    const streaming = fold([start, event('Lead', { type: 'text-delta', delta: 'Hel' }), event('Lead', { type: 'text-delta', delta: 'lo' })]);
    const stored = reduceTree(streaming, event('Lead', { type: 'message', text: 'Hello' }));

    expect(streaming.nodes[ROOT]!.streaming).toBe('Hello');
    expect(stored.nodes[ROOT]).toMatchObject({ streaming: '', messages: ['Hello'] });
  });

  it("ends on the question of an ask_user turn, waiting for input", async () => {
    const compiled = compile(agent('Assistant', { tools: ['ask_user'], script: [{ match: 'offsite', tool_calls: [{ tool: 'ask_user', args: { question: 'Which city?' } }] }] }));
    const tree = fold(await collect(compiled, { input: 'Plan the offsite' }));

    expect(tree.status).toBe('input-required');
    expect(tree.output).toBe('Which city?');
  });

  it('folds a transcript of several turns into one tree per turn', async () => {
    const compiled = council();
    const first = await collect(compiled, { input: 'Hire a designer?' });
    const second = await collect(compiled, { input: 'Hire a writer?' });

    const trees = foldTurns([...first, ...second]);

    expect(trees.map((tree) => [tree.input, tree.status])).toEqual([
      ['Hire a designer?', 'completed'],
      ['Hire a writer?', 'completed'],
    ]);
  });
});
