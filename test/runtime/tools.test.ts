import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRegistry, builtinTools } from '../../src/tools/registry.js';
import { defineTool } from '../../src/core/tool.js';
import { agent, collect, compile, ofType, recordCalls, turnEnd, type ModelCall } from './fixtures.js';

function calculatorAgent(script: NonNullable<Parameters<typeof agent>[1]>['script']) {
  return agent('Quartermaster', { tools: ['calculator'], script });
}

describe('tools', () => {
  it('runs a tool call and feeds its result back to the model', async () => {
    const calls: ModelCall[] = [];
    const root = calculatorAgent([{ tool_calls: [{ tool: 'calculator', args: { expression: '4800 / 12' } }] }, { match: 'result', reply: 'Each gets 400.' }]);

    const events = await collect(compile(root, { resolveModel: recordCalls(calls) }), { input: 'split the budget' });

    expect(ofType(events, 'tool-result')[0]).toMatchObject({ tool: 'calculator', isError: false, output: { result: 400 } });
    const toolMessage = calls[1]?.options.prompt.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('400');
    expect(turnEnd(events).output).toBe('Each gets 400.');
  });

  it('returns bad arguments to the model as an error result and goes on', async () => {
    const root = calculatorAgent([{ tool_calls: [{ tool: 'calculator', args: { expression: 42 } }] }, { reply: 'Sorry, let me fix that.' }]);

    const events = await collect(compile(root), { input: 'compute' });

    const result = ofType(events, 'tool-result')[0];
    expect(result?.isError).toBe(true);
    expect(String(result?.output)).toContain('Invalid arguments for calculator');
    expect(turnEnd(events).status).toBe('completed');
  });

  it('turns a throwing tool into an error result and goes on', async () => {
    const root = calculatorAgent([{ tool_calls: [{ tool: 'calculator', args: { expression: '1 / 0' } }] }, { reply: 'That cannot be computed.' }]);

    const events = await collect(compile(root), { input: 'compute' });

    expect(ofType(events, 'tool-result')[0]).toMatchObject({ isError: true });
    expect(String(ofType(events, 'tool-result')[0]?.output)).toContain('calculator failed');
    expect(turnEnd(events).output).toBe('That cannot be computed.');
  });

  it('answers a call to a tool the agent does not have with an error result listing its tools', async () => {
    const root = calculatorAgent([{ tool_calls: [{ tool: 'web_search', args: { query: 'x' } }] }, { reply: 'done' }]);

    const events = await collect(compile(root), { input: 'search' });

    expect(String(ofType(events, 'tool-result')[0]?.output)).toMatch(/no tool 'web_search'.*calculator/);
  });

  it('ends the turn with a max_steps error instead of looping forever', async () => {
    const root = calculatorAgent([{ tool_calls: [{ tool: 'calculator', args: { expression: '1+1' } }], repeat: true }]);

    const events = await collect(compile(root, {}, { maxSteps: 3 }), { input: 'loop' });

    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'max_steps' });
    expect(ofType(events, 'error')[0]?.message).toContain('max_steps');
    expect(ofType(events, 'tool-call')).toHaveLength(3);
    expect(turnEnd(events).status).toBe('failed');
  });

  it('offers the model a JSON schema generated from the tool’s zod schema', async () => {
    const calls: ModelCall[] = [];
    const echo = defineTool({ name: 'echo', description: 'Echoes.', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text });
    const tools = createToolRegistry([...builtinTools.values(), echo]);

    await collect(compile(agent('Echoer', { tools: ['echo'] }), { tools, resolveModel: recordCalls(calls) }), { input: 'hi' });

    expect(calls[0]?.options.tools).toEqual([
      { type: 'function', name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    ]);
  });
});
