import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { agent, collect, compile } from './fixtures.js';

function answeringModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
      warnings: [],
    }),
  });
}

describe('generateContentConfig per provider', () => {
  it('warns once per agent and option, naming the agent, in tree order', () => {
    const root = agent('Boss', {
      model: 'gpt-5-mini',
      generateContentConfig: { topK: 40, temperature: 0.3 },
      subagents: [agent('Critic', { model: 'claude-sonnet-4-5', generateContentConfig: { seed: 7 } })],
    });

    const { warnings } = compile(root, { resolveModel: () => answeringModel() });

    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^Agent 'Boss': topK is not supported by OpenAI models and will be ignored — remove it or use a Gemini, Claude/);
    expect(warnings[1]).toMatch(/^Agent 'Critic': seed is not supported by Claude models and will be ignored/);
  });

  it('warns nothing offline, where every agent runs on the scripted model', () => {
    const root = agent('Boss', { model: 'gpt-5-mini', generateContentConfig: { topK: 40 } });

    expect(compile(root, { offline: true }).warnings).toEqual([]);
  });

  it('sends the mapped settings with each model call', async () => {
    const model = answeringModel();
    const root = agent('Boss', { model: 'claude-sonnet-4-5', generateContentConfig: { maxOutputTokens: 700, thinkingConfig: { thinkingBudget: 2048 } } });

    await collect(compile(root, { resolveModel: () => model }), { input: 'hi', stream: false });

    expect(model.doGenerateCalls[0]).toMatchObject({ maxOutputTokens: 700, providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } });
  });
});
