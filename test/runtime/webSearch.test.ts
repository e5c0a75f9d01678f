import type {
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolCall,
  LanguageModelV3ToolResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { SyndicateConfigError } from '../../src/config/errors.js';
import { webSearchProblems } from '../../src/runtime/webSearchProblems.js';
import { agent, collect, compile, ofType, syndicate, turnEnd } from './fixtures.js';

const USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const STOP = { unified: 'stop', raw: 'end_turn' } as const;

const SEARCH_CALL: LanguageModelV3ToolCall = { type: 'tool-call', toolCallId: 'srvtoolu_1', toolName: 'web_search', input: '{"query":"Lisbon offsite venues"}', providerExecuted: true };
const SEARCH_RESULT: LanguageModelV3ToolResult = { type: 'tool-result', toolCallId: 'srvtoolu_1', toolName: 'web_search', result: [{ url: 'https://example.com/venues', title: 'Venues' }] };
const ANSWER = 'Three venues fit the budget.';

function searchingStream(): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    SEARCH_CALL,
    SEARCH_RESULT,
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: ANSWER },
    { type: 'text-end', id: 't1' },
    { type: 'finish', usage: USAGE, finishReason: STOP },
  ];
}

const SEARCHING_GENERATION: LanguageModelV3GenerateResult = {
  content: [SEARCH_CALL, SEARCH_RESULT, { type: 'text', text: ANSWER }],
  finishReason: STOP,
  usage: USAGE,
  warnings: [],
};

function searchingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'anthropic.messages',
    modelId: 'claude-sonnet-4-5',
    doStream: async () => ({ stream: convertArrayToReadableStream(searchingStream()) }),
    doGenerate: async () => SEARCHING_GENERATION,
  });
}

function refusal(run: () => unknown): SyndicateConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof SyndicateConfigError) return error;
    throw error;
  }
  throw new Error('expected a SyndicateConfigError');
}

describe('native web search', () => {
  it('offers a Gemini agent Google Search as a provider tool after its function tools', () => {
    const compiled = compile(agent('Scout', { model: 'gemini-3-pro-preview', tools: ['web_search', 'calculator'] }), { resolveModel: () => searchingModel() });

    expect(compiled.root.toolSpecs.map((tool) => [tool.type, tool.name])).toEqual([
      ['provider', 'web_search'],
      ['function', 'calculator'],
    ]);
    expect(compiled.root.toolSpecs[0]).toEqual({ type: 'provider', id: 'google.google_search', name: 'web_search', args: {} });
  });

  it('keeps web_search out of the tools the runtime executes', () => {
    const compiled = compile(agent('Scout', { model: 'claude-sonnet-4-5', tools: ['web_search'] }), { resolveModel: () => searchingModel() });

    expect(compiled.root.tools.size).toBe(0);
  });

  it('sends the provider tool with the model call', async () => {
    const model = searchingModel();
    const compiled = compile(agent('Scout', { model: 'claude-sonnet-4-5', tools: ['web_search'] }), { resolveModel: () => model });

    await collect(compiled, { input: 'find venues' });

    expect(model.doStreamCalls[0]?.tools).toEqual([{ type: 'provider', id: 'anthropic.web_search_20250305', name: 'web_search', args: {} }]);
  });

  it.each([true, false])('reports a provider-executed search as tool events without running it (stream: %s)', async (stream) => {
    const model = searchingModel();
    const compiled = compile(agent('Scout', { model: 'claude-sonnet-4-5', tools: ['web_search'] }), { resolveModel: () => model });

    const events = await collect(compiled, { input: 'find venues', stream });

    expect(ofType(events, 'tool-call')).toMatchObject([{ tool: 'web_search', callId: 'srvtoolu_1', input: { query: 'Lisbon offsite venues' } }]);
    expect(ofType(events, 'tool-result')).toMatchObject([{ tool: 'web_search', callId: 'srvtoolu_1', isError: false, output: SEARCH_RESULT.result }]);
    expect(model.doStreamCalls.length + model.doGenerateCalls.length).toBe(1);
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: ANSWER });
  });

  it('still runs a local tool asked for in the same reply as a provider-executed search', async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        {
          stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
            SEARCH_CALL,
            SEARCH_RESULT,
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'calculator', input: '{"expression":"4800 / 12"}' },
            { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
          ]),
        },
        { stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([{ type: 'text-delta', id: 't', delta: 'Each gets 400.' }, { type: 'finish', usage: USAGE, finishReason: STOP }]) },
      ],
    });
    const compiled = compile(agent('Scout', { model: 'gemini-3-pro-preview', tools: ['web_search', 'calculator'] }), { resolveModel: () => model });

    const events = await collect(compiled, { input: 'find venues and split the budget' });

    expect(ofType(events, 'tool-result').map((event) => event.tool)).toEqual(['web_search', 'calculator']);
    const replayed = JSON.stringify(model.doStreamCalls[1]?.prompt);
    expect(replayed).toContain('call_2');
    expect(replayed).not.toContain('srvtoolu_1');
    expect(turnEnd(events).output).toBe('Each gets 400.');
  });

  it.each(['ollama/qwen3:8b', 'openai-compatible:lmstudio/qwen3'])('refuses web_search on %s, naming the agent and the providers that have it', (model) => {
    const error = refusal(() => compile(agent('Boss', { subagents: [agent('Scout', { model, tools: ['calculator', 'web_search'] })] })));

    expect(error.issues).toEqual([
      {
        file: 'test.yaml',
        line: 0,
        column: 0,
        path: 'subagents[0].tools[1]',
        message: `agent 'Scout' lists web_search, but its model ${model} has no native web search — web_search works with Gemini (gemini-*), Claude (claude-*), OpenAI (gpt-*, o-series) and xAI (grok-*) models: give this agent one of those, or remove web_search`,
      },
    ]);
  });

  it('refuses web_search when a model override puts the agent on a model without it', () => {
    const root = agent('Scout', { model: 'gpt-5-mini', tools: ['web_search'] });

    expect(webSearchProblems(syndicate(root), { modelOverride: 'ollama/llama3.2' })).toHaveLength(1);
    expect(webSearchProblems(syndicate(root))).toEqual([]);
  });

  it('checks a subagent that inherits its model against the inherited one', () => {
    const root = agent('Boss', { model: 'ollama/qwen3:8b', subagents: [agent('Scout', { model: undefined, tools: ['web_search'] })] });

    expect(webSearchProblems(syndicate(root))[0]?.message).toMatch(/^agent 'Scout' lists web_search, but its model ollama\/qwen3:8b/);
  });

  it('accepts web_search offline, where the scripted model is offered no search', () => {
    const compiled = compile(agent('Scout', { model: 'ollama/qwen3:8b', tools: ['web_search'] }), { offline: true });

    expect(compiled.root.toolSpecs).toEqual([]);
  });
});
