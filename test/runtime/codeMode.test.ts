import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ScriptStep } from '../../src/config/schema.js';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/core/tool.js';
import { agent, collect, compile, ofType, recordCalls, turnEnd, type ModelCall } from './fixtures.js';

function runCode(code: string): ScriptStep {
  return { tool_calls: [{ tool: 'execute_code', args: { code } }] };
}

const COMBINE = [
  "const [split, advice] = await Promise.all([calculator({ expression: '4800 / 12' }), Advisor({ request: 'Is Lisbon a good offsite?' })]);",
  'return `Each of 12 pays ${split.result}. Advisor says: ${advice}`;',
].join('\n');

function planner(script: ScriptStep[], fields: Parameters<typeof agent>[1] = {}) {
  return agent('Planner', { codeMode: true, tools: ['calculator'], subagents: [agent('Advisor', { description: 'Judges offsite venues.' })], script, ...fields });
}

describe('code mode', () => {
  it('runs a script that calls the calculator and a subagent and combines their answers', async () => {
    const root = planner([runCode(COMBINE), { match: 'Each of 12 pays', reply: 'Planned.' }]);

    const events = await collect(compile(root), { input: 'plan the offsite' });

    const result = ofType(events, 'tool-result').find((event) => event.tool === 'execute_code');
    expect(result).toMatchObject({ isError: false, output: { result: expect.stringMatching(/^Each of 12 pays 400\. Advisor says: \[Advisor\] On "Is Lisbon a good offsite\?"/) } });
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Planned.' });
  });

  it('nests the script’s tool calls and delegations under its execute_code call in the event stream', async () => {
    const root = planner([runCode(COMBINE), { match: 'Each of 12 pays', reply: 'Planned.' }]);

    const events = await collect(compile(root), { input: 'plan the offsite' });

    const execute = ofType(events, 'tool-call').find((event) => event.tool === 'execute_code')!;
    const calculator = ofType(events, 'tool-call').find((event) => event.tool === 'calculator');
    const delegation = ofType(events, 'delegation-start')[0];
    expect(calculator).toMatchObject({ agent: 'Planner', depth: 0, parentCallId: execute.callId, input: { expression: '4800 / 12' } });
    expect(ofType(events, 'tool-result').find((event) => event.tool === 'calculator')).toMatchObject({ parentCallId: execute.callId, output: { result: 400 } });
    expect(delegation).toMatchObject({ to: 'Advisor', parentCallId: execute.callId, request: 'Is Lisbon a good offsite?' });
    expect(ofType(events, 'message').find((event) => event.agent === 'Advisor')).toMatchObject({ depth: 1, delegationId: delegation!.callId });
    const order = events.map((event) => event.type);
    expect(order.indexOf('tool-call')).toBeLessThan(order.indexOf('delegation-start'));
    expect(events.findIndex((event) => event.type === 'tool-result' && event.tool === 'execute_code')).toBeGreaterThan(order.lastIndexOf('delegation-end'));
  });

  it('reports every model call a script causes as usage, like any delegation', async () => {
    const root = planner([runCode(COMBINE), { match: 'Each of 12 pays', reply: 'Planned.' }]);

    const events = await collect(compile(root), { input: 'plan the offsite' });

    expect(ofType(events, 'usage').map((event) => event.agent)).toEqual(['Planner', 'Advisor', 'Planner']);
  });

  it('offers the model execute_code, list_tool_functions and describe_tool_function instead of the tools', async () => {
    const calls: ModelCall[] = [];
    const root = planner([{ reply: 'Nothing to do.' }]);

    await collect(compile(root, { resolveModel: recordCalls(calls) }), { input: 'hello' });

    const offered = calls[0]!.options.tools!;
    expect(offered.map((tool) => tool.name)).toEqual(['execute_code', 'list_tool_functions', 'describe_tool_function']);
    expect(offered[0]).toMatchObject({ description: expect.stringContaining('Tool functions: Advisor, calculator.') });
  });

  it('describes a tool function as a TypeScript declaration generated from its input schema', async () => {
    const root = planner([{ tool_calls: [{ tool: 'describe_tool_function', args: { name: 'calculator' } }] }, { reply: 'Understood.' }]);

    const events = await collect(compile(root), { input: 'how do I add?' });

    const doc = ofType(events, 'tool-result')[0]!.output as string;
    expect(doc).toContain('async function calculator(input: {');
    expect(doc).toMatch(/\/\*\* Arithmetic expression, e\.g\. .*\*\/\n {2}expression: string;/);
  });

  it('lists the tool functions, a subagent among them', async () => {
    const root = planner([{ tool_calls: [{ tool: 'list_tool_functions', args: {} }] }, { reply: 'Understood.' }]);

    const events = await collect(compile(root), { input: 'what can I call?' });

    expect(ofType(events, 'tool-result')[0]!.output).toMatch(/^Advisor: Judges offsite venues\.\ncalculator: /);
  });

  it('gives an identifier to a tool whose name is not one, and calls the tool by its own name', async () => {
    const dashed = defineTool({ name: 'word-count', description: 'Counts words.', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text.split(' ').length });
    const tools = createToolRegistry([...builtinTools.values(), dashed]);
    const root = agent('Counter', { codeMode: true, tools: ['word-count'], script: [runCode("return await word_count({ text: 'one two three' });"), { reply: 'Counted.' }] });

    const events = await collect(compile(root, { tools }), { input: 'count' });

    expect(ofType(events, 'tool-call')[1]).toMatchObject({ tool: 'word-count' });
    expect(ofType(events, 'tool-result').at(-1)).toMatchObject({ tool: 'execute_code', output: { result: 3 } });
  });

  it('returns a syntax error to the model with its line, and the turn goes on', async () => {
    const root = planner([runCode('const a = 1;\nconst b = a +;\nreturn b;'), { match: 'did not compile', reply: 'Let me fix that.' }]);

    const events = await collect(compile(root), { input: 'compute' });

    const result = ofType(events, 'tool-result')[0]!;
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^The script did not compile: SyntaxError: .* \(line 2: `const b = a \+;`\)\.$/);
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Let me fix that.' });
  });

  it('throws a failing tool call into the script, where an uncaught one fails the script with its line', async () => {
    const root = planner([runCode("const ok = await calculator({ expression: '1 + 1' });\nconst bad = await calculator({ expression: '1 / 0' });\nreturn bad;"), { reply: 'That failed.' }]);

    const events = await collect(compile(root), { input: 'compute' });

    const result = ofType(events, 'tool-result').at(-1)!;
    expect(result).toMatchObject({ tool: 'execute_code', isError: true });
    expect(result.output).toMatch(/^The script threw: Error: calculator failed: .*\(line 2: /);
    expect(turnEnd(events).status).toBe('completed');
  });

  it('returns the script’s console output with its result', async () => {
    const root = planner([runCode("console.log('working');\nreturn 1;"), { reply: 'Done.' }]);

    const events = await collect(compile(root), { input: 'go' });

    expect(ofType(events, 'tool-result')[0]!.output).toEqual({ result: 1, logs: ['working'] });
  });

  it('cancels the turn while a script waits for a tool, and stops the script', async () => {
    const controller = new AbortController();
    const hang = defineTool({
      name: 'hang',
      description: 'Never answers.',
      inputSchema: z.object({}),
      execute: (_input, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
          controller.abort();
        }),
    });
    const tools = createToolRegistry([...builtinTools.values(), hang]);
    const root = agent('Waiter', { codeMode: true, tools: ['hang'], script: [runCode('await hang({});\nreturn 1;'), { reply: 'never' }] });

    const events = await collect(compile(root, { tools }), { input: 'wait', signal: controller.signal });

    expect(turnEnd(events).status).toBe('cancelled');
  });

  it('closes the events of a call the script left running when it returned', async () => {
    const slow = defineTool({
      name: 'slow',
      description: 'Answers when stopped.',
      inputSchema: z.object({}),
      execute: (_input, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))),
    });
    const tools = createToolRegistry([...builtinTools.values(), slow]);
    const root = agent('Hasty', { codeMode: true, tools: ['slow'], script: [runCode("slow({});\nreturn 'early';"), { reply: 'ok' }] });

    const events = await collect(compile(root, { tools }), { input: 'go' });

    const results = ofType(events, 'tool-result');
    expect(results[0]).toMatchObject({ tool: 'slow', isError: true, output: 'stopped: the script ended before this call finished' });
    expect(results[1]).toMatchObject({ tool: 'execute_code', output: { result: 'early', note: expect.stringContaining('1 tool call(s) were still running') } });
    expect(turnEnd(events).status).toBe('completed');
  });
});
