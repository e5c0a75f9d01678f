import { anthropic } from '@ai-sdk/anthropic';
import { google } from '@ai-sdk/google';
import { openai } from '@ai-sdk/openai';
import { xai } from '@ai-sdk/xai';
import { prepareToolsAndToolChoice } from 'ai/internal';
import { describe, expect, it } from 'vitest';
import { XAI_RESPONSES } from '../../src/models/providers.js';
import { resolveModel } from '../../src/models/resolveModel.js';
import { WEB_SEARCH_TOOL } from '../../src/config/builtinToolNames.js';
import { webSearchProblem, webSearchTool } from '../../src/models/webSearch.js';

/** What the AI SDK sends a model for a tool built by the provider's own factory. */
async function sdkProviderTool(tool: object): Promise<unknown> {
  // Each provider package bundles its own provider-utils, so its Tool type is not `ai`'s by name.
  const prepared = await prepareToolsAndToolChoice({ tools: { [WEB_SEARCH_TOOL]: tool as never }, toolChoice: undefined, activeTools: undefined });
  return prepared.tools?.[0];
}

describe('web_search provider tools', () => {
  it('equal what the Google SDK builds for google.tools.googleSearch', async () => {
    expect(webSearchTool('google')).toEqual(await sdkProviderTool(google.tools.googleSearch({})));
  });

  it('equal what the Anthropic SDK builds for anthropic.tools.webSearch_20250305', async () => {
    expect(webSearchTool('anthropic')).toEqual(await sdkProviderTool(anthropic.tools.webSearch_20250305({})));
  });

  it('equal what the OpenAI SDK builds for openai.tools.webSearch', async () => {
    expect(webSearchTool('openai')).toEqual(await sdkProviderTool(openai.tools.webSearch({})));
  });

  it('equal what the xAI SDK builds for xai.tools.webSearch', async () => {
    expect(webSearchTool('xai')).toEqual(await sdkProviderTool(xai.tools.webSearch({})));
  });

  it.each(['ollama', 'openai-compatible', 'scripted'] as const)('do not exist for %s models', (family) => {
    expect(webSearchTool(family)).toBeUndefined();
  });

  it('put an xAI agent with web_search on the Responses API, the only one that runs it', async () => {
    const real = await XAI_RESPONSES.load('key', 'grok-4');
    const model = resolveModel('grok-4', { agentName: 'Scout', subagents: [], webSearch: true }, { XAI_API_KEY: 'key' });

    expect(real.provider).toBe(XAI_RESPONSES.provider);
    expect(model.provider).toBe(real.provider);
  });

  it('leave an xAI agent without web_search on the chat API', () => {
    expect(resolveModel('grok-4', { agentName: 'Scout', subagents: [] }, { XAI_API_KEY: 'key' }).provider).toBe('xai.chat');
  });
});

describe('webSearchProblem', () => {
  it.each(['gemini-2.5-flash', 'gemini-3-pro-preview', 'claude-sonnet-4-5', 'gpt-5-mini', 'o3', 'grok-4', 'scripted'])('accepts web_search on %s', (id) => {
    expect(webSearchProblem(id, false)).toBeUndefined();
  });

  it.each(['ollama/qwen3:8b', 'openai-compatible:lmstudio/qwen3'])('refuses web_search on %s and names the providers that have it', (id) => {
    expect(webSearchProblem(id, false)).toBe(
      `lists web_search, but its model ${id} has no native web search — web_search works with Gemini (gemini-*), Claude (claude-*), OpenAI (gpt-*, o-series) and xAI (grok-*) models: give this agent one of those, or remove web_search`,
    );
  });

  it('refuses web_search next to other tools on Gemini 2, whose API cannot combine them', () => {
    expect(webSearchProblem('gemini-2.5-flash', true)).toContain('cannot combine with Google Search (Gemini 3 and newer can)');
  });

  it('accepts web_search next to other tools on Gemini 3', () => {
    expect(webSearchProblem('gemini-3-pro-preview', true)).toBeUndefined();
  });
});
