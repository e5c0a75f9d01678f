import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/core/tool.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { agent, collect, compile, ofType, recordCalls, tempDbPath, turnEnd, type ModelCall } from '../runtime/fixtures.js';

// The runtime side of ask_user: a turn that ends waiting for the user's answer.

const QUESTION = 'Which city should the offsite be in?';

function planner() {
  return agent('Planner', {
    tools: ['ask_user'],
    script: [
      { match: 'plan an offsite', tool_calls: [{ tool: 'ask_user', args: { question: QUESTION } }] },
      { match: 'lisbon', reply: 'Lisbon it is: three days, twelve people.' },
    ],
  });
}

/** Plan-dispatch: offsites go to the planner, which asks which city; everything else to General. */
function offsiteDesk() {
  return agent('Desk', {
    subagents: [agent('General', { description: 'Answers everything else.' }), { ...planner(), description: 'Plans offsites and team events.' }],
    dispatch: { default_route: 'General' },
  });
}

describe('ask_user', () => {
  it('ends the turn waiting for input, with the question as its output', async () => {
    const events = await collect(compile(planner()), { input: 'Please plan an offsite' });

    expect(turnEnd(events)).toMatchObject({ status: 'input-required', output: QUESTION });
    expect(turnEnd(events).error).toBeUndefined();
    expect(ofType(events, 'error')).toEqual([]);
  });

  it('stores the question as the agent message, so the answer turn sees what was asked', async () => {
    const calls: ModelCall[] = [];
    const compiled = compile(planner(), { resolveModel: recordCalls(calls) });
    const store = openSqliteStore(tempDbPath());

    await collect(compiled, { input: 'Please plan an offsite', sessionId: 's1', store });
    const answer = await collect(compiled, { input: 'Lisbon', sessionId: 's1', store });

    expect(turnEnd(answer)).toMatchObject({ status: 'completed', output: 'Lisbon it is: three days, twelve people.' });
    const prompt = JSON.stringify(calls[calls.length - 1]?.options.prompt);
    expect(prompt).toContain(QUESTION);
    await store.close();
  });

  it("ends the whole turn waiting for input when a subagent asks, with the subagent's question as its output", async () => {
    const root = agent('Chair', { subagents: [{ ...planner(), description: 'Plans offsites.' }] });

    const events = await collect(compile(root), { input: 'Please plan an offsite' });

    expect(turnEnd(events)).toMatchObject({ status: 'input-required', output: QUESTION });
    expect(ofType(events, 'delegation-end')).toEqual([]);
  });

  it('ends the turn only once a tool called beside the asking subagent has finished, so nothing of it runs on after the turn', async () => {
    const slow = defineTool({
      name: 'slow_lookup',
      description: 'Looks something up, slowly.',
      inputSchema: z.object({}),
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('found it'), 30)),
    });
    const root = agent('Chair', {
      tools: ['slow_lookup'],
      subagents: [{ ...planner(), description: 'Plans offsites.' }],
      script: [{ tool_calls: [{ tool: 'Planner', args: { request: 'plan an offsite' } }, { tool: 'slow_lookup', args: {} }] }],
    });

    const events = await collect(compile(root, { tools: createToolRegistry([...builtinTools.values(), slow]) }), { input: 'Please plan an offsite' });

    expect(turnEnd(events)).toMatchObject({ status: 'input-required', output: QUESTION });
    expect(ofType(events, 'tool-result').filter((event) => event.tool === 'slow_lookup')).toMatchObject([{ isError: false }]);
  });

  it('sends the answer back to the plan-dispatch specialist that asked, whatever the classifier would choose', async () => {
    const compiled = compile(offsiteDesk());
    const store = openSqliteStore(tempDbPath());

    await collect(compiled, { input: 'Please plan an offsite', sessionId: 's1', store });
    const answer = await collect(compiled, { input: 'Lisbon', sessionId: 's1', store });

    expect(ofType(answer, 'route')).toMatchObject([{ route: 'Planner', source: 'continuation', reason: 'answers the question Planner asked' }]);
    expect(turnEnd(answer)).toMatchObject({ status: 'completed', output: 'Lisbon it is: three days, twelve people.' });
    await store.close();
  });

  it('leaves the routing of the next message to the classifier once the question is answered', async () => {
    const compiled = compile(offsiteDesk());
    const store = openSqliteStore(tempDbPath());

    await collect(compiled, { input: 'Please plan an offsite', sessionId: 's1', store });
    await collect(compiled, { input: 'Lisbon', sessionId: 's1', store });
    const next = await collect(compiled, { input: 'Lisbon', sessionId: 's1', store });

    expect(ofType(next, 'route')).toMatchObject([{ route: 'General', source: 'classifier' }]);
    await store.close();
  });

  it('comes back to the model as an error result when the question is empty, and the turn goes on', async () => {
    const root = agent('Planner', { tools: ['ask_user'], script: [{ match: 'go', tool_calls: [{ tool: 'ask_user', args: { question: '  ' } }] }, { reply: 'I will decide myself.' }] });

    const events = await collect(compile(root), { input: 'go' });

    expect(ofType(events, 'tool-result')[0]).toMatchObject({ tool: 'ask_user', isError: true });
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'I will decide myself.' });
  });
});
