import { afterEach, describe, expect, it } from 'vitest';
import { agent, compile } from '../../runtime/fixtures.js';
import { userPrompt } from '../helpers.js';
import { startOpenAIFake } from './fakes/openai.js';
import type { FakeProvider } from './fakes/server.js';

// x_search, collections_search and web_search on a grok agent, through @ai-sdk/xai's Responses
// model, talking HTTP to a loopback fake of the Responses API (xAI serves the same shape).

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function toolsSent(tools: string[], env: Record<string, string>): Promise<unknown[]> {
  fake = (await startOpenAIFake()).answer({ text: ['Found it.'] });
  const compiled = compile(agent('Scout', { model: 'grok-4', tools }), { env: { XAI_API_KEY: 'test-key', XAI_BASE_URL: `${fake.url}/v1`, ...env } });
  await compiled.root.model.doGenerate({ prompt: userPrompt('What is new?'), tools: compiled.root.toolSpecs });
  expect(fake.requests[0]?.path).toBe('/v1/responses');
  return fake.requests[0]?.body.tools;
}

describe("xAI's search tools on the wire", () => {
  it('sends x_search with the handles and inclusive dates from the XAI_X_SEARCH_* variables', async () => {
    const tools = await toolsSent(['x_search'], {
      XAI_X_SEARCH_ALLOWED_HANDLES: '@xai, grok',
      XAI_X_SEARCH_FROM_DATE: '2026-01-01',
      XAI_X_SEARCH_TO_DATE: '2026-01-31',
    });

    expect(tools).toEqual([{ type: 'x_search', allowed_x_handles: ['xai', 'grok'], from_date: '2026-01-01', to_date: '2026-01-31' }]);
  });

  it('sends collections_search as file_search over XAI_COLLECTION_IDS, limited by XAI_COLLECTIONS_MAX_RESULTS', async () => {
    const tools = await toolsSent(['collections_search'], { XAI_COLLECTION_IDS: 'col_1,col_2', XAI_COLLECTIONS_MAX_RESULTS: '3' });

    expect(tools).toEqual([{ type: 'file_search', vector_store_ids: ['col_1', 'col_2'], max_num_results: 3 }]);
  });

  it('sends web_search with the domains of XAI_WEB_SEARCH_EXCLUDED_DOMAINS', async () => {
    const tools = await toolsSent(['web_search'], { XAI_WEB_SEARCH_EXCLUDED_DOMAINS: 'example.com,example.org' });

    expect(tools).toEqual([{ type: 'web_search', excluded_domains: ['example.com', 'example.org'] }]);
  });
});
