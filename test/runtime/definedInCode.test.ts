import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { defineAgent, defineSyndicate } from '../../src/config/define.js';
import { defineTool } from '../../src/core/tool.js';
import { compileSyndicate } from '../../src/runtime/compileSyndicate.js';
import { collectTurn } from '../../src/runtime/collectTurn.js';

// Definitions built in code (defineAgent/defineSyndicate) take what YAML cannot hold: any AI SDK
// language model object as an agent's model, and tool objects (defineTool) in its tools.

function answer(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } },
    warnings: [],
  };
}

function customModel(text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({ provider: 'acme.chat', modelId: 'acme-1', doGenerate: async () => answer(text) });
}

const weather = defineTool({
  name: 'weather',
  description: 'The weather in a city.',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, sky: 'sunny' }),
});

describe('syndicates defined in code', () => {
  it('runs an agent on the AI SDK language model given as its model', async () => {
    const model = customModel('Hello from Acme.');
    const syndicate = compileSyndicate(defineSyndicate(defineAgent('Greeter', { model })));

    const { events, end } = await collectTurn(syndicate, { input: 'hi', stream: false });

    expect(end).toMatchObject({ status: 'completed', output: 'Hello from Acme.' });
    expect(events.find((event) => event.type === 'usage')).toMatchObject({ provider: 'acme.chat', model: 'acme-1', inputTokens: 3 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('gives subagents that name no model their parent’s model object', () => {
    const model = customModel('ok');
    const root = defineAgent('Lead', { model, subagents: [defineAgent('Helper'), defineAgent('Scripted', { model: 'scripted' })] });

    const syndicate = compileSyndicate(defineSyndicate(root));

    expect(syndicate.agents.get('Helper')?.model).toBe(model);
    expect(syndicate.agents.get('Scripted')?.model.provider).toBe('scripted');
    expect(syndicate.root.modelId).toBe('acme-1');
  });

  it('distils long-term memory with the root’s model object when no extraction model is named', () => {
    const model = customModel('ok');

    const syndicate = compileSyndicate(defineSyndicate(defineAgent('Tutor', { model }), { memorySystem: 'long-term' }));

    expect(syndicate.extractionModel).toBe(model);
  });

  it('runs every agent on the scripted model offline, model objects too', async () => {
    const model = customModel('never called');
    const syndicate = compileSyndicate(defineSyndicate(defineAgent('Greeter', { model })), { offline: true });

    const { end } = await collectTurn(syndicate, { input: 'hi' });

    expect(end.status).toBe('completed');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('offers and runs a tool object listed in the agent’s tools', async () => {
    const root = defineAgent('Forecaster', {
      model: 'scripted',
      tools: ['calculator', weather],
      script: [{ tool_calls: [{ tool: 'weather', args: { city: 'Lisbon' } }] }, { match: 'sunny', reply: 'Sunny in Lisbon.' }],
    });
    const syndicate = compileSyndicate(defineSyndicate(root));

    const { events, end } = await collectTurn(syndicate, { input: 'weather in Lisbon?' });

    expect(syndicate.root.toolSpecs.map((tool) => tool.name)).toEqual(['calculator', 'weather']);
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ tool: 'weather', isError: false, output: { city: 'Lisbon', sky: 'sunny' } });
    expect(end.output).toBe('Sunny in Lisbon.');
  });

  it('refuses two tools of one name on one agent', () => {
    expect(() => defineAgent('Forecaster', { tools: [weather, { ...weather }] })).toThrow(/agent 'Forecaster' is given two tools named 'weather'/);
  });

  it('warns that provider search has no effect on a model object', () => {
    const syndicate = compileSyndicate(defineSyndicate(defineAgent('Scout', { model: customModel('ok'), tools: ['web_search'] })));

    expect(syndicate.warnings).toEqual([expect.stringMatching(/^Agent 'Scout': web_search has no effect on its model given in code \(acme-1\)/)]);
    expect(syndicate.root.toolSpecs).toEqual([]);
  });
});
